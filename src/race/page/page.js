// The race page's script: tables, filters and the scatter plot, drawn from the JSON
// embedded in the page. Every name from the race is put in with textContent.
"use strict";
const data = JSON.parse(document.getElementById("race-data").textContent);
const runs = data.runs;
const COLUMNS = ["workload", "instance", "backend", "rows", "cols", "limit", "status",
  "complete", "time_ms", "cpu_ms", "peak_mib", "nodes", "forced", "solutions", "count",
  "end", "error"];
const NUMERIC = new Set(["rows", "cols", "limit", "time_ms", "cpu_ms", "peak_mib", "nodes",
  "forced", "solutions"]);

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}
// Times and memory as runs.csv writes them (Rust's shortest form, as JavaScript's,
// but a whole number keeps its ".0").
const DECIMAL = new Set(["time_ms", "cpu_ms", "peak_mib"]);
function shown(value, column) {
  if (value === null || value === undefined) return "";
  if (DECIMAL.has(column) && Number.isInteger(value)) return value + ".0";
  return String(value);
}
function median(values) {
  if (values.length === 0) return null;
  const s = values.slice().sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function ms(v) {
  return v === null || v === undefined ? "-" : v.toFixed(3);
}
// The least and the largest of many numbers (spreading them into Math.min fails past
// about a hundred thousand).
function least(values) {
  return values.reduce((a, b) => (b < a ? b : a), Infinity);
}
function largest(values) {
  return values.reduce((a, b) => (b > a ? b : a), -Infinity);
}
function distinct(key) {
  return [...new Set(runs.map((r) => r[key]))].sort();
}

// The race: machine, build, command line.
(function about() {
  const dl = document.getElementById("machine");
  const m = data.summary.machine;
  const items = [["command", data.command], ["runs", runs.length]];
  if (m) {
    items.push(["dominofit", m.dominofit + " (" + m.commit + ")"], ["cpu", m.cpu],
      ["cores", m.cores], ["memory", m.memory_mib + " MiB"], ["os", m.os]);
  } else {
    items.push(["machine", "merged shards: see each shard's summary.json"]);
  }
  if (data.summary.timeout_s !== undefined) items.push(["time limit", data.summary.timeout_s + " s"]);
  for (const [k, v] of items) {
    dl.appendChild(el("dt", k));
    dl.appendChild(el("dd", v));
  }
})();

// Summary per workload and backend, as summary.json has it, with CPU and memory from
// the runs.
(function summary() {
  const table = el("table", null, { id: "summary-table" });
  const head = ["workload", "backend", "instances", "solved", "capped", "errors",
    "median ms", "P95 ms", "median CPU ms", "peak MiB"];
  const tr = el("tr");
  head.forEach((h) => tr.appendChild(el("th", h)));
  table.appendChild(el("thead")).appendChild(tr);
  const body = table.appendChild(el("tbody"));
  for (const [workload, backends] of Object.entries(data.summary.workloads)) {
    for (const [backend, a] of Object.entries(backends)) {
      const mine = runs.filter((r) => r.workload === workload && r.backend === backend);
      const cpu = median(mine.map((r) => r.cpu_ms).filter((v) => v !== null));
      const peaks = mine.map((r) => r.peak_mib).filter((v) => v !== null);
      const row = el("tr");
      [workload, backend, a.instances, a.solved, a.unknown, a.errors, ms(a.median_ms),
        ms(a.p95_ms), ms(cpu), peaks.length ? largest(peaks).toFixed(1) : "-"]
        .forEach((v) => row.appendChild(el("td", v)));
      body.appendChild(row);
    }
  }
  document.getElementById("summary").appendChild(table);
})();

// The runs: sortable by any column, filtered by workload, backend, status and end,
// and by a text search.
const state = { sort: null, descending: false, page: 0 };
const filters = ["workload", "backend", "status", "end"];
for (const key of filters) {
  const select = document.getElementById("filter-" + key);
  select.appendChild(el("option", "all", { value: "" }));
  distinct(key).forEach((v) => select.appendChild(el("option", v, { value: v })));
  select.addEventListener("change", () => { state.page = 0; drawRuns(); });
}
document.getElementById("filter-text").addEventListener("input", () => {
  state.page = 0;
  drawRuns();
});
(function runsHead() {
  const tr = el("tr");
  for (const c of COLUMNS) {
    const th = el("th", c, { "data-column": c });
    th.addEventListener("click", () => {
      state.descending = state.sort === c ? !state.descending : false;
      state.sort = c;
      drawRuns();
    });
    tr.appendChild(th);
  }
  document.querySelector("#runs thead").appendChild(tr);
})();

function compare(key) {
  return (a, b) => {
    const x = a[key], y = b[key];
    // Missing values (a capped run's time) sort last either way.
    if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
    if (y === null || y === undefined) return -1;
    const order = NUMERIC.has(key) ? x - y
      // A count is decimal text of any length: shorter is smaller.
      : key === "count" ? x.length - y.length || (x < y ? -1 : x > y ? 1 : 0)
      : String(x).localeCompare(String(y));
    return state.descending ? -order : order;
  };
}

function drawRuns() {
  const wanted = {};
  for (const key of filters) wanted[key] = document.getElementById("filter-" + key).value;
  const text = document.getElementById("filter-text").value.toLowerCase();
  let rows = runs.filter((r) => filters.every((k) => !wanted[k] || r[k] === wanted[k]) &&
    (!text || COLUMNS.some((c) => shown(r[c], c).toLowerCase().includes(text))));
  if (state.sort) rows = rows.slice().sort(compare(state.sort));
  // A page of rows at a time: ten thousand rows drawn at once take seconds to open.
  const size = Number(document.getElementById("page-size").value) || Math.max(rows.length, 1);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  state.page = Math.min(Math.max(state.page, 0), pages - 1);
  const first = state.page * size;
  const body = document.createElement("tbody");
  for (const r of rows.slice(first, first + size)) {
    const tr = el("tr", null, { "data-status": r.status });
    for (const c of COLUMNS) {
      const td = el("td", shown(r[c], c));
      if (c === "instance") {
        td.className = "link";
        td.dataset.workload = r.workload;
      }
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  document.querySelector("#runs tbody").replaceWith(body);
  const last = Math.min(first + size, rows.length);
  document.getElementById("shown").textContent = (rows.length ? first + 1 : 0) + "–" + last +
    " of " + rows.length + " runs shown (" + runs.length + " in all)";
}
// One listener for every instance cell of the table.
document.getElementById("runs").addEventListener("click", (event) => {
  const cell = event.target.closest("td.link");
  if (cell) showInstance(cell.dataset.workload, cell.textContent);
});
for (const [id, step] of [["page-previous", -1], ["page-next", 1]]) {
  document.getElementById(id).addEventListener("click", () => {
    state.page += step;
    drawRuns();
  });
}
document.getElementById("page-size").addEventListener("change", () => {
  state.page = 0;
  drawRuns();
});

// One instance: every backend's status, time and end on it.
function showInstance(workload, instance) {
  const section = document.getElementById("instance");
  section.hidden = false;
  document.getElementById("instance-name").textContent = instance + " (" + workload + ")";
  const head = document.querySelector("#instance-runs thead");
  head.replaceChildren();
  const tr = el("tr");
  ["backend", "rows", "cols", "status", "time_ms", "end", "error"]
    .forEach((c) => tr.appendChild(el("th", c)));
  head.appendChild(tr);
  const body = document.querySelector("#instance-runs tbody");
  body.replaceChildren();
  for (const r of runs.filter((r) => r.workload === workload && r.instance === instance)) {
    const row = el("tr");
    [r.backend, r.rows, r.cols, r.status, ms(r.time_ms), r.end, shown(r.error)]
      .forEach((v) => row.appendChild(el("td", v)));
    body.appendChild(row);
  }
  const drawn = boards.get(workload + "\u0000" + instance);
  const picture = document.getElementById("instance-board");
  const caption = document.getElementById("instance-tiling");
  picture.replaceChildren();
  if (!drawn) {
    caption.textContent = "The board is not on this page (merged shards keep only runs.csv).";
  } else {
    picture.appendChild(boardSvg(drawn.board, drawn.tiling));
    caption.textContent = drawn.tiling
      ? "The tiling " + drawn.backend + " found."
      : "No backend found a tiling (or none was kept: `race --jobs` workers send rows only).";
  }
  section.scrollIntoView();
}

// A board and a tiling as `dominofit show --svg` draws them (src/puzzle/svg.rs): the
// same shapes at the same places, cells and clues one-based in the data as in JSON.
const boards = new Map((data.boards || []).map((d) => [d.workload + "\u0000" + d.board.name, d]));
function boardSvg(board, tiling) {
  const CELL = 40, MARGIN = 36, INSET = 3.5, DOT = 4.5;
  const m = board.rows, n = board.cols;
  const width = MARGIN + n * CELL + 8, height = MARGIN + m * CELL + 8;
  const x = (c) => MARGIN + c * CELL, y = (r) => MARGIN + r * CELL;
  const f = (v) => v.toFixed(1);
  const pic = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`,
    "font-family": "sans-serif", "font-size": 16, class: "board" });
  pic.appendChild(svg("title", {}, board.name));
  pic.appendChild(svg("rect", { width, height, fill: "#ffffff" }));
  pic.appendChild(svg("rect", { x: x(0), y: y(0), width: n * CELL, height: m * CELL,
    fill: "#f4efe6" }));
  for (const [r, c] of board.blocked) {
    pic.appendChild(svg("rect", { x: x(c - 1), y: y(r - 1), width: CELL, height: CELL,
      fill: "#3b3b3b" }));
  }
  for (let r = 0; r <= m; r++) {
    pic.appendChild(svg("line", { x1: x(0), y1: y(r), x2: x(n), y2: y(r), stroke: "#b9b0a0" }));
  }
  for (let c = 0; c <= n; c++) {
    pic.appendChild(svg("line", { x1: x(c), y1: y(0), x2: x(c), y2: y(m), stroke: "#b9b0a0" }));
  }
  board.col_clues.forEach((clue, c) => pic.appendChild(svg("text",
    { x: f(x(c) + CELL / 2), y: MARGIN - 12, "text-anchor": "middle" }, String(clue))));
  board.row_clues.forEach((clue, r) => pic.appendChild(svg("text",
    { x: MARGIN - 10, y: f(y(r) + CELL / 2 + 6), "text-anchor": "end" }, String(clue))));
  const pieces = tiling ? [...tiling.vertical.map((p) => [p, true]),
    ...tiling.horizontal.map((p) => [p, false])] : [];
  for (const [[r1, c1], vertical] of pieces) {
    const r = r1 - 1, c = c1 - 1;
    const r2 = vertical ? r + 1 : r, c2 = vertical ? c : c + 1;
    if (r2 >= m || c2 >= n) continue;
    const w = vertical ? CELL : 2 * CELL, h = vertical ? 2 * CELL : CELL;
    pic.appendChild(svg("rect", { x: f(x(c) + INSET), y: f(y(r) + INSET),
      width: f(w - 2 * INSET), height: f(h - 2 * INSET), rx: 6, fill: "#fffdf8",
      stroke: "#2b2b2b", "stroke-width": 1.5, class: "piece" }));
    const seam = vertical
      ? [x(c) + 2 * INSET, y(r2), x(c) + CELL - 2 * INSET, y(r2)]
      : [x(c2), y(r) + 2 * INSET, x(c2), y(r) + CELL - 2 * INSET];
    pic.appendChild(svg("line", { x1: f(seam[0]), y1: f(seam[1]), x2: f(seam[2]),
      y2: f(seam[3]), stroke: "#c8c0b0" }));
    const dots = vertical ? [[x(c) + CELL / 2, y(r) + CELL / 2]]
      : [[x(c2) + CELL / 3, y(r) + CELL / 2], [x(c2) + 2 * CELL / 3, y(r) + CELL / 2]];
    for (const [cx, cy] of dots) {
      pic.appendChild(svg("circle", { cx: f(cx), cy: f(cy), r: DOT, fill: "#2b2b2b" }));
    }
  }
  return pic;
}

// Two backends, one point per instance both ran: log-log, a run without a time (capped
// or failed) on the far edge, coloured by the pair of statuses.
const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
const backends = distinct("backend");
for (const [axis, k] of [["x", 0], ["y", 1]]) {
  const select = document.getElementById("scatter-" + axis);
  backends.forEach((b) => select.appendChild(el("option", b, { value: b })));
  select.value = backends[Math.min(k, backends.length - 1)] || "";
  select.addEventListener("change", drawScatter);
}

function drawScatter() {
  const bx = document.getElementById("scatter-x").value;
  const by = document.getElementById("scatter-y").value;
  const key = (r) => r.workload + "\u0000" + r.instance;
  const ys = new Map(runs.filter((r) => r.backend === by).map((r) => [key(r), r]));
  const pairs = runs.filter((r) => r.backend === bx && ys.has(key(r)))
    .map((r) => [r, ys.get(key(r))]);
  const times = pairs.flatMap(([a, b]) => [a.time_ms, b.time_ms]).filter((t) => t > 0);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(least(times), 1))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(largest(times), 1))) + 0.5);
  const size = 420, pad = 50;
  const scale = (t) => pad + (Math.log10(t) - Math.log10(lo)) /
    (Math.log10(hi) - Math.log10(lo)) * (size - 2 * pad);
  const edge = size - pad;
  const plot = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`,
    id: "scatter-plot" });
  plot.appendChild(svg("rect", { x: pad, y: pad, width: size - 2 * pad,
    height: size - 2 * pad, fill: "none", stroke: "#999" }));
  plot.appendChild(svg("line", { x1: pad, y1: size - pad, x2: size - pad, y2: pad,
    stroke: "#ccc" }));
  plot.appendChild(svg("text", { x: size / 2, y: size - 10, "text-anchor": "middle" },
    bx + " (ms)"));
  plot.appendChild(svg("text", { x: 14, y: size / 2, "text-anchor": "middle",
    transform: `rotate(-90 14 ${size / 2})` }, by + " (ms)"));
  for (let t = lo; t <= hi * 1.0001; t *= 10) {
    const at = scale(t).toFixed(1);
    const label = t >= 1 ? String(Math.round(t)) : String(t.toPrecision(1));
    plot.appendChild(svg("text", { x: at, y: size - pad + 14, "text-anchor": "middle",
      class: "tick" }, label));
    plot.appendChild(svg("text", { x: pad - 4, y: (size - at + 4).toFixed(1),
      "text-anchor": "end", class: "tick" }, label));
  }
  for (const [a, b] of pairs) {
    const x = a.time_ms > 0 ? scale(a.time_ms) : edge;
    const y = size - (b.time_ms > 0 ? scale(b.time_ms) : edge);
    const status = a.status === b.status ? a.status : "differ";
    const dot = svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 4,
      class: "point status-" + status, "data-instance": a.instance });
    dot.appendChild(svg("title", {}, `${a.instance}: ${bx} ${ms(a.time_ms)} ms ` +
      `(${a.status}, ${a.end}), ${by} ${ms(b.time_ms)} ms (${b.status}, ${b.end})`));
    dot.addEventListener("click", () => showInstance(a.workload, a.instance));
    plot.appendChild(dot);
  }
  document.getElementById("scatter").replaceChildren(plot);
}

drawRuns();
drawScatter();
