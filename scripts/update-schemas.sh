#!/usr/bin/env bash
# Regenerates schemas/*.schema.json from the types that write dominofit's JSON.
# The test `schemas::shipped_schemas_are_the_generated_ones` fails until this is run
# after a change to an output type.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
bin=target/debug/dominofit
rm -f schemas/*.schema.json
mkdir -p schemas
for name in $("$bin" schema | awk '{print $1}'); do
    "$bin" schema "$name" > "schemas/$name.schema.json"
done
ls schemas
