// damka's page: draws the board and the game the server sends (state
// messages) and sends the person's clicks and drags as small JSON messages. Served by
// damka gui, it talks to the server over the page's WebSocket (/ws); in the
// wasm folder (make wasm, where mode.js sets DAMKA_TRANSPORT to "worker") it
// talks to damka.wasm in a Web Worker by postMessage, the same messages.
// No build step, no libraries.
"use strict";

const $ = (id) => document.getElementById(id);
let conn = null;         // the WebSocket or the Worker, once it speaks
let state = null;        // the last state message
let flipped = false;
let sel = [];            // the squares clicked so far of the move being made
let editing = null;      // the editor's board (array by square) while editing
let evals = {};          // ply -> score (centi-men, White's view)
let lines = {};          // analysis line number -> info
let clockAt = 0;         // when the last state's clocks were read
let pdnWanted = false;   // a Save PDN is waiting for the server's text
let engines = [];
let drag = null;         // a press on a piece that may become a drag
let dragged = false;     // a drag just ended: the click that follows is not one
let typed = null;        // a typed move sent: the box keeps it until it is played
let connStatus = "";     // the connection's state, the status bar's text between notes
let noteTimer = 0;       // the timer that ends the note shown, 0 when none
const noteMs = 8000;     // how long a note stays at most

// The status bar shows the connection's state. A note on an action (level
// set, the game of a PDN loaded, damka's notices) replaces it until the
// person's next action (the next message sent), at most noteMs; an error
// stays beside it until the next action.
function setConnStatus(text) {
  connStatus = text;
  if (!noteTimer) $("status").textContent = text;
}

function note(text) {
  clearTimeout(noteTimer);
  noteTimer = setTimeout(clearNote, noteMs);
  $("status").textContent = text;
}

function clearNote() {
  if (!noteTimer) return;
  clearTimeout(noteTimer);
  noteTimer = 0;
  $("status").textContent = connStatus;
}

function send(msg) {
  clearNote();
  showError("");
  if (conn) conn.send(JSON.stringify(msg));
}

function showError(text) {
  $("error").textContent = text || "";
}

function receive(data) {
  let m;
  try { m = JSON.parse(data); } catch (e) { showError("bad message from the server"); return null; }
  const h = handlers[m.type];
  if (h) h(m);
  return m;
}

function connected(status) {
  document.body.dataset.connected = "true";
  setConnStatus(status);
}

function connect() {
  if (window.DAMKA_TRANSPORT === "worker") {
    connectWorker();
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + "/ws");
  ws.onopen = () => { conn = { send: (text) => { if (ws.readyState === WebSocket.OPEN) ws.send(text); } }; connected("connected"); };
  ws.onclose = () => {
    conn = null;
    document.body.dataset.connected = "false";
    setConnStatus("disconnected: reload the page");
  };
  ws.onmessage = (ev) => receive(ev.data);
}

// connectWorker starts damka.wasm in a Web Worker (worker.js): the page is
// connected once its first message, hello, arrives.
function connectWorker() {
  setConnStatus("loading damka.wasm...");
  const w = new Worker("worker.js");
  w.onmessage = (ev) => {
    const m = receive(ev.data);
    if (!conn && m && m.type === "hello") { conn = { send: (text) => w.postMessage(text) }; connected("in this browser (wasm)"); }
  };
  w.onerror = (ev) => {
    ev.preventDefault();
    conn = null;
    document.body.dataset.connected = "false";
    showError("damka.wasm: " + (ev.message || "the worker failed"));
  };
}

