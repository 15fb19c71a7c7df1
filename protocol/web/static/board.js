// The board as damka's page draws it (app.js, loaded after this file,
// holds the page's state and calls these): the squares and pieces with the
// selection, targets and last move marked, the analysis' arrows over the
// board, the evaluation bar beside it and the evaluation graph. Plain
// script, no build step: the page's top-level names are shared.
"use strict";

// boardPiece returns the piece on sq as drawn: the editor's while editing.
function boardPiece(sq) {
  return editing ? editing[sq] : state.board[sq];
}

function renderBoard() {
  const b = $("board");
  if (!state) return;
  const n = state.size;
  document.documentElement.style.setProperty("--n", String(n));
  b.classList.toggle("editing", !!editing);
  const at = {};
  for (const s of state.squares) at[s.row * n + s.col] = s;
  const targets = new Set();
  if (sel.length > 0) {
    for (const m of candidates()) if (m.path.length > sel.length) targets.add(m.path[sel.length]);
  }
  const last = new Set(state.last || []);
  const cells = [];
  for (let dr = 0; dr < n; dr++) {
    for (let dc = 0; dc < n; dc++) {
      const row = flipped ? n - 1 - dr : dr;
      const col = flipped ? n - 1 - dc : dc;
      const cell = document.createElement("div");
      const s = at[row * n + col];
      cell.className = "cell " + (s ? "dark" : "light");
      if (state.algebraic) {
        if (dr === n - 1) cell.append(edge("file", String.fromCharCode(97 + col)));
        if (dc === 0) cell.append(edge("rank", String(n - row)));
      }
      if (s) {
        cell.id = "sq-" + s.sq;
        cell.dataset.sq = String(s.sq);
        cell.dataset.name = s.name;
        cell.title = s.name;
        if (!state.algebraic) {
          const num = document.createElement("span");
          num.className = "num";
          num.textContent = s.sq;
          cell.append(num);
        }
        if (sel.includes(s.sq)) cell.classList.add("sel");
        else if (last.has(s.sq) && !editing) cell.classList.add("last");
        if (targets.has(s.sq)) cell.classList.add("target");
        const pc = boardPiece(s.sq);
        if (pc) {
          const p = document.createElement("div");
          p.className = "piece " + pc.toLowerCase() + (pc === "W" || pc === "B" ? " king" : "");
          cell.dataset.piece = pc;
          cell.append(p);
        }
        cell.addEventListener("click", () => { if (!dragged) clickSquare(s.sq); });
      }
      cells.push(cell);
    }
  }
  b.replaceChildren(...cells);
  $("clocks").classList.toggle("flipped", flipped);
  renderArrows();
  renderEvalBar();
}

// ---- Drawn over and beside the board: the analysis' arrows, the
// evaluation bar ----

// cellCenter returns the middle of square sq in cell units of the board
// as drawn (flipped or not).
function cellCenter(sq) {
  const n = state.size;
  const s = state.squares[sq - 1];
  const row = flipped ? n - 1 - s.row : s.row;
  const col = flipped ? n - 1 - s.col : s.col;
  return [col + 0.5, row + 0.5];
}

// renderArrows draws the first move of each analysis line as an arrow
// along its path: the best line's strong, the others' fainter.
function renderArrows() {
  const g = $("arrowlines");
  const svg = $("arrows");
  if (!state) return;
  svg.setAttribute("viewBox", "0 0 " + state.size + " " + state.size);
  const out = [];
  const ks = editing ? [] : Object.keys(lines).map(Number).sort((a, b) => b - a);
  for (const k of ks) {
    const path = lines[k].path || [];
    if (path.length < 2 || path.some((sq) => !state.squares[sq - 1])) continue;
    const pts = path.map(cellCenter);
    // The head ends short of the last square's middle.
    const [x0, y0] = pts[pts.length - 2], [x1, y1] = pts[pts.length - 1];
    const d = Math.hypot(x1 - x0, y1 - y0) || 1;
    pts[pts.length - 1] = [x1 - (x1 - x0) / d * 0.3, y1 - (y1 - y0) / d * 0.3];
    const pl = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    pl.setAttribute("points", pts.map((p) => p[0].toFixed(3) + "," + p[1].toFixed(3)).join(" "));
    pl.setAttribute("class", "arrow " + (k === 1 ? "best" : "other"));
    pl.setAttribute("marker-end", k === 1 ? "url(#head-1)" : "url(#head-n)");
    pl.dataset.line = String(k);
    pl.dataset.path = path.join("-");
    out.push(pl);
  }
  g.replaceChildren(...out);
}

// whiteShare is White's part of the evaluation bar (0..1) for a score in
// centi-men from White's view.
function whiteShare(cs) {
  return 1 / (1 + Math.exp(-cs / 250));
}

// renderEvalBar shows the score of the position shown (White's view):
// from the analysis or damka's search of it, when there is one.
function renderEvalBar() {
  if (!state) return;
  const bar = $("evalbar");
  bar.classList.toggle("flipped", flipped);
  const top = lines[1];
  let cs = top ? top.white : evals[state.played.length];
  let text = "";
  if (typeof cs !== "number") {
    $("evalbar-fill").style.height = "50%";
    bar.dataset.white = "";
    $("evalbar-text").textContent = "";
    bar.title = "evaluation, White's view: none yet (Analyse)";
    return;
  }
  if (top && top.decided) {
    const whiteWins = top.white > 0;
    text = (whiteWins ? "White" : "Black") + " wins" + (/ in (\d+)/.test(top.scoreText) ? " in " + top.scoreText.match(/ in (\d+)/)[1] + " plies" : "");
    cs = whiteWins ? 100000 : -100000;
  } else {
    text = (cs > 0 ? "+" : "") + (cs / 100).toFixed(2);
  }
  $("evalbar-fill").style.height = (100 * whiteShare(cs)).toFixed(1) + "%";
  bar.dataset.white = String(Math.round(cs));
  $("evalbar-text").textContent = top && top.decided ? (cs > 0 ? "W" : "B") : (cs / 100).toFixed(1);
  bar.title = "evaluation, White's view: " + text;
}

function edge(kind, text) {
  const e = document.createElement("span");
  e.className = "edge " + kind;
  e.textContent = text;
  return e;
}

// ---- The evaluation graph ----

function renderGraph() {
  const plies = Object.keys(evals).map(Number).sort((a, b) => a - b);
  const maxPly = Math.max(10, state ? state.played.length : 0, ...plies);
  const pts = plies.map((p) => {
    const x = (p / maxPly) * 300;
    const y = 50 - (Math.max(-500, Math.min(500, evals[p])) / 500) * 48;
    return x.toFixed(1) + "," + y.toFixed(1);
  });
  $("graphline").setAttribute("points", pts.join(" "));
  graphMaxPly = maxPly;
  const cx = state ? ((state.played.length / maxPly) * 300).toFixed(1) : "0";
  $("graphcur").setAttribute("x1", cx);
  $("graphcur").setAttribute("x2", cx);
}

let graphMaxPly = 10; // the ply at the graph's right edge

// graphClick shows the position at the ply under the click.
function graphClick(e) {
  const r = $("graph").getBoundingClientRect();
  if (!state || r.width <= 0) return;
  const ply = Math.max(0, Math.round(((e.clientX - r.left) / r.width) * graphMaxPly));
  gotoPly(ply);
}
