// The page's bounds and words (issue "Hardening, round five"), run on the WebAssembly
// module built for Node.js: numbers refused as the command line refuses them, a random
// tiling of a large holed shape ending within its limit, memory and text-size refusals
// in the page's words. Prints one line per check and "N passed, M failed".
"use strict";
const path = require("path");

const module_path = process.argv[2];
if (!module_path) {
    process.stderr.write("usage: node limits.js MODULE.js\n");
    process.exit(2);
}
const engine = require(path.resolve(module_path));
const observed = JSON.stringify({
    name: "observed-8x8", rows: 8, cols: 8,
    blocked: [[1, 8], [2, 8], [5, 1], [5, 6], [8, 5], [8, 8]],
    row_clues: [7, 4, 6, 4, 6, 8, 8, 4], col_clues: [3, 5, 2, 14, 4, 5, 7, 7],
});
let passed = 0, failed = 0;
function check(what, ok, detail) {
    if (ok) { passed += 1; console.log(`ok   ${what}`); }
    else { failed += 1; console.log(`FAIL ${what}: ${detail}`); }
}
function refusal(call) {
    try { call(); return null; } catch (thrown) { return String(thrown); }
}

// Numbers: what `dominofit solve --limit 1.5` and friends refuse, in their words.
for (const [what, call, words] of [
    ["solve limit -1", () => engine.solve(observed, -1, 0), "invalid value '-1' for 'limit': invalid digit found in string"],
    ["solve limit NaN", () => engine.solve(observed, NaN, 0), "invalid value 'NaN' for 'limit': invalid digit found in string"],
    ["solve limit 1.5", () => engine.solve(observed, 1.5, 0), "invalid value '1.5' for 'limit': invalid digit found in string"],
    ["solve timeout -1", () => engine.solve(observed, 1, -1), "invalid value '-1' for 'timeout_ms'"],
    ["solve timeout NaN", () => engine.solve(observed, 1, NaN), "invalid value 'NaN' for 'timeout_ms'"],
    ["generate rows -1", () => engine.generate(-1, 5, 1n, 1, false, "flips"), "invalid value '-1' for 'rows': invalid digit found in string"],
    ["generate seed -1", () => engine.generate(5, 5, -1n, 1, false, "flips"), "invalid value '-1' for 'seed': invalid digit found in string"],
    ["generate count 2^32", () => engine.generate(5, 5, 1n, 2 ** 64, false, "flips"), "invalid value '18446744073709552000' for 'count': number too large to fit in target type"],
    ["shared max_tilings 1", () => engine.shared(observed, 1, 64, 0), "invalid value '1' for 'max_tilings': 1 is not in 2..=1000000"],
    ["generateUnique level 2.5", () => engine.generateUnique(8, 8, 5n, 1, 2.5), "invalid value '2.5' for 'level': invalid digit found in string"],
]) {
    const said = refusal(call);
    check(what, said !== null && said.includes(words), said);
}
check("solve limit 2 still answers", engine.solve(observed, 2, 0).includes('"status":"unique"'), "");

// A random tiling of a 2048x2048 shape with 600,000 holes: a random tiling (flips from
// rows of horizontal pieces), less 300,000 of its pieces drawn at random.
const n = 2048;
let draw = 0x9e3779b9;
const next = () => { draw ^= draw << 13; draw ^= draw >>> 17; draw ^= draw << 5; return (draw >>> 0) / 4294967296; };
const mate = new Int32Array(n * n);
for (let a = 0; a < n * n; a += 2) { mate[a] = a + 1; mate[a + 1] = a; }
for (let k = 0; k < 4 * n * n; k++) {
    const a = Math.floor(next() * (n - 1)) * n + Math.floor(next() * (n - 1));
    const b = a + 1, d = a + n, e = d + 1;
    if (mate[a] === b && mate[d] === e) { mate[a] = d; mate[d] = a; mate[b] = e; mate[e] = b; }
    else if (mate[a] === d && mate[b] === e) { mate[a] = b; mate[b] = a; mate[d] = e; mate[e] = d; }
}
const starts = [];
for (let a = 0; a < n * n; a++) if (mate[a] > a) starts.push(a);
for (let k = starts.length - 1; k > 0; k--) {
    const j = Math.floor(next() * (k + 1)); [starts[k], starts[j]] = [starts[j], starts[k]];
}
const blocked = [];
for (const a of starts.slice(0, 300000)) for (const x of [a, mate[a]]) blocked.push([Math.floor(x / n) + 1, (x % n) + 1]);
const shape = JSON.stringify({ name: "holed", rows: n, cols: n, blocked, row_clues: new Array(n).fill(0), col_clues: new Array(n).fill(0) });
const limit = 2000;
let started = Date.now();
let said = refusal(() => engine.randomTiling(shape, 1n, limit));
let took = Date.now() - started;
check(`randomTiling of a 2048x2048 shape with 600,000 holes ends within ${limit} ms + 0.5 s (${took} ms)`,
      took <= limit + 500 && (said === null || said.includes("time limit")), said);

// Memory: a page's budget is fixed, and it has no --memory and no other backend.
const big = engine.generate(2048, 2048, 1n, 1, false, "flips");
said = refusal(() => engine.solve(big, 1, 0));
check("solve of a 2048x2048 board is refused in the page's words",
      said !== null && said.includes("a page's fixed share") && !said.includes("--memory"), said);
said = refusal(() => engine.emit(big, "dimacs", "totalizer", "colour"));
check("emit to DIMACS of a 2048x2048 board names no flag and no ILP backend",
      said !== null && !said.includes("--memory") && !said.includes("ILP"), said);
started = Date.now();
said = refusal(() => engine.emit(big, "mzn", "totalizer", "colour"));
took = Date.now() - started;
check(`emit to MiniZinc of a 2048x2048 board is refused before it is written, with its size (${took} ms)`,
      said !== null && said.includes("MiniZinc text would be about"), said);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