const handlers = {
  hello(m) {
    $("version").textContent = m.version || "";
    const vs = $("variant");
    vs.replaceChildren();
    for (const v of m.variants) vs.append(new Option(v, v));
    engines = m.engines || [];
    for (const side of ["white", "black"]) {
      const s = $("side-" + side);
      s.replaceChildren();
      for (const who of ["human", "damka", ...engines]) s.append(new Option(who, who));
    }
    renderSettings(m.settings);
  },
  settings(m) { renderSettings(m.settings); },
  state(m) {
    const newGame = !state || state.variant !== m.variant || m.played.length < state.played.length ||
      (state.played.length > 0 && m.played.length > 0 && m.played[0] !== state.played[0]) || m.fen !== state.fen && m.played.length === 0;
    if (newGame) { evals = {}; }
    for (const k of Object.keys(evals)) if (Number(k) > m.played.length) delete evals[k];
    if (!state || state.fen !== m.fen) sel = [];
    // A typed move played: the box is emptied (a refused one stays, to be corrected).
    if (typed !== null && state && m.played.length !== state.played.length) {
      if ($("move-text").value.trim() === typed) $("move-text").value = "";
      typed = null;
    }
    // The editor's board is of the variant it was opened in.
    if (editing && state && state.variant !== m.variant) editing = null;
    // The variant chooser follows the game's variant when it changes, and
    // is otherwise left as the person set it for the next new game.
    if (!state || state.variant !== m.variant) $("variant").value = m.variant;
    state = m;
    clockAt = performance.now();
    lines = {};
    renderLines();
    document.body.dataset.ply = String(m.played.length);
    document.body.dataset.busy = m.busy;
    document.body.dataset.result = m.result;
    document.body.dataset.variant = m.variant;
    $("side-white").value = m.white;
    $("side-black").value = m.black;
    $("fen").value = m.fen;
    $("result").textContent = m.result ? m.result + "  " + m.reason : (m.busy === "think" ? "thinking..." : m.side + " to move");
    renderBoard();
    renderMoves();
    renderClocks();
    renderGraph();
  },
  info(m) {
    if (!state) return;
    if (m.line === 1) {
      evals[state.played.length] = Math.max(-1000, Math.min(1000, m.white));
      renderGraph();
    }
    if (m.line === 1) for (const k of Object.keys(lines)) if (Number(k) > 1 && lines[k].depth < m.depth - 1) delete lines[k];
    lines[m.line] = m;
    renderLines();
  },
  busy(m) {
    document.body.dataset.busy = m.what;
    if (state) {
      state.busy = m.what;
      if (!state.result) $("result").textContent = m.what === "think" ? m.who + " thinks..." : m.what === "analyse" ? "analysing" : state.side + " to move";
    }
  },
  level() { showError(""); note("level set"); },
  notice(m) { note(m.message); },
  error(m) { typed = null; showError(m.message); },
  pdngames(m) {
    const list = $("pdn-game");
    list.replaceChildren();
    m.games.forEach((g, i) => {
      const title = (g.white || "?") + " - " + (g.black || "?") + (g.event ? ", " + g.event : "") + (g.result && g.result !== "*" ? " " + g.result : "");
      list.append(new Option((i + 1) + ". " + title, String(i + 1)));
    });
    if (m.total > m.games.length) {
      const more = new Option("... " + (m.total - m.games.length) + " more games in the text", "");
      more.disabled = true;
      list.append(more);
    }
    list.value = String(m.game);
    $("pdn-games").hidden = m.total < 2;
  },
  pdn(m) {
    $("pdn").value = m.text;
    if (pdnWanted) {
      pdnWanted = false;
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([m.text], { type: "application/x-pdn" }));
      a.download = "damka-" + (state ? state.variant : "game") + ".pdn";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    }
  },
};

function renderSettings(list) {
  const box = $("settings");
  box.replaceChildren();
  for (const st of list) {
    const div = document.createElement("div");
    div.className = "setting";
    const label = document.createElement("label");
    label.textContent = st.name;
    label.htmlFor = "set-" + st.name;
    let input;
    if (st.kind === "enum") {
      input = document.createElement("select");
      for (const v of st.values) input.append(new Option(v, v));
    } else {
      input = document.createElement("input");
      if (st.kind === "bool") input.type = "checkbox";
      if (st.kind === "int") { input.type = "number"; input.min = st.min; input.max = st.max; }
    }
    input.id = "set-" + st.name;
    input.dataset.setting = st.name;
    if (st.kind === "bool") input.checked = st.value === "true"; else input.value = st.value;
    if (st.readonly) { input.disabled = true; input.title = "a file or directory: set it on the command line"; }
    input.addEventListener("change", () => {
      showError("");
      send({ type: "set", name: st.name, value: st.kind === "bool" ? String(input.checked) : input.value });
    });
    const doc = document.createElement("span");
    doc.className = "doc";
    doc.textContent = st.doc + " (" + st.range + (st.unit && st.kind !== "int" ? " " + st.unit : "") + ")";
    div.append(label, input, doc);
    box.append(div);
  }
}

// boardPiece returns the piece on sq as drawn: the editor's while editing.
function boardPiece(sq) {
  return editing ? editing[sq] : state.board[sq];
}

function renderBoard() {
  const b = $("board");
  if (!state) return;
  const n = state.size;
  b.style.gridTemplateColumns = "repeat(" + n + ", 1fr)";
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
}

function edge(kind, text) {
  const e = document.createElement("span");
  e.className = "edge " + kind;
  e.textContent = text;
  return e;
}

function personToMove() {
  return state && !state.result && state.busy !== "think" && state[state.side] === "human";
}

