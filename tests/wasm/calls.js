// Runs calls of the WebAssembly module (built by wasm-bindgen for Node.js) on requests
// read from standard input, one JSON array of {"call", "args"}, and prints one JSON
// array of {"ok": text} or {"err": message}, in order. An argument {"bigint": "N"} is
// handed over as the BigInt N (a u64 on the Rust side, such as a seed). scripts/wasm_parity.py compares
// each answer with what the command line prints for the same input.
"use strict";
const path = require("path");
const fs = require("fs");

const module_path = process.argv[2];
if (!module_path) {
    process.stderr.write("usage: node calls.js MODULE.js < requests.json\n");
    process.exit(2);
}
const engine = require(path.resolve(module_path));
const requests = JSON.parse(fs.readFileSync(0, "utf8"));
const value = (arg) =>
    arg !== null && typeof arg === "object" && "bigint" in arg ? BigInt(arg.bigint) : arg;
const answers = requests.map(({ call, args }) => {
    if (typeof engine[call] !== "function") {
        return { err: `no call named ${call}` };
    }
    try {
        return { ok: engine[call](...args.map(value)) };
    } catch (thrown) {
        return { err: String(thrown) };
    }
});
process.stdout.write(JSON.stringify(answers));
