// The studio page: a designer's board and a player's, on the engine in a worker.
//
// Every answer comes from the WebAssembly module (the command line's calls, in
// worker.js); this file keeps the board, draws it and asks. Text from a file or a user
// (a board's name, an error) is put on the page as text, never as markup.

// ---------- the engine, in a worker that a newer request replaces ----------

let worker = null;
let pending = new Map();
let nextId = 1;

function startWorker() {
    worker = new Worker("worker.js", { type: "module" });
    worker.onmessage = (event) => {
        const { id, ok, err } = event.data;
        const waiting = pending.get(id);
        if (!waiting) return;
        pending.delete(id);
        if (err !== undefined) waiting.reject(new Error(err));
        else waiting.resolve(ok);
    };
}

/// Asks the engine; a call of an older generation still running is stopped by ending
/// its worker (a search does not read messages), and its promise is dropped.
function ask(call, ...args) {
    return new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, call, args });
    });
}

/// Stops whatever the engine is doing: the answers asked for are no longer wanted.
function stopEngine() {
    if (pending.size > 0) {
        worker.terminate();
        pending.clear();
        startWorker();
    }
}

startWorker();

// ---------- the board ----------

const state = {
    name: "studio",
    rows: 6,
    cols: 6,
    blocked: new Set(), // "r,c", zero-based
    pieces: [], // {o: "v" | "h", r, c}, zero-based start cells
    clues: null, // {rows: [...], cols: [...]} once known
    cluesFromPieces: true, // clues follow the pieces (designer) or are the board's (imported)
    differ: new Set(),
    hinted: new Set(),
};
let generation = 0;

const $ = (id) => document.getElementById(id);
const key = (r, c) => `${r},${c}`;

function say(text) {
    $("message").textContent = text;
}

function cellsOf(piece) {
    return piece.o === "v"
        ? [[piece.r, piece.c], [piece.r + 1, piece.c]]
        : [[piece.r, piece.c], [piece.r, piece.c + 1]];
}

function pieceAt(r, c) {
    return state.pieces.findIndex((p) => cellsOf(p).some(([a, b]) => a === r && b === c));
}

/// The board as the instance format has it, one-based, with `clues` (zeros when none).
function instanceJson(clues) {
    const blocked = [...state.blocked]
        .map((k) => k.split(",").map(Number))
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .map(([r, c]) => [r + 1, c + 1]);
    return JSON.stringify({
        name: state.name,
        rows: state.rows,
        cols: state.cols,
        blocked,
        row_clues: clues ? clues.rows : new Array(state.rows).fill(0),
        col_clues: clues ? clues.cols : new Array(state.cols).fill(0),
    });
}

function solutionJson() {
    const of = (o) => state.pieces.filter((p) => p.o === o)
        .map((p) => [p.r + 1, p.c + 1])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return JSON.stringify({ vertical: of("v"), horizontal: of("h") });
}

/// Builds the grid's cells for the board's size, once per size: drawing after an edit
/// only changes what the cells show, so a drag goes on over the same cells.
function build() {
    const grid = $("grid");
    grid.replaceChildren();
    grid.style.gridTemplateColumns = `repeat(${state.cols + 1}, 1.6rem)`;
    grid.dataset.size = key(state.rows, state.cols);
    const corner = document.createElement("div");
    corner.className = "corner";
    grid.append(corner);
    for (let c = 0; c < state.cols; c++) {
        const clue = document.createElement("div");
        clue.className = "clue col-clue";
        grid.append(clue);
    }
    for (let r = 0; r < state.rows; r++) {
        const clue = document.createElement("div");
        clue.className = "clue row-clue";
        grid.append(clue);
        for (let c = 0; c < state.cols; c++) {
            const cell = document.createElement("div");
            cell.className = "cell";
            cell.dataset.r = r;
            cell.dataset.c = c;
            grid.append(cell);
        }
    }
}