function startsWith(path, prefix) {
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

// candidates are the legal moves whose path begins with the clicked squares.
function candidates() {
  return (state.moves || []).filter((m) => startsWith(m.path, sel));
}

const cycle = ["", "w", "W", "b", "B"];

function clickSquare(sq) {
  if (!state) return;
  if (editing) {
    editing[sq] = cycle[(cycle.indexOf(editing[sq] || "") + 1) % cycle.length];
    renderBoard();
    return;
  }
  if (!personToMove()) return;
  const moves = state.moves || [];
  if (sel.length === 0 || (sel.length === 1 && sq === sel[0])) {
    sel = sel.length === 0 && moves.some((m) => m.path[0] === sq) ? [sq] : [];
    renderBoard();
    return;
  }
  const k = sel.length;
  let cands = candidates().filter((m) => m.path[k] === sq);
  if (cands.length === 0) {
    // The destination clicked directly: the ends of a longer capture.
    const ends = candidates().filter((m) => m.path[m.path.length - 1] === sq);
    if (ends.length === 1) return play(ends[0]);
    if (ends.length > 1) {
      showError("several routes end there: click the squares along the way");
      return;
    }
    sel = moves.some((m) => m.path[0] === sq) ? [sq] : [];
    renderBoard();
    return;
  }
  sel = sel.concat([sq]);
  const done = cands.filter((m) => m.path.length === sel.length);
  if (cands.length === 1) return play(cands[0]);
  if (done.length === 1 && done.length === cands.length) return play(done[0]);
  renderBoard();
}

// Drag: press on a piece that can move, move, release on a square. The
// release plays the move as a click on the origin then on the square would
// (a capture with several routes to it then asks for the squares along
// the way). A press and release without moving is a click.
function squareAt(x, y) {
  const e = document.elementFromPoint(x, y);
  const cell = e && e.closest("#board .dark");
  return cell ? Number(cell.dataset.sq) : 0;
}

function dragStart(e) {
  if (e.button !== 0 || editing || !personToMove()) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq || !(state.moves || []).some((m) => m.path[0] === sq)) return;
  drag = { sq: sq, x: e.clientX, y: e.clientY, ghost: null };
}

function dragMove(e) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    const piece = document.querySelector("#sq-" + drag.sq + " .piece");
    if (!piece) { drag = null; return; }
    // Captured only once it is a drag: a click still goes to its square.
    $("board").setPointerCapture(e.pointerId);
    const r = piece.getBoundingClientRect();
    drag.ghost = piece.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.style.width = r.width + "px";
    drag.ghost.style.height = r.height + "px";
    document.body.append(drag.ghost);
    sel = [drag.sq];
    renderBoard();
  }
  drag.ghost.style.left = e.clientX + "px";
  drag.ghost.style.top = e.clientY + "px";
}

function dragEnd(e) {
  const d = drag;
  drag = null;
  if (!d || !d.ghost) return;
  d.ghost.remove();
  dragged = true;
  setTimeout(() => { dragged = false; }, 0);
  const sq = e.type === "pointerup" ? squareAt(e.clientX, e.clientY) : 0;
  if (!sq || sq === d.sq || !personToMove()) {
    sel = [];
    renderBoard();
    return;
  }
  sel = [d.sq];
  clickSquare(sq);
}

function play(m) {
  showError("");
  sel = [];
  send({ type: "move", move: m.text });
}

