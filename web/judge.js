// The judges' side of the page (docs/server.md › 7): the tables' overview
// following GET /api/overview/follow live, a mark on each called table and
// each new violation, and from a table's row a dispute, a ruling or a
// backup (previewed first: what it crosses, R-064). And the table's "Call
// a judge" button. Plain JavaScript beside recorder.js, whose globals
// (state, api, el, $, openGame) it uses; every URL is this server's.
"use strict";

const judge = {
  rows: new Map(),      // game -> the overview's row
  seen: new Map(),      // game -> the open violations the judge has looked at
  selected: 0,
  backup: null,         // {game, line, expectedSeq}: previewed, not yet recorded
  started: false,
};

function judgeName() {
  return $("judge-name").value.trim();
}

function clock(ms) {
  if (!ms) return "-";
  const d = new Date(ms);
  const ago = Math.max(0, Math.round((Date.now() - ms) / 1000));
  const words = ago < 60 ? `${ago} s ago` : ago < 3600 ? `${Math.round(ago / 60)} min ago` : "";
  return d.toLocaleTimeString() + (words ? ` (${words})` : "");
}

// --- The overview, live --------------------------------------------------------
function openJudge() {
  $("judge").classList.remove("hidden");
  const kept = sessionStorage.getItem("warlog-judge-name");
  if (kept) $("judge-name").value = kept;
  if (!judge.started) {
    judge.started = true;
    followOverview();
    setInterval(drawOverview, 15000);  // the "s ago" words age
  }
}

// A Server-Sent Events stream read through fetch (EventSource sends no
// Authorization header): `event: overview` once, then `event: row`.
async function followOverview() {
  try {
    const reply = await fetch("/api/overview/follow", {
      headers: { Authorization: "Bearer " + state.token }, cache: "no-store",
    });
    if (reply.status !== 200) throw new Error("overview " + reply.status);
    $("overview-link").textContent = "live";
    await readStream(reply, (kind, body) => {
      if (kind === "overview") {
        judge.rows.clear();
        for (const row of body.games) takeRow(row, true);
      } else if (kind === "row") {
        takeRow(body, false);
      }
    }, drawOverview);
  } catch (e) {
    // The stream broke: say so and follow again.
  }
  $("overview-link").textContent = "reconnecting";
  setTimeout(followOverview, 2000);
}

function takeRow(row, first) {
  // What the judge saw when the page opened is not new to them.
  if (first && !judge.seen.has(row.game)) judge.seen.set(row.game, row.open_violations || 0);
  if (!judge.seen.has(row.game)) judge.seen.set(row.game, 0);
  if ((row.open_violations || 0) < judge.seen.get(row.game)) judge.seen.set(row.game, row.open_violations || 0);
  judge.rows.set(row.game, row);
  if (row.game === judge.selected) drawActions();
}

function players(row) {
  return (row.players || []).map((p) => p.player).join(" v ");
}

function drawOverview() {
  const body = $("overview-rows");
  body.replaceChildren();
  const rows = [...judge.rows.values()].sort((a, b) => (a.table || 1e6 + a.game) - (b.table || 1e6 + b.game));
  for (const row of rows) {
    const tr = el("tr");
    const called = row.call && !row.call.answered_ms;
    const fresh = (row.open_violations || 0) > (judge.seen.get(row.game) || 0);
    if (called) tr.classList.add("called");
    if (fresh) tr.classList.add("new-violation");
    if (row.game === judge.selected) tr.classList.add("selected");
    tr.append(el("td", "", row.table ? `${row.table}` : `game ${row.game}`));
    tr.append(el("td", "", row.error ? row.error : players(row)));
    tr.append(el("td", "", row.error ? "" : `turn ${row.turn} ${row.phase}${row.seat ? " · seat " + row.seat : ""} · ${row.events} events`));
    tr.append(el("td", "", clock(row.last_event_ms)));
    const v = el("td", "violations", `${row.open_violations || 0}`);
    if (row.newest_violation) v.append(el("span", "finding violation", `${row.newest_violation.rule} (${row.newest_violation.citation})`));
    if (fresh) v.append(el("span", "mark", "new"));
    tr.append(v);
    tr.append(el("td", "", `${row.open_disputes || 0}`));
    let call = "";
    if (row.call) {
      call = `called ${clock(row.call.raised_ms)}${row.call.note ? ": " + row.call.note : ""}`;
      if (row.call.answered_ms) call += ` · ${row.call.answered_by} on the way`;
    }
    tr.append(el("td", "call", call));
    tr.append(el("td", "", row.outcome ? row.outcome.text : "playing"));
    tr.addEventListener("click", () => selectRow(row.game));
    body.append(tr);
  }
}