function draw() {
    const grid = $("grid");
    if (grid.dataset.size !== key(state.rows, state.cols)) build();
    grid.querySelectorAll(".col-clue").forEach((clue, c) => {
        clue.textContent = state.clues ? String(state.clues.cols[c]) : "";
    });
    grid.querySelectorAll(".row-clue").forEach((clue, r) => {
        clue.textContent = state.clues ? String(state.clues.rows[r]) : "";
    });
    const covered = new Map();
    for (const piece of state.pieces) {
        const [[r1, c1], [r2, c2]] = cellsOf(piece);
        covered.set(key(r1, c1), piece.o === "v" ? ["v", "top", "●"] : ["h", "left", ""]);
        covered.set(key(r2, c2), piece.o === "v" ? ["v", "bottom", ""] : ["h", "right", "●●"]);
    }
    for (const cell of grid.querySelectorAll(".cell")) {
        const at = key(Number(cell.dataset.r), Number(cell.dataset.c));
        const piece = covered.get(at);
        cell.className = "cell";
        if (state.blocked.has(at)) cell.classList.add("blocked");
        if (piece) cell.classList.add("piece", piece[0], piece[1]);
        if (state.differ.has(at)) cell.classList.add("differs");
        if (state.hinted.has(at)) cell.classList.add("hinted");
        cell.textContent = piece ? piece[2] : "";
    }
}

// ---------- what the designer sees, live ----------

function readout(fields) {
    for (const [id, text] of Object.entries(fields)) $(id).textContent = text;
}

const VERDICT = { unique: "unique", multiple: "several", unsat: "none", sat: "at least one", unknown: "unknown (time ran out)" };

async function analyse() {
    const mine = ++generation;
    stopEngine();
    state.differ = new Set();
    state.hinted = new Set();
    readout({ proposal: "", "hint-reason": "", "check-result": "" });
    const timeout = Math.max(50, Number($("timeout").value) || 2000);
    try {
        if (state.cluesFromPieces) {
            if (!coversEveryOpenCell()) {
                state.clues = null;
                draw();
                readout({ verdict: "place pieces on every open cell", level: "–", score: "–", differ: "–" });
                return;
            }
            const clued = JSON.parse(await ask("cluesOf", instanceJson(null), solutionJson()));
            if (mine !== generation) return;
            state.clues = { rows: clued.row_clues, cols: clued.col_clues };
        }
        draw();
        const board = instanceJson(state.clues);
        readout({ verdict: "…", level: "…", score: "…", differ: "…" });
        const solved = JSON.parse(await ask("solve", board, 2, timeout));
        if (mine !== generation) return;
        readout({ verdict: VERDICT[solved.status] || solved.status });
        const graded = JSON.parse(await ask("grade", board, timeout));
        if (mine !== generation) return;
        readout({
            level: graded.level ? `${graded.level_number}: ${graded.level}` : "none",
            score: String(graded.score),
        });
        const shared = JSON.parse(await ask("shared", board, 1000, 64, timeout));
        if (mine !== generation) return;
        state.differ = new Set(shared.differ.map(([r, c]) => key(r - 1, c - 1)));
        state.proposal = shared.change;
        readout({ differ: String(shared.differ.length) });
        draw();
    } catch (error) {
        if (mine === generation) say(error.message);
    }
}

function coversEveryOpenCell() {
    const seen = new Set();
    for (const piece of state.pieces) {
        for (const [r, c] of cellsOf(piece)) {
            if (r >= state.rows || c >= state.cols || state.blocked.has(key(r, c)) || seen.has(key(r, c))) {
                return false;
            }
            seen.add(key(r, c));
        }
    }
    return seen.size + state.blocked.size === state.rows * state.cols;
}

// ---------- editing ----------

let painting = null; // while dragging in block mode: whether cells become blocked

function mode() {
    return document.querySelector('input[name="mode"]:checked').value;
}

