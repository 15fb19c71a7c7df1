// damka's page: draws the board and the game the server sends (state
// messages) and sends the person's clicks and drags as small JSON messages. Served by
// damka gui, it talks to the server over the page's WebSocket (/ws); in the
// wasm folder (make wasm, where mode.js sets DAMKA_TRANSPORT to "worker") it
// talks to damka.wasm in a Web Worker by postMessage, the same messages.
// The board's drawing (squares, pieces, arrows, evaluation bar and graph)
// is board.js, loaded before this file. No build step, no libraries.
"use strict";

const $ = (id) => document.getElementById(id);
let conn = null;         // the WebSocket or the Worker, once it speaks
let state = null;        // the last state message
let flipped = false;
let sel = [];            // the squares clicked so far of the move being made
let editing = null;      // the editor's board (array by square) while editing
let evals = {};          // ply -> score (centi-men, White's view) along the line shown
let nodeEvals = {};      // move tree node -> score (centi-men, White's view)
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
  const text = JSON.stringify(msg);
  // A message past the server's bound would end the connection: refused here.
  if (text.length > maxMessage / 3 && new TextEncoder().encode(text).length > maxMessage) {
    showError((msg.type === "loadpdn" ? "the PDN text is " : "the message is ") + mib(new TextEncoder().encode(text).length) +
      " MiB: the page sends at most " + mib(maxMessage) + " MiB (split the file, or load fewer games)");
    return;
  }
  if (conn) conn.send(text);
}

let maxMessage = 16 << 20; // the server's bound on one message (hello says it)
let pendingEdit = false;   // Play from here sent: the editor closes when its position comes

function mib(bytes) { return (bytes / (1 << 20)).toFixed(1); }

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
  // The page's own query (?token=...) goes with the WebSocket too.
  const ws = new WebSocket(proto + "//" + location.host + "/ws" + location.search);
  ws.onopen = () => { conn = { send: (text) => { if (ws.readyState === WebSocket.OPEN) ws.send(text); } }; connected("connected"); };
  ws.onclose = (ev) => {
    conn = null;
    document.body.dataset.connected = "false";
    const why = "disconnected: " + (ev.reason ? ev.reason : "reload the page");
    setConnStatus(why);
    $("loading-text").textContent = why;
    $("loading-bar").hidden = true;
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
    if (m.maxMessage) maxMessage = m.maxMessage;
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
    if (!state || state.game !== m.game) nodeEvals = {};
    commentEvals(m);
    evals = lineEvals(m);
    if (!state || state.fen !== m.fen) sel = [];
    // A typed move played: the box is emptied (a refused one stays, to be corrected).
    if (typed !== null && state && m.played.length !== state.played.length) {
      if ($("move-text").value.trim() === typed) $("move-text").value = "";
      typed = null;
    }
    // The editor's board is of the variant it was opened in.
    if (editing && state && state.variant !== m.variant) editing = null;
    // Play from here taken: the editor closes on the new position.
    if (pendingEdit) { pendingEdit = false; editing = null; }
    // The variant chooser follows the game's variant when it changes, and
    // is otherwise left as the person set it for the next new game.
    if (!state || state.variant !== m.variant) $("variant").value = m.variant;
    const fenChanged = !state || state.fen !== m.fen || state.game !== m.game;
    state = m;
    clockAt = performance.now();
    lines = {};
    renderLines();
    document.body.dataset.ply = String(m.played.length);
    document.body.dataset.busy = m.busy;
    if (m.busy !== "review") $("review-status").textContent = "";
    document.body.dataset.result = m.result;
    document.body.dataset.variant = m.variant;
    $("side-white").value = m.white;
    $("side-black").value = m.black;
    // The FEN box follows the position when it changes; a state of the
    // same position (a clock, the analysis starting) leaves what the
    // person is typing there.
    if (fenChanged) $("fen").value = m.fen;
    $("result").textContent = m.result ? m.result + "  " + m.reason : (m.busy === "think" ? "thinking..." : m.side + " to move");
    renderBoard();
    renderMoves();
    renderClocks();
    renderGraph();
  },
  info(m) {
    if (!state) return;
    if (m.line === 1) {
      const v = Math.max(-1000, Math.min(1000, m.white));
      nodeEvals[state.node] = v;
      evals[state.played.length] = v;
      renderGraph();
    }
    if (m.line === 1) for (const k of Object.keys(lines)) if (Number(k) > 1 && lines[k].depth < m.depth - 1) delete lines[k];
    lines[m.line] = m;
    renderLines();
    renderArrows();
    renderEvalBar();
  },
  busy(m) {
    document.body.dataset.busy = m.what;
    if (state) {
      state.busy = m.what;
      if (!state.result) $("result").textContent = m.what === "think" ? m.who + " thinks..." : m.what === "analyse" ? "analysing" : m.what === "review" ? "reviewing" : state.side + " to move";
    }
    if (m.what !== "review") $("review-status").textContent = "";
  },
  review(m) {
    // A progress report that arrives after the review stopped is dropped.
    if (document.body.dataset.busy !== "review") return;
    $("review-status").textContent = "reviewing: move " + m.done + " of " + m.total;
  },
  level() { showError(""); note("level set"); },
  // loading: damka.wasm on its way (the wasm folder's worker), bytes so far.
  loading(m) {
    const text = "loading damka.wasm: " + mib(m.loaded) + (m.total ? " of " + mib(m.total) : "") + " MiB";
    setConnStatus(text);
    $("loading-text").textContent = text;
    document.body.dataset.wasmLoaded = String(m.loaded);
    const bar = $("loading-bar");
    if (m.total) { bar.max = m.total; bar.value = m.loaded; }
  },
  notice(m) { note(m.message); },
  error(m) { typed = null; pendingEdit = false; showError(m.message); if (!state || state.busy !== "review") $("review-status").textContent = ""; },
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
    pdnFileDone();
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
      if (st.name === "multipv") renderLines();
    });
    const doc = document.createElement("span");
    doc.className = "doc";
    doc.textContent = st.doc + " (" + st.range + (st.unit && st.kind !== "int" ? " " + st.unit : "") + ")";
    div.append(label, input, doc);
    box.append(div);
  }
  renderLines();
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