// --- A table's row: its call, a dispute, a ruling, a backup ------------------------
function selectRow(game) {
  judge.selected = game;
  const row = judge.rows.get(game);
  if (row) judge.seen.set(game, row.open_violations || 0);  // looked at: no longer new
  judge.backup = null;
  $("backup-preview").classList.add("hidden");
  $("act-answer-text").textContent = "";
  if (row) {
    $("dispute-seq").value = row.newest_violation ? row.newest_violation.seq : Math.max(0, row.events - 1);
    $("backup-to").value = Math.max(0, row.events - 1);
  }
  drawOverview();
  drawActions();
  loadDisputes();
}

function drawActions() {
  const row = judge.rows.get(judge.selected);
  if (!row) return;
  $("judge-act").classList.remove("hidden");
  $("act-title").textContent = `${row.table ? "Table " + row.table : "Game " + row.game}: ${players(row)} (game ${row.game})`;
  $("act-answer").disabled = !row.call;
  $("act-clear").disabled = !row.call;
}

function say(text, bad) {
  $("act-answer-text").textContent = text;
  $("act-answer-text").className = "pending" + (bad ? " unconfirmed" : "");
}

function needName() {
  const name = judgeName();
  if (!name) say("type your name first (it goes with rulings, backups and answers)", true);
  else sessionStorage.setItem("warlog-judge-name", name);
  return name;
}

async function loadDisputes() {
  const game = judge.selected;
  const r = await api(`/api/games/${game}/disputes`).catch(() => null);
  if (!r || r.status !== 200 || game !== judge.selected) return;
  const pick = $("ruling-dispute");
  pick.replaceChildren();
  for (const d of r.body.disputes) {
    const o = el("option", "", `${d.id} (${d.status}): ${d.claim}, by ${d.raised_by}`);
    o.value = d.id;
    pick.append(o);
  }
  if (!r.body.disputes.length) pick.append(el("option", "", "(no dispute yet)"));
}

async function post(path, body, method = "POST") {
  const r = await api(path, {
    method, headers: { "Content-Type": "application/json" }, body: body === null ? undefined : JSON.stringify(body),
  }).catch(() => null);
  if (!r) say("the server does not answer; nothing recorded", true);
  else if (r.status !== 200) say((r.body && r.body.error) || `refused: ${r.status}`, true);
  return r && r.status === 200 ? r.body : null;
}

async function answerCall() {
  const name = needName();
  if (!name) return;
  if (await post(`/api/games/${judge.selected}/call/answer`, { by: name })) say("the table sees you are on the way");
}

async function clearCall() {
  if (await post(`/api/games/${judge.selected}/call`, null, "DELETE")) say("call cleared");
}

async function addDispute(ev) {
  ev.preventDefault();
  const b = await post(`/api/games/${judge.selected}/disputes`, {
    seq: Number($("dispute-seq").value), claim: $("dispute-claim").value, by: $("dispute-by").value,
  });
  if (!b) return;
  say(b.already ? `already recorded as ${b.dispute.id}` : `dispute ${b.dispute.id} recorded`);
  $("dispute-claim").value = "";
  loadDisputes();
}