function edit(r, c, dragging) {
    const m = mode();
    if (m === "block") {
        if (!designer()) return;
        if (painting === null) painting = !state.blocked.has(key(r, c));
        const at = pieceAt(r, c);
        if (at >= 0) state.pieces.splice(at, 1);
        if (painting) state.blocked.add(key(r, c));
        else state.blocked.delete(key(r, c));
    } else if (dragging) {
        return;
    } else if (m === "erase") {
        const at = pieceAt(r, c);
        if (at >= 0) state.pieces.splice(at, 1);
    } else if (m === "vertical" || m === "horizontal") {
        place({ o: m === "vertical" ? "v" : "h", r, c });
        return;
    } else {
        return; // the drag mode lays its pieces as the drag reaches a neighbour
    }
    say("");
    changed();
}

/// Places `piece` if it fits on open cells no piece covers; says why not otherwise.
function place(piece) {
    const fits = cellsOf(piece).every(([a, b]) => a < state.rows && b < state.cols
        && !state.blocked.has(key(a, b)) && pieceAt(a, b) < 0);
    if (!fits) {
        say("that piece does not fit there: it would leave the board, cover a blocked cell or another piece");
        return;
    }
    state.pieces.push(piece);
    say("");
    changed();
}

let dragFrom = null; // in the drag mode: the cell a drag began on, until it reaches a neighbour

/// The piece a drag from `from` to the neighbouring cell `to` lays: vertical across
/// rows, horizontal across columns, named by its top or left cell.
function pieceBetween([r1, c1], [r2, c2]) {
    if (Math.abs(r1 - r2) + Math.abs(c1 - c2) !== 1) return null;
    return { o: r1 !== r2 ? "v" : "h", r: Math.min(r1, r2), c: Math.min(c1, c2) };
}

function changed() {
    if (designer()) {
        state.cluesFromPieces = true;
        analyse();
    } else {
        state.hinted = new Set();
        draw();
    }
}

function designer() {
    return document.querySelector('input[name="view"]:checked').value === "designer";
}

$("grid").addEventListener("mousedown", (event) => {
    const cell = event.target.closest(".cell");
    dragFrom = null;
    if (!cell || event.button !== 0) return;
    event.preventDefault();
    painting = null;
    if (mode() === "drag") {
        dragFrom = [Number(cell.dataset.r), Number(cell.dataset.c)];
        return;
    }
    edit(Number(cell.dataset.r), Number(cell.dataset.c), false);
    if (mode() !== "block") painting = null;
});
$("grid").addEventListener("mouseover", (event) => {
    const cell = event.target.closest(".cell");
    if (cell && dragFrom && mode() === "drag" && (event.buttons & 1)) {
        const to = [Number(cell.dataset.r), Number(cell.dataset.c)];
        // Back on the cell it began on (over the gap between cells and back): not yet.
        if (to[0] === dragFrom[0] && to[1] === dragFrom[1]) return;
        const piece = pieceBetween(dragFrom, to);
        dragFrom = null;
        if (piece) place(piece);
        else say("drag from a cell to a cell next to it (beside it, above or below) to lay a piece on both");
        return;
    }
    if (!cell || painting === null || !(event.buttons & 1)) return;
    edit(Number(cell.dataset.r), Number(cell.dataset.c), true);
});
document.addEventListener("mouseup", () => { painting = null; dragFrom = null; });

function newBoard(rows, cols) {
    Object.assign(state, {
        name: "studio", rows, cols, blocked: new Set(), pieces: [], clues: null,
        cluesFromPieces: true, differ: new Set(), hinted: new Set(),
    });
}

/// The size asked for: at most `most` rows and columns.
function size(most) {
    const rows = Number($("rows").value);
    const cols = Number($("cols").value);
    const whole = (n) => Number.isInteger(n) && n >= 1 && n <= most;
    if (!whole(rows) || !whole(cols)) {
        throw new Error(`rows and cols are whole numbers from 1 to ${most}`);
    }
    return [rows, cols];
}

$("new-board").addEventListener("click", () => {
    try {
        // Drawn and edited cell by cell, a board beyond 32×32 would not fit a screen.
        const [rows, cols] = size(32);
        newBoard(rows, cols);
        say("");
        analyse();
    } catch (error) {
        say(error.message);
    }
});