// ---- The move list: the tree of moves (main line and variations) ----

// moveNumber returns the PDN move number of the move at ply (1 for the
// first move) and whether it is a move of the side that moves first.
function moveNumber(ply) {
  const i = ply - 1 + (state.startSide !== state.first ? 1 : 0);
  return { num: Math.floor(i / 2) + 1, first: i % 2 === 0 };
}

// glyphClass names a move's mark for its colour.
function glyphClass(g) {
  return { "??": "blunder", "?": "mistake", "?!": "inaccuracy", "!": "good", "!!": "brilliant", "!?": "interesting" }[g] || "";
}

// moveSpan is one move of the list: a click shows its position; its
// comment (a review's better line) shows on hover.
function moveSpan(id) {
  const nd = state.tree[id];
  const sp = document.createElement("span");
  sp.className = "mv" + (id === state.node ? " cur" : "");
  sp.dataset.node = String(id);
  sp.textContent = nd.move;
  if (nd.glyph) {
    const g = document.createElement("span");
    g.className = "glyph " + glyphClass(nd.glyph);
    g.textContent = nd.glyph;
    sp.dataset.glyph = nd.glyph;
    sp.append(g);
  }
  const c = (nd.comment || "").replace(/\[%eval [^\]]*\]\s*/g, "").trim();
  if (c) sp.title = c;
  sp.addEventListener("click", () => gotoNode(id));
  return sp;
}

function textNode(t) { return document.createTextNode(t); }

// trimEnd removes the space after the last move of el.
function trimEnd(el) {
  const last = el.lastChild;
  if (last && last.nodeType === Node.TEXT_NODE && last.textContent === " ") last.remove();
}

// renderLine writes the line of play that starts with node v (a
// variation) into el: its moves along the first children, each other
// move of a position in parentheses after the move it replaces.
function renderLine(v, el) {
  const tree = state.tree;
  let needNum = true;
  for (let x = v; ; x = tree[x].children[0]) {
    const { num, first } = moveNumber(tree[x].ply);
    if (first) el.append(textNode(num + ". "));
    else if (needNum) el.append(textNode(num + "... "));
    el.append(moveSpan(x), textNode(" "));
    needNum = false;
    const sibs = tree[tree[x].parent].children;
    if (x !== v && sibs.length > 1 && sibs[0] === x) {
      for (const o of sibs.slice(1)) el.append(variationEl(o, "span", "subvar", ") "));
      needNum = true;
    }
    if (tree[x].children.length === 0) break;
  }
}