function renderMoves() {
  const ol = $("movelist");
  ol.replaceChildren();
  const played = state.played;
  // PDN numbering: a move number before each move of the side that moves first.
  let i = 0;
  if (played.length > 0 && state.startSide !== state.first) {
    const li = document.createElement("li");
    li.textContent = "... " + played[0];
    ol.append(li);
    i = 1;
  }
  for (; i < played.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = played[i] + (i + 1 < played.length ? "  " + played[i + 1] : "");
    ol.append(li);
  }
  if (state.result) {
    const li = document.createElement("li");
    li.textContent = state.result;
    li.className = "result";
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function formatClock(ms) {
  const neg = ms < 0;
  ms = Math.abs(ms);
  const s = Math.floor(ms / 1000);
  const text = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") + (ms < 20000 ? "." + Math.floor((ms % 1000) / 100) : "");
  return neg ? "-" + text : text;
}

function renderClocks() {
  if (!state) return;
  const c = state.clock;
  const elapsed = c.running ? performance.now() - clockAt : 0;
  for (const side of ["white", "black"]) {
    let ms = c[side];
    if (side === state.side) ms += c.timed ? -elapsed : elapsed;
    $("time-" + side).textContent = formatClock(c.timed ? Math.max(ms, 0) : ms);
    $("who-" + side).textContent = side + " (" + state[side] + ")";
    $("clock-" + side).classList.toggle("tomove", side === state.side && !state.result);
  }
}

function renderLines() {
  const tb = $("lines").tBodies[0];
  tb.replaceChildren();
  const ks = Object.keys(lines).map(Number).sort((a, b) => a - b);
  for (const k of ks) {
    const m = lines[k];
    const tr = document.createElement("tr");
    for (const t of [k, m.depth, m.scoreText, m.pv]) {
      const td = document.createElement("td");
      td.textContent = t;
      tr.append(td);
    }
    tb.append(tr);
  }
  const top = lines[1];
  $("anastat").textContent = top ? "depth " + top.depth + ", score " + top.scoreText + " (side to move), " + top.nodes + " nodes, " + (top.ms / 1000).toFixed(2) + " s" : "";
}

function renderGraph() {
  const plies = Object.keys(evals).map(Number).sort((a, b) => a - b);
  const maxPly = Math.max(10, state ? state.played.length : 0, ...plies);
  const pts = plies.map((p) => {
    const x = (p / maxPly) * 300;
    const y = 50 - (Math.max(-500, Math.min(500, evals[p])) / 500) * 48;
    return x.toFixed(1) + "," + y.toFixed(1);
  });
  $("graphline").setAttribute("points", pts.join(" "));
}

// editorFEN writes the editor's board as a PDN FEN with numeric squares.
function editorFEN() {
  const w = [], b = [];
  for (let sq = 1; sq < editing.length; sq++) {
    const p = editing[sq];
    if (p === "w") w.push(sq); else if (p === "W") w.push("K" + sq);
    else if (p === "b") b.push(sq); else if (p === "B") b.push("K" + sq);
  }
  return $("edit-side").value + ":W" + w.join(",") + ":B" + b.join(",");
}

function bind(id, f) { $(id).addEventListener("click", f); }

function setup() {
  bind("btn-flip", () => { flipped = !flipped; renderBoard(); });
  $("board").addEventListener("pointerdown", dragStart);
  $("board").addEventListener("pointermove", dragMove);
  window.addEventListener("pointerup", dragEnd);
  window.addEventListener("pointercancel", dragEnd);
  bind("btn-undo", () => send({ type: "undo" }));
  bind("btn-go", () => send({ type: "go" }));
  bind("btn-analyse", () => { lines = {}; renderLines(); send({ type: "analyse" }); });
  bind("btn-stop", () => send({ type: "stop" }));
  bind("btn-move", () => { const t = $("move-text").value.trim(); if (t) { send({ type: "move", move: t }); typed = t; } });
  $("move-text").addEventListener("keydown", (e) => { if (e.key === "Enter") $("btn-move").click(); });
  bind("btn-new", () => {
    showError("");
    editing = null;
    send({ type: "new", variant: $("variant").value, ballot: $("ballot").checked ? -1 : 0 });
  });
  for (const side of ["white", "black"]) {
    $("side-" + side).addEventListener("change", () => send({ type: "sides", white: $("side-white").value, black: $("side-black").value }));
  }
  bind("btn-level", () => send({ type: "level", movetime: Number($("lv-movetime").value) || 0, depth: Number($("lv-depth").value) || 0, nodes: Number($("lv-nodes").value) || 0 }));
  bind("btn-clock", () => send({ type: "clock", base: Math.round(Number($("ck-base").value) * 60000) || 0, inc: Math.round(Number($("ck-inc").value) * 1000) || 0 }));
  bind("btn-fen", () => { showError(""); send({ type: "fen", fen: $("fen").value }); });
  bind("btn-edit", () => {
    if (!state) return;
    editing = state.board.slice();
    $("edit-side").value = state.side === "white" ? "W" : "B";
    sel = [];
    renderBoard();
  });
  bind("btn-clear", () => { if (!state) return; editing = state.board.map(() => ""); renderBoard(); });
  bind("btn-edit-done", () => {
    if (!editing) return;
    const fen = editorFEN();
    editing = null;
    showError("");
    send({ type: "fen", fen: fen });
  });
  bind("btn-pdn-save", () => { pdnWanted = true; send({ type: "pdn" }); });
  bind("btn-pdn-load", () => { showError(""); send({ type: "loadpdn", text: $("pdn").value }); });
  $("pdn-game").addEventListener("change", () => { showError(""); send({ type: "loadpdn", text: $("pdn").value, game: Number($("pdn-game").value) }); });
  $("pdn-file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (!f) return;
    f.text().then((t) => { $("pdn").value = t; send({ type: "loadpdn", text: t }); });
  });
  setInterval(renderClocks, 200);
  connect();
}

window.damka = { get state() { return state; }, send: send, get editing() { return editing; } };
setup();
