// The browser client. It never applies rules itself: the server lists the legal moves, and for
// each the drawing's elements to click (its "targets"), matched on their data- attributes.
const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const token = params.get("token");
let view = null;       // the newest view from the server
let picks = [];        // data- attributes of the board elements clicked so far
let selected = null;   // the chosen legal move, waiting for confirmation
let hinted = [];       // actions the last hint named
let replayPly = null;  // the move number shown while replaying, null for the live table
let lang = "en";
let messages = {};     // the catalog of the chosen language: English text -> translation
const t = text => messages[text] || text;

async function api(path, body) {
  const headers = {"Accept-Language": lang};  // errors come back in the chosen language
  const res = await fetch(path, body === undefined ? {headers} : {
    method: "POST", headers: {...headers, "Content-Type": "application/json"},
    body: JSON.stringify(body)});
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || JSON.stringify(data.detail));
  return data;
}

const $ = id => document.getElementById(id);
const patterns = () => localStorage.getItem("azul-patterns") === "1";

// -- lobby ----------------------------------------------------------------------------------
function seatRows() {
  const n = Number(document.querySelector("[name=players]").value);
  const box = $("seats");
  box.innerHTML = "";
  const bots = [["human", t("person")], ["random", t("random bot")], ["greedy", t("greedy bot")],
    ["heuristic", t("heuristic bot")], ["mcts", t("MCTS bot")]];
  for (let i = 0; i < n; i++) {
    const options = bots.map(([value, label]) =>
      `<option value="${value}" ${value === (i ? "heuristic" : "human") ? "selected" : ""}>` +
      `${label}</option>`).join("");
    box.insertAdjacentHTML("beforeend",
      `<div class="seat"><label>${t("Seat")} ${i} <select name="seat${i}">${options}</select>` +
      `</label></div>`);
  }
}

async function createGame(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  const n = Number(form.get("players"));
  const seats = [];
  for (let i = 0; i < n; i++) {
    const v = form.get(`seat${i}`);
    seats.push(v === "human" ? {kind: "human"} : {kind: "bot", bot: v});
  }
  try {
    const game = await api("/api/games", {game: form.get("game"), options: {players: n}, seats});
    const links = game.seats.filter(s => s.token).map(s =>
      `<li>${t("Seat")} ${s.seat}: <a href="/?game=${game.id}&token=${s.token}">` +
      `${t("play")}</a> ${t("(send this link to the player)")}</li>`);
    links.push(`<li><a href="/?game=${game.id}&token=${game.watch_token}">${t("watch")}</a></li>`);
    $("links").innerHTML = `<ul>${links.join("")}</ul>`;
  } catch (e) {
    $("links").textContent = e.message;
  }
}

// -- the board and its clickable elements ----------------------------------------------------
function attributesOf(element) {
  // the data- attributes of an element and of the groups around it, the innermost first
  const found = {};
  for (let e = element; e && e.tagName !== "svg"; e = e.parentElement) {
    for (const [k, v] of Object.entries(e.dataset || {})) if (!(k in found)) found[k] = v;
  }
  return found;
}

const matches = (target, attrs) => Object.entries(target).every(([k, v]) => attrs[k] === v);

function candidates() {
  if (!view) return [];
  return view.legal.filter(m => m.targets.length >= picks.length &&
    picks.every((p, i) => matches(m.targets[i], p)));
}

function markBoard() {
  const next = candidates().filter(m => m.targets.length > picks.length)
    .map(m => m.targets[picks.length]);
  for (const e of $("board").querySelectorAll("svg [data-source], svg [data-space], svg [data-strip]")) {
    const attrs = attributesOf(e);
    e.classList.toggle("clickable", replayPly === null && next.some(tg => matches(tg, attrs)));
    e.classList.toggle("picked", picks.some(p => matches(p, attrs) &&
      Object.keys(p).some(k => k !== "seat" && k in e.dataset)));
  }
}

function boardClick(event) {
  const e = event.target.closest(".clickable");
  if (!e) return;
  const next = candidates().filter(m => m.targets.length > picks.length);
  const attrs = attributesOf(e);
  const target = next.map(m => m.targets[picks.length]).find(tg => matches(tg, attrs));
  picks.push(target);
  selected = null;
  const left = candidates();
  if (left.length === 1) selected = left[0].action;
  drawMoves();
}

let drawing = 0;  // the latest drawing asked for: an earlier answer arriving late is dropped