// variationEl draws the variation that starts at node o in parentheses,
// in a new element tag of class cls, closed by the text close.
function variationEl(o, tag, cls, close) {
  const el = document.createElement(tag);
  el.className = cls;
  el.append(textNode("("));
  renderLine(o, el);
  trimEnd(el);
  el.append(textNode(close));
  return el;
}

// renderMoves draws the tree: a row per move number of the main line,
// each move's variations indented under it in parentheses.
function renderMoves() {
  const ol = $("movelist");
  ol.replaceChildren();
  const tree = state.tree || [];
  let li = null, needDots = true;
  for (let n = 0; tree[n] && tree[n].children.length > 0; ) {
    const kids = tree[n].children;
    const c = kids[0];
    const { num, first } = moveNumber(tree[c].ply);
    if (first || !li) {
      li = document.createElement("li");
      li.value = num;
      ol.append(li);
      needDots = !first;
    }
    if (needDots) li.append(textNode("... "));
    li.append(moveSpan(c), textNode(" "));
    needDots = false;
    if (kids.length > 1) {
      const box = document.createElement("div");
      box.className = "variations";
      for (const o of kids.slice(1)) box.append(variationEl(o, "div", "var", ")"));
      li.append(box);
      needDots = true;
    }
    n = c;
  }
  if (state.result) {
    const res = document.createElement("li");
    res.textContent = state.result;
    res.className = "result";
    ol.append(res);
  }
  scrollToCurrent(ol);
  renderAccuracy();
}

// scrollToCurrent scrolls the list (not the page) to the move shown.
function scrollToCurrent(ol) {
  const cur = ol.querySelector(".mv.cur");
  if (!cur) { ol.scrollTop = 0; return; }
  const top = cur.offsetTop, bottom = top + cur.offsetHeight;
  if (top < ol.scrollTop) ol.scrollTop = top - 4;
  else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight + 4;
}

// renderAccuracy shows the sides' accuracy of a review.
function renderAccuracy() {
  const a = state.accuracy;
  const parts = [];
  if (a && a.white) parts.push("White " + a.white + "%");
  if (a && a.black) parts.push("Black " + a.black + "%");
  $("accuracy").textContent = parts.length ? "accuracy: " + parts.join(", ") : "";
}

// commentEvals takes the scores a review wrote in the moves' comments
// ("[%eval 0.35]", men, White's view) for the graph, where no analysis
// gave one.
function commentEvals(m) {
  (m.tree || []).forEach((nd, id) => {
    const e = /\[%eval ([-+]?[0-9.]+)\]/.exec(nd.comment || "");
    if (e && !(id in nodeEvals)) nodeEvals[id] = Math.max(-1000, Math.min(1000, Math.round(Number(e[1]) * 100)));
  });
}

// lineEvals returns the scores known of the line shown (the moves to the
// node shown and on along the first children), by ply.
function lineEvals(m) {
  const out = {};
  const tree = m.tree || [];
  let x = m.node;
  for (let y = x; y >= 0 && tree[y]; y = tree[y].parent) if (y in nodeEvals) out[tree[y].ply] = nodeEvals[y];
  while (tree[x] && tree[x].children.length > 0) {
    x = tree[x].children[0];
    if (x in nodeEvals) out[tree[x].ply] = nodeEvals[x];
  }
  return out;
}

// ---- Navigation in the tree ----

// gotoNode shows the position after move id of the tree (0: the start).
function gotoNode(id) {
  if (!state || !state.tree || id < 0 || id >= state.tree.length) return;
  // Going to a move leaves the editor: the board shows that move's position.
  if (editing) { editing = null; pendingEdit = false; renderBoard(); }
  if (id === state.node) return;
  sel = [];
  send({ type: "goto", node: id });
}

function navFirst() { gotoNode(0); }
function navBack() { if (state && state.node > 0) gotoNode(state.tree[state.node].parent); }
function navForward() { if (state && state.tree[state.node].children.length) gotoNode(state.tree[state.node].children[0]); }
function navLast() {
  if (!state) return;
  let x = state.node;
  while (state.tree[x].children.length) x = state.tree[x].children[0];
  gotoNode(x);
}

// gotoPly shows the position after ply moves of the line shown (the moves
// to the node shown and on along the first children).
function gotoPly(ply) {
  if (!state) return;
  const tree = state.tree;
  let x = state.node;
  while (x > 0 && tree[x].ply > ply) x = tree[x].parent;
  while (tree[x].ply < ply && tree[x].children.length) x = tree[x].children[0];
  gotoNode(x);
}

