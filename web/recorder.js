// warlog's web recorder (docs/server.md › 4). Plain JavaScript, no library,
// no request to any other host: every URL is this server's.
//
// The one rule of the page: an action is shown recorded only when the
// server's answer says so. A line is sent with the expected seq it was
// built against; with no answer it shows "not confirmed" and is sent again,
// the same line with the same expected seq, until the server answers (the
// server answers a retry whose first attempt was stored "already-recorded"
// and writes nothing).
"use strict";

const VERBS = [
  ["", "(type the line)"], ["draw", "draw cards"], ["forage", "forage"], ["return", "return from Homeland"],
  ["stock", "stock a Gambit"], ["play", "play a card"], ["move", "move FROM TO"], ["shift", "shift FROM>TO, ..."],
  ["ability", "ability"], ["burrow", "burrow"], ["unburrow", "unburrow"], ["fire", "fire SHOOTER TARGET DAMAGE"], ["charge", "charge"],
  ["decline", "decline"], ["favor", "favor"], ["combat", "combat"], ["lost", "lost"], ["defeated", "defeated"],
  ["recover", "recover"], ["pay", "pay"], ["discard", "discard"], ["control", "control"], ["fled", "fled"],
  ["end", "end WINNER HOW"],
];

const state = { token: "", game: 0, view: null, events: [], sending: null, follow: null };
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path, options = {}) {
  const headers = Object.assign({ Authorization: "Bearer " + state.token }, options.headers || {});
  const reply = await fetch(path, Object.assign({}, options, { headers, cache: "no-store" }));
  let body = null;
  try { body = await reply.json(); } catch (e) { body = null; }
  return { status: reply.status, body };
}

function setLink(text, cls) {
  const l = $("link");
  l.textContent = text;
  l.className = "link " + (cls || "");
}

// --- Login and the game list -------------------------------------------------
async function login(ev) {
  ev.preventDefault();
  state.token = $("token").value.trim();
  const r = await api("/api/games").catch(() => null);
  if (!r || r.status !== 200) {
    $("login-error").textContent = r ? (r.body && r.body.error) || ("refused: " + r.status) : "the server does not answer";
    return;
  }
  sessionStorage.setItem("warlog-token", state.token);
  $("login").classList.add("hidden");
  const list = $("game-list");
  list.replaceChildren();
  for (const g of r.body.games) {
    const b = el("button", "", `game ${g.game}: ${g.title} (${g.players.map((p) => p.name || p.player).join(" v ")})`);
    b.addEventListener("click", () => openGame(g.game, g.title));
    const li = el("li");
    li.append(b);  // append() returns nothing: the item first, then the list
    list.append(li);
  }
  // A judge gets the tables' overview beside the game list (judge.js).
  if (r.body.role === "judge") openJudge();
  if (r.body.games.length === 1) return openGame(r.body.games[0].game, r.body.games[0].title);
  $("games").classList.remove("hidden");
}

async function openGame(game, title) {
  state.game = game;
  $("games").classList.add("hidden");
  $("table").classList.remove("hidden");
  $("title").textContent = `game ${game}: ${title}`;
  await refresh();
  follow(0);
}

// --- The board, the frame, the hand -------------------------------------------
async function refresh() {
  const r = await api(`/api/games/${state.game}/state`).catch(() => null);
  if (!r || r.status !== 200) return;
  state.view = r.body;
  $("where").textContent = `${r.body.where} · next seq ${r.body.next_seq}`;
  drawBoard();
  drawFrame();
  drawHand();
}

