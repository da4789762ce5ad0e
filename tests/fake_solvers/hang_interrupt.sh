#!/bin/sh
# Like hang.sh (a different sleep, so tests running at once can tell their processes apart).
sleep 32.75
echo "s UNSATISFIABLE"
exit 20