/// Shows board `line` (instance JSON) with its first tiling as the pieces (the
/// designer's clues then follow the pieces, which make the same clues), or none (the
/// player's).
async function showMade(line) {
    load(line, true);
    const timeout = Math.max(50, Number($("timeout").value) || 2000);
    const solved = JSON.parse(await ask("solve", line, 1, timeout));
    if (designer() && solved.solutions.length === 1) {
        const tiling = solved.solutions[0];
        state.pieces = tiling.vertical.map(([r, c]) => ({ o: "v", r: r - 1, c: c - 1 }))
            .concat(tiling.horizontal.map(([r, c]) => ({ o: "h", r: r - 1, c: c - 1 })));
        state.cluesFromPieces = true;
    }
    say("");
    if (designer()) analyse();
    else draw();
}

function seed() {
    return BigInt(Math.max(0, Math.floor(Number($("seed").value) || 0)));
}

$("random").addEventListener("click", async () => {
    try {
        // A random board may be larger: the search's time limit is what is tried.
        const [rows, cols] = size(128);
        stopEngine();
        await showMade((await ask("generate", rows, cols, seed(), 1, false, "flips")).trim());
    } catch (error) {
        say(error.message);
    }
});

$("random-tiling").addEventListener("click", async () => {
    try {
        stopEngine();
        const timeout = Math.max(50, Number($("timeout").value) || 2000);
        const tiling = JSON.parse(await ask("randomTiling", instanceJson(null), seed(), timeout));
        state.pieces = tiling.vertical.map(([r, c]) => ({ o: "v", r: r - 1, c: c - 1 }))
            .concat(tiling.horizontal.map(([r, c]) => ({ o: "h", r: r - 1, c: c - 1 })));
        say("");
        changed();
    } catch (error) {
        say(error.message);
    }
});

$("generate-level").addEventListener("click", async () => {
    try {
        const [rows, cols] = size(32);
        stopEngine();
        say("generating: unique candidates are made and graded until one is at the level");
        const level = Number($("level-choice").value);
        await showMade((await ask("generateUnique", rows, cols, seed(), 1, level)).trim());
    } catch (error) {
        say(error.message);
    }
});

/// A board from instance JSON: its cells, its name and its clues.
function load(text, keepClues) {
    const board = JSON.parse(text);
    newBoard(board.rows, board.cols);
    state.name = board.name || "studio";
    for (const [r, c] of board.blocked) state.blocked.add(key(r - 1, c - 1));
    if (keepClues) {
        state.clues = { rows: board.row_clues, cols: board.col_clues };
        state.cluesFromPieces = false;
    }
    $("rows").value = board.rows;
    $("cols").value = board.cols;
}

$("propose").addEventListener("click", () => {
    const change = state.proposal;
    if (!change) {
        $("proposal").textContent = state.differ.size
            ? "no hole found within the tries"
            : "the board is unique already, or not analysed yet";
        return;
    }
    const board = change.board;
    const holes = board.blocked.filter(([r, c]) => !state.blocked.has(key(r - 1, c - 1)));
    $("proposal").textContent = `block ${holes.map(([r, c]) => `(${r},${c})`).join(" ")}: then it is unique`;
});

// ---------- the player ----------

/// The engine's answer to `call` on the board shown and the pieces placed (then `rest`),
/// parsed; a call still running is stopped, since the player's new request replaces it.
async function askAboutPosition(call, ...rest) {
    if (!state.clues) throw new Error("the board has no clues yet");
    stopEngine();
    return JSON.parse(await ask(call, instanceJson(state.clues), solutionJson(), ...rest));
}

/// The next deduction from the pieces placed: the engine's walkthrough of one step.
function nextStep() {
    return askAboutPosition("hint", 2000);
}

/// How many pieces placed are in no tiling.
function wrongPieces(walk) {
    return walk.take_back.vertical.length + walk.take_back.horizontal.length;
}