function drawBoard() {
  const v = state.view;
  const board = $("board");
  board.replaceChildren();
  // minmax(0, 1fr): equal columns; a long card name wraps instead of widening its column.
  board.style.gridTemplateColumns = `repeat(${v.cols}, minmax(0, 1fr))`;
  const at = new Map(v.board.map((t) => [t.space, t]));
  const terr = new Map(v.territories.map((t) => [t.space, t]));
  // The last row on top: seat 2's Vanguard faces seat 1's, which is row 1.
  for (let row = v.rows; row >= 1; row--) {
    for (let col = 0; col < v.cols; col++) {
      const space = String.fromCharCode(97 + col) + row;
      const cell = el("button", "cell");
      cell.type = "button";
      cell.append(el("span", "space", space));
      const troop = at.get(space);
      if (troop) {
        cell.classList.add("seat" + troop.seat);
        if (troop.lost) cell.classList.add("lost");
        cell.append(el("span", "name", troop.card + (troop.damage ? ` (-${troop.damage})` : "")));
      }
      if (terr.has(space)) {
        cell.classList.add("territory");
        cell.title = terr.get(space).card;
      }
      cell.addEventListener("click", () => addWord(space));
      board.append(cell);
    }
  }
}

function drawFrame() {
  const v = state.view;
  const frame = $("frame");
  frame.replaceChildren();
  const add = (line) => {
    const b = el("button", "", line);
    b.type = "button";
    b.addEventListener("click", () => { $("line").value = line; });
    frame.append(b);
  };
  add(`Turn ${(v.place.turn || 0) + 1}`);
  for (const s of [1, 2]) add(`Morale ${s}`);
  for (const p of ["Muster", "Warfare", "Attrition"]) for (const s of [1, 2]) add(`${p} ${s}`);
}

function drawHand() {
  const v = state.view;
  const hand = $("hand");
  hand.replaceChildren();
  const seat = v.place.seat;
  if (!seat) return;
  const cards = v.seats[seat - 1].hand;
  hand.append(el("span", "", `${v.seats[seat - 1].player}'s hand:`));
  for (const card of cards) {
    const b = el("button", "chip", card);
    b.type = "button";
    b.addEventListener("click", () => addCard(card));
    hand.append(b);
  }
}

function addWord(word) {
  const line = $("line");
  line.value = (line.value.trimEnd() + " " + word).trimStart();
  line.focus();
}

function addCard(card) {
  const line = $("line");
  const quoted = `"${card}"`;
  const verb = line.value.trim().split(/\s+/)[0];
  if (line.value.includes('"') && (verb === "pay" || verb === "draw")) line.value = line.value.trimEnd() + ", " + quoted;
  else addWord(quoted);
}

function pickVerb() {
  const verb = $("verb").value;
  if (verb) $("line").value = verb;
  // Back to "(type the line)": picking the same verb for the next line is a change again.
  $("verb").value = "";
  $("line").focus();
}

// --- Sending a line: shown recorded only when the server says so ----------------
function sendLine(ev) {
  ev.preventDefault();
  const line = $("line").value;
  if (!line.trim() || state.sending || !state.view) return;
  state.sending = { line, expectedSeq: state.view.next_seq, tries: 0 };
  $("send").disabled = true;
  attempt();
}

async function attempt() {
  const s = state.sending;
  s.tries++;
  $("pending").textContent = s.tries === 1 ? `sending: ${s.line}` : `not confirmed: ${s.line} (try ${s.tries})`;
  $("pending").className = "pending" + (s.tries > 1 ? " unconfirmed" : "");
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 8000);
  let r = null;
  try {
    r = await api(`/api/games/${state.game}/lines`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ expectedSeq: s.expectedSeq, line: s.line }),
      signal: abort.signal,
    });
  } catch (e) {
    r = null;
  }
  clearTimeout(timer);
  if (!r || r.status >= 500 || r.status === 429 || !r.body) {
    // No answer (or not yet): the same line, the same expected seq, again.
    $("pending").textContent = `not confirmed: ${s.line} (no answer; trying again)`;
    $("pending").className = "pending unconfirmed";
    setTimeout(attempt, Math.min(5000, 500 * s.tries));
    return;
  }
  $("pending").textContent = "";
  showAnswer(s.line, r);
  if (r.body.status === "ok" || r.body.status === "already-recorded") $("line").value = "";
  // The next line is built against the next seq: free Record only once the view has it.
  await refresh();
  state.sending = null;
  $("send").disabled = false;
}