async function drawBoard() {
  const ply = replayPly === null ? "" : `&ply=${replayPly}`;
  const mine = ++drawing;
  const res = await fetch(
    `/api/games/${gameId}/svg?token=${token}&patterns=${patterns() ? 1 : 0}${ply}&lang=${lang}`);
  const svg = await res.text();
  if (mine !== drawing) return;
  $("board").innerHTML = svg;
  markBoard();
}

// -- moves ------------------------------------------------------------------------------------
function drawMoves() {
  const moves = $("moves");
  moves.innerHTML = "";
  const list = candidates();
  for (const m of list) {
    const b = document.createElement("button");
    b.textContent = m.move;
    b.dataset.action = m.action;
    b.classList.toggle("selected", m.action === selected);
    b.classList.toggle("hinted", hinted.includes(m.action));
    b.onclick = () => { selected = m.action; picks = m.targets.slice(); drawMoves(); };
    moves.appendChild(b);
  }
  $("pick-help").textContent = !view.legal.length ? "" : selected !== null
    ? `${t("Selected")}: ${view.legal.find(m => m.action === selected).move}`
    : picks.length ? t("Click a highlighted place on the board, or choose below.")
      : t("Click a highlighted piece on the board, or choose a move below.");
  $("confirm").disabled = selected === null;
  $("clear").disabled = !picks.length && selected === null;
  markBoard();
}

function status() {
  const you = view.you === null ? t("spectator") : `${t("seat")} ${view.you}`;
  const turn = view.over ? `${t("game over, winner(s)")}: ${view.winners.join(", ")}`
    : view.to_move === null ? t("drawing")
      : view.to_move === view.you ? `${t("your turn")}: ${t(view.decision)}`
        : `${t("seat")} ${view.to_move}: ${t(view.decision)}`;
  const name = {pavilion: t("Summer Pavilion"), sintra: t("Stained Glass of Sintra")}[view.game];
  return `${name} · ${t("you")}: ${you} · ${turn} · ${t("scores")}: ${view.scores.join(" / ")}`;
}

// each item of the final breakdown: its row label, and whether its detail names the row
// (a star, a number) or only explains the points (how many pieces, which track space)
const ITEMS = {
  play: [() => t("during the game"), false], star: [d => `${t("star")}: ${t(d)}`, true],
  number: [d => `${t("all spaces")} ${d}`, true], leftovers: [() => t("leftover pieces"), false],
  broken: [() => t("broken glass"), false], ornaments: [() => t("ornaments"), false],
  windows: [() => t("windows"), false],
};

function drawBreakdown() {
  const box = $("breakdown");
  box.hidden = !view.breakdown;
  if (!view.breakdown) return;
  const rows = [];
  view.breakdown.forEach((lines, seat) => lines.forEach(line => {
    const [name, names] = ITEMS[line.item] || [() => line.item, false];
    const label = name(line.detail);
    let row = rows.find(r => r.label === label);
    if (!row) rows.push(row = {label, points: view.breakdown.map(() => "")});
    row.points[seat] = names || !line.detail ? line.points
      : `${line.points} <small>(${line.detail})</small>`;
  }));
  const head = view.breakdown.map((_, s) => `<th>${t("seat")} ${s}</th>`).join("");
  const body = rows.map(r => `<tr><td>${r.label}</td>${r.points.map(p =>
    `<td>${p}</td>`).join("")}</tr>`).join("");
  const total = view.scores.map(s => `<th>${s}</th>`).join("");
  box.querySelector("table").innerHTML =
    `<tr><th></th>${head}</tr>${body}<tr><th>${t("total")}</th>${total}</tr>`;
}

function show(next) {
  if (view && next.version < view.version) return;  // an older view that arrived late
  const changed = !view || next.version !== view.version;
  view = next;
  if (changed) {
    picks = [];
    if (!view.legal.some(m => m.action === selected)) selected = null;
    if (selected !== null) picks = view.legal.find(m => m.action === selected).targets.slice();
    hinted = [];
    $("hint-text").textContent = "";
  }
  $("status").textContent = status();
  $("undo").disabled = !view.can_undo;
  $("hint").disabled = !view.legal.length;
  $("replay").hidden = !view.log.length;
  $("log").innerHTML = view.log.map(e =>
    `<li>${t("seat")} ${e.seat}: ${e.move}</li>`).join("");
  drawBreakdown();
  if (replayPly === null) drawBoard();
  drawMoves();
}