// navKey moves through the tree with the arrow keys, Home and End, unless
// a text box or a list has the focus.
function navKey(e) {
  const t = e.target;
  if (e.altKey || e.ctrlKey || e.metaKey || (t && t.closest && t.closest("input, textarea, select"))) return;
  const f = { ArrowLeft: navBack, ArrowRight: navForward, Home: navFirst, End: navLast }[e.key];
  if (!f) return;
  e.preventDefault();
  f();
}

function setupNavigation() {
  bind("btn-first", navFirst);
  bind("btn-back", navBack);
  bind("btn-forward", navForward);
  bind("btn-last", navLast);
  document.addEventListener("keydown", navKey);
  bind("btn-review", () => { $("review-status").textContent = "reviewing..."; send({ type: "review" }); });
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
    tr.lastChild.title = m.pv; // a line too long for its row, whole
    tb.append(tr);
  }
  // The box keeps a row for each line of the multi-PV setting, reported
  // or not, so what lies below does not move under the pointer.
  const mpv = Number(($("set-multipv") || {}).value) || 1;
  const rowHeight = $("lines").tHead.rows[0].offsetHeight || 21;
  $("lines-box").style.minHeight = (Math.max(mpv, ks.length) + 1) * rowHeight + "px";
  const top = lines[1];
  $("anastat").textContent = top ? "depth " + top.depth + ", score " + top.scoreText + " (side to move), " + top.nodes + " nodes, " + (top.ms / 1000).toFixed(2) + " s" : "";
}

// editorFEN writes the editor's board as a PDN FEN in the variant's
// notation (square names).
function editorFEN() {
  const w = [], b = [];
  const name = {};
  for (const s of state.squares) name[s.sq] = s.name;
  for (let sq = 1; sq < editing.length; sq++) {
    const p = editing[sq];
    const n = name[sq] || String(sq);
    if (p === "w") w.push(n); else if (p === "W") w.push("K" + n);
    else if (p === "b") b.push(n); else if (p === "B") b.push("K" + n);
  }
  return $("edit-side").value + ":W" + w.join(",") + ":B" + b.join(",");
}

// The PDN text to load: the box's, or a long file's kept aside while the
// box is empty.
let pdnFile = null;
const pdnShowMax = 256 << 10; // the longest file shown in the box (characters)
const pdnPlaceholder = "paste a PDN game here";

function pdnText() {
  return pdnFile !== null && $("pdn").value === "" ? pdnFile : $("pdn").value;
}

function pdnFileDone() {
  pdnFile = null;
  $("pdn").placeholder = pdnPlaceholder;
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
  // Play from here: the editor stays open until the server takes the
  // position (a refused one is still there to be corrected).
  bind("btn-edit-done", () => {
    if (!editing) return;
    const fen = editorFEN();
    showError("");
    pendingEdit = true;
    send({ type: "fen", fen: fen });
  });
  bind("btn-pdn-save", () => { pdnWanted = true; send({ type: "pdn" }); });
  bind("btn-pdn-load", () => { showError(""); send({ type: "loadpdn", text: pdnText() }); });
  $("pdn-game").addEventListener("change", () => { showError(""); send({ type: "loadpdn", text: pdnText(), game: Number($("pdn-game").value) }); });
  $("pdn-file").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (!f) return;
    f.text().then((t) => {
      // A long file is kept aside, not shown: a text box of hundreds of
      // thousands of lines stops the browser for seconds to minutes.
      if (t.length > pdnShowMax) {
        pdnFile = t;
        $("pdn").value = "";
        $("pdn").placeholder = f.name + " (" + mib(t.length) + " MiB) is loaded from the file, too long to show here; paste a PDN game here to load it instead";
      } else {
        pdnFileDone();
        $("pdn").value = t;
      }
      send({ type: "loadpdn", text: t });
    });
  });
  $("pdn").addEventListener("input", () => { if ($("pdn").value !== "") pdnFileDone(); });
  setupNavigation();
  $("graph").addEventListener("click", graphClick);
  setInterval(renderClocks, 200);
  connect();
}

window.damka = { get state() { return state; }, send: send, get editing() { return editing; }, gotoNode: gotoNode, gotoPly: gotoPly };
setup();