function showAnswer(line, r) {
  const b = r.body;
  const li = el("li", b.status || "refused");
  let head;
  if (b.error) head = `${line}: ${b.error}`;
  else if (b.status === "ok") head = b.seqs.length ? `seq ${b.seqs.join(", ")} recorded: ${line}` : `nothing to record: ${line}`;
  else if (b.status === "already-recorded") head = `seq ${b.seqs.join(", ")} already recorded: ${line}`;
  else if (b.status === "refused") head = `refused: ${line}: ` + b.errors.map((e) => `column ${e.col}: expected ${e.expected}, found ${e.found}${e.hint ? " (" + e.hint + ")" : ""}`).join("; ");
  else if (b.status === "conflict") head = `conflict: another recorder recorded first; nothing recorded (${line})`;
  else head = `${b.status}: ${b.message || line}`;
  li.append(el("span", "", head));
  for (const f of b.findings || []) {
    li.append(el("span", "finding " + f.severity, `${f.severity} ${f.rule} (${f.citation}): ${f.message}`));
  }
  for (const c of b.crossing || []) li.append(el("span", "finding", c));
  $("answers").prepend(li);
}

// --- Following the game: the events as stored ------------------------------------
// Reads a Server-Sent Events reply to its end: each message's `event:`
// kind and its `data:` lines parsed as JSON go to onMessage; after each
// chunk read, afterChunk (the page redraws once, not per message). Shared
// by the game's follow and the judges' overview (judge.js).
async function readStream(reply, onMessage, afterChunk) {
  const reader = reply.body.getReader();
  const text = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += text.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, cut).split("\n");
      buffer = buffer.slice(cut + 2);
      const kind = (lines.find((l) => l.startsWith("event: ")) || "").slice(7);
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (data) onMessage(kind, JSON.parse(data));
    }
    afterChunk();
  }
}

async function follow(from) {
  const ctrl = new AbortController();
  state.follow = ctrl;
  let next = from;
  try {
    const reply = await fetch(`/api/games/${state.game}/follow?from=${from}`, {
      headers: { Authorization: "Bearer " + state.token }, signal: ctrl.signal, cache: "no-store",
    });
    if (reply.status !== 200) throw new Error("follow " + reply.status);
    setLink("live", "live");
    await readStream(reply, (kind, ev) => {
      next = ev.seq + 1;
      addEvent(ev);
    }, refreshSoon);
  } catch (e) {
    // The stream broke: say so, and follow again from where it stopped.
  }
  setLink("reconnecting", "down");
  setTimeout(() => follow(next), 2000);
}

let refreshTimer = null;
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 200);
}

function describe(ev) {
  const p = ev.payload || {};
  const parts = [ev.type];
  if (p.cards) parts.push(p.cards.join(", "));
  if (p.card) parts.push(p.card);
  if (p.space) parts.push(p.space);
  if (p.from && p.to) parts.push(`${p.from} → ${p.to}`);
  if (p.target !== undefined && (ev.type === "Voided" || ev.type === "BackupTo")) parts.push(`seq ${p.target}`);
  return `seq ${ev.seq} · turn ${ev.turn} ${ev.phase}${ev.seat ? " · seat " + ev.seat : ""} · ${parts.join(" ")}`;
}

function addEvent(ev) {
  const li = el("li", "", describe(ev));
  li.value = ev.seq;
  if (ev.type !== "GameCreated" && ev.type !== "ArmyRegistered" && ev.type !== "Voided" && ev.type !== "BackupTo") {
    const b = el("button", "", "void");
    b.type = "button";
    b.addEventListener("click", () => { $("line").value = `void ${ev.seq} "slip"`; $("line").focus(); });
    li.append(b);
  }
  $("events").prepend(li);
}

// --- Wiring ---------------------------------------------------------------------
document.addEventListener("DOMContentLoaded", () => {
  const verb = $("verb");
  for (const [value, label] of VERBS) {
    const o = el("option", "", label);
    o.value = value;
    verb.append(o);
  }
  verb.addEventListener("change", pickVerb);
  $("login-form").addEventListener("submit", login);
  $("line-form").addEventListener("submit", sendLine);
  $("clear").addEventListener("click", () => { $("line").value = ""; });
  const kept = sessionStorage.getItem("warlog-token");
  if (kept) $("token").value = kept;
});