// -- replays ----------------------------------------------------------------------------------
function replayTo(ply) {
  replayPly = ply === null ? null : Math.max(0, Math.min(ply, view.log.length));
  $("replay-ply").textContent = replayPly === null ? t("live")
    : `${t("move")} ${replayPly} / ${view.log.length}`;
  [...$("log").children].forEach((li, i) =>
    li.classList.toggle("current", replayPly !== null && i === replayPly - 1));
  drawBoard();
}

async function play() {
  $("table").hidden = false;
  $("replay-ply").textContent = t("live");
  $("patterns").checked = patterns();
  $("patterns").onchange = () => {
    localStorage.setItem("azul-patterns", $("patterns").checked ? "1" : "0");
    drawBoard();
  };
  $("board").onclick = boardClick;
  $("clear").onclick = () => { picks = []; selected = null; drawMoves(); };
  $("confirm").onclick = async () => {
    const action = selected;
    selected = null;
    picks = [];
    $("error").textContent = "";
    try { show(await api(`/api/games/${gameId}/moves`, {token, action})); }
    catch (e) { $("error").textContent = e.message; drawMoves(); }
  };
  $("undo").onclick = async () => {
    try { show(await api(`/api/games/${gameId}/undo`, {token})); }
    catch (e) { $("error").textContent = e.message; }
  };
  $("hint").onclick = async () => {
    $("hint-text").textContent = t("thinking…");
    try {
      const best = await api(`/api/games/${gameId}/hint`, {token});
      hinted = best.map(h => h.action);
      $("hint-text").textContent = `${t("Hint")}: ${best.map(h => h.move).join(", ")}`;
      drawMoves();
    } catch (e) { $("hint-text").textContent = e.message; }
  };
  $("first").onclick = () => replayTo(0);
  $("prev").onclick = () => replayTo((replayPly ?? view.log.length) - 1);
  $("next").onclick = () => replayTo((replayPly ?? view.log.length) + 1);
  $("last").onclick = () => replayTo(null);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(
    `${proto}://${location.host}/api/games/${gameId}/ws?token=${token}&lang=${lang}`);
  ws.onmessage = event => {
    const data = JSON.parse(event.data);
    if (data.error) $("error").textContent = data.error; else show(data);
  };
  ws.onclose = () => api(`/api/games/${gameId}?token=${token}`).then(show);
}

// -- language ---------------------------------------------------------------------------------
function chooseLanguage(languages) {
  // the user's remembered choice, else the browser's preference, else English
  const wanted = [localStorage.getItem("azul-lang"), ...(navigator.languages || [])];
  for (const tag of wanted) {
    const code = (tag || "").slice(0, 2).toLowerCase();
    if (code in languages) return code;
  }
  return "en";
}

function markdown(text) {
  // the rules summaries: headings, bold, list items and paragraphs
  const esc = text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  return esc.split(/\n\n+/).map(block => {
    const inline = block.replace(/\*\*(.+?)\*\*/gs, "<b>$1</b>");
    if (inline.startsWith("# ")) return `<h3>${inline.slice(2)}</h3>`;
    if (inline.startsWith("- ")) {
      return `<ul>${inline.split(/\n- /).map(i => `<li>${i.replace(/^- /, "")}</li>`).join("")}</ul>`;
    }
    return `<p>${inline}</p>`;
  }).join("");
}

async function start() {
  const en = await api("/api/i18n/en");
  lang = chooseLanguage(en.languages);
  const chosen = lang === "en" ? en : await api(`/api/i18n/${lang}`);
  messages = chosen.messages;
  document.documentElement.lang = lang;
  const select = $("lang");
  select.innerHTML = Object.entries(en.languages).map(([code, name]) =>
    `<option value="${code}" ${code === lang ? "selected" : ""}>${name}</option>`).join("");
  select.onchange = () => { localStorage.setItem("azul-lang", select.value); location.reload(); };
  document.querySelectorAll("[data-i18n]").forEach(e => { e.textContent = t(e.textContent.trim()); });
  document.querySelectorAll("[data-i18n-title]").forEach(e => { e.title = t(e.title); });
  document.title = t("Azul games");
  const game = () => view ? view.game : document.querySelector("[name=game]").value;
  const showRules = () => { $("rules-text").innerHTML = markdown(chosen.rules[game()]); };
  $("rules").ontoggle = showRules;
  if (gameId && token) {
    play();
  } else {
    $("lobby").hidden = false;
    document.querySelector("[name=players]").onchange = seatRows;
    document.querySelector("[name=game]").onchange = showRules;
    $("new-game").onsubmit = createGame;
    seatRows();
  }
}

start();
