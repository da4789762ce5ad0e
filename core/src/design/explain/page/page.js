"use strict";
// The walkthrough page: position 0 is the board with the given pieces; position i
// (1..n) shows step i: the pieces placed before it, the cells its reason rests on
// (shaded), the pieces it places (green) and those it rules out (crossed).
const data = JSON.parse(document.getElementById("walk-data").textContent);
const board = data.board;
const walk = data.walk;
const steps = walk.steps;
const SVG = "http://www.w3.org/2000/svg";
const CELL = 36;
const MARGIN = 32;
let position = 0;

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) {
    node.setAttribute(key, String(value));
  }
  parent.appendChild(node);
  return node;
}

// Pieces of a solution object ({vertical, horizontal}, one-based start cells).
function pieces(solution) {
  return solution.vertical.map(([r, c]) => ({ r, c, v: true }))
    .concat(solution.horizontal.map(([r, c]) => ({ r, c, v: false })));
}

function x(c) { return MARGIN + (c - 1) * CELL; }
function y(r) { return MARGIN + (r - 1) * CELL; }

function drawPiece(svg, p, fill, cls) {
  const w = p.v ? CELL : 2 * CELL;
  const h = p.v ? 2 * CELL : CELL;
  el("rect", { x: x(p.c) + 3, y: y(p.r) + 3, width: w - 6, height: h - 6, rx: 5,
    fill, stroke: "#2b2b2b", "stroke-width": 1.5, class: cls }, svg);
  const dots = p.v ? [[x(p.c) + CELL / 2, y(p.r) + CELL / 2]]
    : [[x(p.c + 1) + CELL / 3, y(p.r) + CELL / 2], [x(p.c + 1) + 2 * CELL / 3, y(p.r) + CELL / 2]];
  for (const [cx, cy] of dots) {
    el("circle", { cx, cy, r: 4, fill: "#2b2b2b" }, svg);
  }
}

function draw() {
  const host = document.getElementById("board");
  host.textContent = "";
  const width = MARGIN + board.cols * CELL + 8;
  const height = MARGIN + board.rows * CELL + 8;
  const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`,
    "font-family": "sans-serif", "font-size": 14 }, host);
  el("rect", { x: MARGIN, y: MARGIN, width: board.cols * CELL, height: board.rows * CELL,
    fill: "#f4efe6" }, svg);
  for (const [r, c] of board.blocked) {
    el("rect", { x: x(c), y: y(r), width: CELL, height: CELL, fill: "#3b3b3b" }, svg);
  }
  const step = position > 0 ? steps[position - 1] : null;
  if (step) {
    for (const [r, c] of step.cells) {
      el("rect", { x: x(c), y: y(r), width: CELL, height: CELL, fill: "#f6d98b",
        class: "reason" }, svg);
    }
  }
  for (let r = 0; r <= board.rows; r++) {
    el("line", { x1: x(1), y1: y(r + 1), x2: x(board.cols + 1), y2: y(r + 1),
      stroke: "#b9b0a0" }, svg);
  }
  for (let c = 0; c <= board.cols; c++) {
    el("line", { x1: x(c + 1), y1: y(1), x2: x(c + 1), y2: y(board.rows + 1),
      stroke: "#b9b0a0" }, svg);
  }
  board.col_clues.forEach((clue, i) => {
    el("text", { x: x(i + 1) + CELL / 2, y: MARGIN - 10, "text-anchor": "middle" }, svg)
      .textContent = String(clue);
  });
  board.row_clues.forEach((clue, i) => {
    el("text", { x: MARGIN - 8, y: y(i + 1) + CELL / 2 + 5, "text-anchor": "end" }, svg)
      .textContent = String(clue);
  });
  const before = pieces(walk.given);
  for (let i = 0; i + 1 < position; i++) {
    before.push(...pieces(steps[i].placed));
  }
  for (const p of before) {
    drawPiece(svg, p, "#fffdf8", "piece");
  }
  if (step) {
    for (const p of pieces(step.placed)) {
      drawPiece(svg, p, "#bfe3c6", "piece placed");
    }
    for (const p of pieces(step.ruled_out)) {
      const x2 = p.v ? x(p.c) + CELL / 2 : x(p.c + 1) + CELL / 2;
      const y2 = p.v ? y(p.r + 1) + CELL / 2 : y(p.r) + CELL / 2;
      el("line", { x1: x(p.c) + CELL / 2, y1: y(p.r) + CELL / 2, x2, y2,
        stroke: "#b3261e", "stroke-width": 3, "stroke-dasharray": "6 4",
        class: "ruled-out" }, svg);
    }
  }
}

const ENDINGS = {
  solved: "Solved: every cell is covered.",
  no_tiling: "No tiling: the last step shows the position has none.",
  wrong_moves: "No tiling has all the pieces placed: take some back.",
  stuck: "Stuck: no rule of the ladder decides anything more (the board needs search, or has several tilings).",
  paused: "More steps follow.",
  stopped: "Stopped by the time limit.",
};

function show(to) {
  position = Math.max(0, Math.min(steps.length, to));
  draw();
  const step = position > 0 ? steps[position - 1] : null;
  document.getElementById("position").textContent =
    position === 0 ? `start (${steps.length} steps)` : `step ${position} of ${steps.length}`;
  document.getElementById("position-range").value = String(position);
  document.getElementById("rule").textContent =
    step ? `${step.rung}: ${step.rule.replace(/_/g, " ")}` : "The board as given.";
  document.getElementById("reason").textContent = step ? step.reason : "";
  document.getElementById("ending").textContent =
    position === steps.length ? ENDINGS[walk.outcome] : "";
  document.querySelectorAll("#steps li").forEach((li, i) => {
    li.classList.toggle("current", i + 1 === position);
  });
}

function init() {
  const list = document.getElementById("steps");
  steps.forEach((step, i) => {
    const li = document.createElement("li");
    li.textContent = `${step.rung}: ${step.reason}`;
    if (step.contradiction) {
      li.classList.add("contradiction");
    }
    li.addEventListener("click", () => show(i + 1));
    list.appendChild(li);
  });
  const range = document.getElementById("position-range");
  range.max = String(steps.length);
  range.addEventListener("input", () => show(Number(range.value)));
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("previous").addEventListener("click", () => show(position - 1));
  document.getElementById("next").addEventListener("click", () => show(position + 1));
  document.getElementById("last").addEventListener("click", () => show(steps.length));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") { show(position + 1); }
    if (event.key === "ArrowLeft") { show(position - 1); }
  });
  show(0);
}

init();