$("hint").addEventListener("click", async () => {
    try {
        const walk = await nextStep();
        const step = walk.steps[0];
        if (wrongPieces(walk) > 0) {
            $("hint-reason").textContent = "some pieces placed are in no tiling: take them back";
            state.hinted = new Set();
        } else if (!step) {
            $("hint-reason").textContent = walk.outcome === "solved" ? "solved" : `no deduction (${walk.outcome})`;
            state.hinted = new Set();
        } else {
            $("hint-reason").textContent = step.reason;
            state.hinted = new Set(step.cells.map(([r, c]) => key(r - 1, c - 1)));
        }
        draw();
    } catch (error) {
        say(error.message);
    }
});

$("hint-proof").addEventListener("click", async () => {
    try {
        const proof = await askAboutPosition("hintProof", 2000);
        offer([
            { text: proof.proof, file: "hint.pbp", type: "text/plain" },
            { text: proof.formula, file: "hint.opb", type: "text/plain" },
        ]);
        say("");
    } catch (error) {
        say(error.message);
    }
});

$("check").addEventListener("click", async () => {
    try {
        const back = wrongPieces(await nextStep());
        $("check-result").textContent = back > 0
            ? `no tiling from here: take back ${back} piece${back === 1 ? "" : "s"}`
            : "there is still a tiling from here";
    } catch (error) {
        say(error.message);
    }
});

$("walk").addEventListener("click", async () => {
    try {
        const walk = await askAboutPosition("explain", 5000, false);
        const list = $("walk-steps");
        list.replaceChildren();
        for (const step of walk.steps) {
            const item = document.createElement("li");
            item.textContent = step.reason;
            list.append(item);
        }
    } catch (error) {
        say(error.message);
    }
});

// ---------- files ----------

/// Shows the first of `files` ({text, file, type}) and offers each for download, under
/// its file name.
function offer(files) {
    $("export").value = files[0].text;
    const links = $("downloads");
    for (const old of links.querySelectorAll("a")) URL.revokeObjectURL(old.href);
    links.replaceChildren(...files.map(({ text, file, type }) => {
        const link = document.createElement("a");
        link.href = URL.createObjectURL(new Blob([text], { type }));
        link.download = file;
        link.textContent = `download ${file}`;
        return link;
    }));
}

$("export-instance").addEventListener("click", () => {
    if (!state.clues) return say("the board has no clues yet: cover every open cell");
    offer([{ text: JSON.stringify(JSON.parse(instanceJson(state.clues))) + "\n", file: "board.json", type: "application/json" }]);
});
$("export-solution").addEventListener("click", () => {
    offer([{ text: solutionJson() + "\n", file: "board.solution.json", type: "application/json" }]);
});
$("export-svg").addEventListener("click", async () => {
    try {
        if (!state.clues) throw new Error("the board has no clues yet: cover every open cell");
        const pieces = coversEveryOpenCell() ? solutionJson() : undefined;
        offer([{ text: await ask("showSvg", instanceJson(state.clues), pieces), file: "board.svg", type: "image/svg+xml" }]);
    } catch (error) {
        say(error.message);
    }
});

async function importText(text) {
    try {
        // The engine reads it first: one message for anything it refuses.
        await ask("showText", text, undefined);
        load(text, true);
        say("");
        if (designer()) analyse();
        else draw();
    } catch (error) {
        say(error.message);
    }
}

$("import-button").addEventListener("click", () => importText($("import").value));
$("import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) importText(await file.text());
});

for (const radio of document.querySelectorAll('input[name="view"]')) {
    radio.addEventListener("change", () => {
        document.body.className = designer() ? "designer" : "player";
        if (!designer()) {
            // The player starts from the clues with no piece placed.
            if (state.clues) {
                state.pieces = [];
                state.cluesFromPieces = false;
            }
            if (mode() === "block") document.querySelector('input[name="mode"][value="vertical"]').checked = true;
        }
        state.hinted = new Set();
        draw();
    });
}

document.body.className = "designer";
newBoard(6, 6);
draw();