async function addRuling(ev) {
  ev.preventDefault();
  const name = needName();
  if (!name || !$("ruling-dispute").value.includes(":")) return;
  const b = await post(`/api/games/${judge.selected}/rulings`, {
    dispute: $("ruling-dispute").value, ruling: $("ruling-text").value, by: name,
    supersede: $("ruling-supersede").checked,
  });
  if (!b) return;
  say(`${b.dispute.id} ${b.dispute.status}${b.already ? " (already so ruled)" : ""}`);
  $("ruling-text").value = "";
  loadDisputes();
}

// A backup is previewed first: what it crosses is shown, and only the
// judge's confirmation records the line.
async function previewBackup(ev) {
  ev.preventDefault();
  const name = needName();
  if (!name) return;
  const game = judge.selected;
  const row = judge.rows.get(game);
  const to = Number($("backup-to").value);
  const r = await api(`/api/games/${game}/backups/preview?to=${to}`).catch(() => null);
  if (!r || r.status !== 200) {
    say(r ? (r.body && r.body.error) || `refused: ${r.status}` : "the server does not answer", true);
    return;
  }
  const clean = (s) => s.replace(/"/g, "'");
  judge.backup = { game, expectedSeq: row.events, line: `backup ${to} "${clean($("backup-why").value)}" by "${clean(name)}"` };
  $("backup-crosses").textContent = `Backing up to seq ${r.body.target} supersedes ${r.body.events} event(s)` +
    (r.body.crossed.length ? " and crosses:" : "; it crosses nothing hidden.");
  const list = $("backup-crossed");
  list.replaceChildren();
  for (const c of r.body.crossed) list.append(el("li", "", `seq ${c.seq}${c.seat ? " · seat " + c.seat : ""} · ${c.kind}: ${c.what}`));
  $("backup-preview").classList.remove("hidden");
}

async function confirmBackup() {
  const b = judge.backup;
  if (!b) return;
  judge.backup = null;
  $("backup-preview").classList.add("hidden");
  const r = await post(`/api/games/${b.game}/lines`, { expectedSeq: b.expectedSeq, line: b.line });
  if (!r) return;
  if (r.status === "ok") say(`backup recorded at seq ${r.seqs.join(", ")}`);
  else say(`${r.status}: ${r.message || (r.errors || []).map((e) => e.expected).join("; ") || "nothing recorded"}`, true);
}

// --- The table's side: call a judge ----------------------------------------------
async function callJudge(ev) {
  ev.preventDefault();
  const r = await api(`/api/games/${state.game}/call`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ note: $("call-note").value }),
  }).catch(() => null);
  if (!r || r.status !== 200) {
    $("call-state").textContent = r ? (r.body && r.body.error) || `refused: ${r.status}` : "not confirmed: the server does not answer; press again";
    $("call-state").className = "pending unconfirmed";
    return;
  }
  const c = r.body.call;
  $("call-state").className = "pending";
  $("call-state").textContent = `judge called at ${new Date(c.raised_ms).toLocaleTimeString()}` +
    (c.answered_ms ? `; ${c.answered_by} is on the way` : "; the judges see it now");
}

document.addEventListener("DOMContentLoaded", () => {
  $("act-open").addEventListener("click", () => {
    const row = judge.rows.get(judge.selected);
    if (row) openGame(row.game, row.title || `game ${row.game}`);
  });
  $("act-answer").addEventListener("click", answerCall);
  $("act-clear").addEventListener("click", clearCall);
  $("dispute-form").addEventListener("submit", addDispute);
  $("ruling-form").addEventListener("submit", addRuling);
  $("backup-form").addEventListener("submit", previewBackup);
  $("backup-confirm").addEventListener("click", confirmBackup);
  $("backup-cancel").addEventListener("click", () => { judge.backup = null; $("backup-preview").classList.add("hidden"); });
  $("call-form").addEventListener("submit", callJudge);
});
