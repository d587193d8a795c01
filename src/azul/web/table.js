// The table: the drawing, moves made by clicking it, choices drawn beside it, what just
// happened, the log, the end of the game. The client never applies a rule: the server lists the
// legal moves, and for each the drawing's elements to click (its "targets"), what tells it apart
// from moves with the same targets ("details"), what it earns ("preview") and its words.
import {drawClocks, playedBy, setServerTime} from "./clocks.js";
import {api, live} from "./connection.js";
import {escapeHtml, fill, format, lang, t} from "./i18n.js";
import {levelName} from "./lobby.js";
import {offerNotifications, showTurn} from "./yourturn.js";

const $ = id => document.getElementById(id);
const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const token = params.get("token");

let view = null;       // the newest view from the server
let picks = [];        // the targets clicked so far
let selected = null;   // the chosen legal move, waiting for confirmation
let kept = null;       // the keep picker's tiles: {letter: count}
let hinted = [];       // actions the last hint named
let replayPly = null;  // the move shown while replaying, null for the live table
let focus = null;      // the seat drawn large (null: yours)
let review = null;     // the finished game's review, once made (GET /api/games/ID/review)
let reviewed = null;   // the decision of the review shown on the board (its index)
let connection = null;

const patterns = () => localStorage.getItem("azul-patterns") === "1";
const layout = () => (window.innerWidth < 760 ? "tall" : "wide");
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const touch = () => window.matchMedia("(pointer: coarse)").matches;  // fingers tap, mice click

export function seatName(seat) {
  const s = view.seats[seat];
  if (s.name) return s.name;
  if (s.kind === "bot") return levelName(s.bot);
  return fill(t("Seat {n}"), {n: seat + 1});
}

// -- matching targets with the drawing's elements --------------------------------------------
function attributesOf(element) {
  // the data- attributes of an element and of the groups around it, the innermost first
  const found = {};
  for (let e = element; e && e.tagName !== "svg"; e = e.parentElement) {
    for (const [k, v] of Object.entries(e.dataset || {})) if (!(k in found)) found[k] = v;
  }
  return found;
}

const matches = (target, attrs) => Object.entries(target).every(([k, v]) => attrs[k] === v);
const elements = () => [...$("board").querySelectorAll("svg g")]
  .filter(g => Object.keys(g.dataset).length);
const find = target => elements().filter(g => matches(target, attributesOf(g)));

function candidates() {
  // the legal moves that fit the clicks so far; a move the server says another one stands for
  // (details.same_as: it ends the same) is not offered apart from it
  if (!view || replayPly !== null) return [];
  const legal = new Set(view.legal.map(m => m.action));
  return view.legal.filter(m => m.targets.length >= picks.length &&
    picks.every((p, i) => matches(m.targets[i], p)) &&
    !(m.details && legal.has(m.details.same_as)));
}

// -- the board --------------------------------------------------------------------------------
function markBoard() {
  const next = candidates().filter(m => m.targets.length > picks.length)
    .map(m => m.targets[picks.length]);
  // a replayed position is drawn without the live table's hints and last moves
  const replaying = replayPly !== null;
  const hints = replaying ? [] : view.legal.filter(m => hinted.includes(m.action))
    .map(m => m.targets[Math.min(picks.length, m.targets.length - 1)]).filter(Boolean);
  const last = replaying ? [] : (view.last || []).filter(Boolean);
  const ghost = replaying && review && reviewed !== null && replayPly === reviewed
    ? review.decisions[reviewed].targets : [];
  const newest = Math.max(0, ...last.map(l => l.ply));
  for (const g of elements()) {
    const attrs = attributesOf(g);
    const clickable = next.some(tg => matches(tg, attrs));
    g.classList.toggle("clickable", clickable);
    g.classList.toggle("picked", picks.some(p => matches(p, attrs) &&
      Object.keys(p).some(k => k !== "seat" && k in g.dataset)));
    g.classList.toggle("hinted", hints.some(tg => matches(tg, attrs)));
    g.classList.toggle("ghost", ghost.some(tg => matches(tg, attrs)));
    const mark = last.find(l => l.marks.some(tg => matches(tg, attrs) &&
      Object.keys(tg).some(k => k !== "seat" && k in g.dataset)));
    g.classList.toggle("last", Boolean(mark));
    g.classList.toggle("newest", Boolean(mark) && mark.ply === newest);
    if (clickable) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      const title = g.querySelector(":scope > title");
      if (title) g.setAttribute("aria-label", title.textContent);
    } else {
      g.removeAttribute("tabindex");
      g.removeAttribute("role");
    }
  }
}

function choose(element) {
  const attrs = attributesOf(element);
  const target = candidates().filter(m => m.targets.length > picks.length)
    .map(m => m.targets[picks.length]).find(tg => matches(tg, attrs));
  if (!target) return;
  picks.push(target);
  settle();
  drawMoves();
  bringTargetsIntoSight();
}

function bringTargetsIntoSight() {
  // on a phone the turn's panel covers the bottom of the screen: scroll the page so that the
  // places one can pick next (or the hint's) lie above it, all of them when they fit; once the
  // move is chosen, what it takes and where it goes (the panel has grown by its preview)
  const bar = $("turn");
  if (getComputedStyle(bar).position !== "fixed") return;
  const sight = marks => [...$("board").querySelectorAll(marks)].map(g => g.getBoundingClientRect());
  let boxes = sight("g.clickable, g.hinted");
  const chosen = !boxes.length;
  if (chosen) boxes = sight("g.picked");
  if (!boxes.length) return;
  const gap = 8, room = bar.getBoundingClientRect().top - gap;
  const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
  const fits = bottom - top <= room - gap;
  const by = (fits && top < gap) || (!fits && !chosen) ? top - gap : Math.max(0, bottom - room);
  if (Math.abs(by) >= 1) {
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    scrollBy({top: by, behavior: still ? "instant" : "smooth"});
  }
}

function settle() {
  // one candidate left whose targets are all picked: that is the move
  const left = candidates();
  const done = left.filter(m => m.targets.length === picks.length);
  selected = left.length === 1 && done.length === 1 ? done[0].action : null;
  kept = null;
}

let drawing = 0;  // the latest drawing asked for: an earlier answer arriving late is dropped

async function drawBoard(moved = [], look = false) {
  // look: a turn of yours begins, bring what you can pick into sight once it is drawn
  const mine = ++drawing;
  const query = new URLSearchParams({token, patterns: patterns() ? "1" : "0", lang,
    layout: layout()});
  if (replayPly !== null) query.set("ply", replayPly);
  if (focus !== null) query.set("focus", focus);
  let svg;
  try {
    const res = await fetch(`/api/games/${gameId}/svg?${query}`);
    if (!res.ok) return;
    svg = await res.text();
  } catch { return; }
  if (mine !== drawing) return;
  $("board").innerHTML = svg;
  markBoard();
  animate(moved);
  if (look) bringTargetsIntoSight();
}

// -- what just happened: pieces fly from where they were to where they went -----------------
function sourcesOf(next) {
  // before the new drawing replaces the old one: where each new move's pieces were, and
  // where the score markers stood
  if (!view || reducedMotion()) return [];
  const moved = [];
  markers = new Map([...$("board").querySelectorAll("g.marker[data-seat]")]
    .map(g => [g.dataset.seat, g.getBoundingClientRect()]));
  for (const last of next.last || []) {
    if (!last || last.ply <= view.log.length || !last.clicked.length) continue;
    const first = last.clicked[0];
    const letter = first.color || first.hand || first.keep;
    const paint = (next.palette || {})[letter] || {fill: "#8d6e63"};
    const from = find(first).slice(0, 4)
      .map(g => ({rect: g.getBoundingClientRect(), fill: paint.fill}));
    if (from.length) moved.push({from, marks: last.marks});
  }
  return moved;
}

let markers = new Map();  // the score markers' places in the drawing being replaced

function animate(moved) {
  const svg = $("board").querySelector("svg");
  const k = svg && svg.viewBox.baseVal ? svg.viewBox.baseVal.width / svg.getBoundingClientRect().width : 1;
  for (const g of $("board").querySelectorAll("g.marker[data-seat]")) {
    const old = markers.get(g.dataset.seat);
    if (!old) continue;
    const now = g.getBoundingClientRect();
    const dx = (old.left - now.left) * k;  // in the drawing's units
    const dy = (old.top - now.top) * k;
    if (Math.abs(dx) + Math.abs(dy) < 1) continue;
    g.style.transformBox = "fill-box";
    g.animate([{transform: `translate(${dx}px, ${dy}px)`}, {transform: "translate(0, 0)"}],
      {duration: 600, easing: "ease-in-out"});
  }
  markers = new Map();
  for (const {from, marks} of moved) {
    const to = marks.length ? find(marks[0])[0] : null;
    if (!to) continue;
    const end = to.getBoundingClientRect();
    from.forEach(({rect, fill: color}, i) => {
      const ghost = document.createElement("div");
      ghost.className = "ghost";
      Object.assign(ghost.style, {left: `${rect.left + scrollX}px`, top: `${rect.top + scrollY}px`,
        width: `${rect.width}px`, height: `${rect.height}px`, background: color});
      document.body.appendChild(ghost);
      const dx = end.left + end.width / 2 - (rect.left + rect.width / 2);
      const dy = end.top + end.height / 2 - (rect.top + rect.height / 2);
      ghost.animate([{transform: "translate(0, 0)", opacity: 0.95},
        {transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.3}],
      {duration: 500, delay: i * 60, easing: "ease-in-out"}).onfinish = () => ghost.remove();
    });
  }
}

// -- choices beside the board, the preview, the list of every move ----------------------------
function chip(letter, extra = "") {
  // a piece beside the board, in the game's colours (view.palette), with its letter and name
  const paint = (view.palette || {})[letter] || {fill: "#ccc", ink: "#000", name: letter};
  return `<span class="chip ${extra}" style="background:${paint.fill};color:${paint.ink}"
    title="${escapeHtml(t(paint.name))}">${letter}</span>`;
}

function drawChoices(left) {
  const box = $("choices");
  box.innerHTML = "";
  const done = left.filter(m => m.targets.length === picks.length);
  if (done.length < 2 || selected !== null && kept === null) return;
  if (done.every(m => m.details && m.details.keep)) return keepPicker(done);
  box.insertAdjacentHTML("beforeend", `<p>${escapeHtml(t("Choose:"))}</p>`);
  for (const m of done) {
    const b = document.createElement("button");
    const pay = m.details && m.details.pay;
    b.innerHTML = pay ? `${Object.entries(pay).map(([c, n]) => chip(c).repeat(n)).join("")}
      <span>${escapeHtml(format(m.text))}</span>` : escapeHtml(format(m.text) || m.move);
    b.classList.toggle("selected", m.action === selected);
    b.onclick = () => { selected = m.action; drawMoves(); bringTargetsIntoSight(); };
    box.appendChild(b);
  }
}

function keepPicker(passes) {
  // the hand, as the most of each colour any keep names; tiles toggle kept / given up
  const box = $("choices");
  const hand = {};
  for (const m of passes) {
    for (const [c, n] of Object.entries(m.details.keep)) hand[c] = Math.max(hand[c] || 0, n);
  }
  if (kept === null) kept = {};
  const total = Object.values(kept).reduce((a, b) => a + b, 0);
  const most = Math.max(...passes.map(m => Object.values(m.details.keep).reduce((a, b) => a + b, 0)));
  box.insertAdjacentHTML("beforeend",
    `<p>${escapeHtml(touch() ? t("Tap the tiles to keep (the others cost 1 point each):")
      : t("Click the tiles to keep (the others cost 1 point each):"))}</p>`);
  const row = document.createElement("p");
  row.className = "keep";
  for (const [c, n] of Object.entries(hand)) {
    for (let i = 0; i < n; i++) {
      const on = i < (kept[c] || 0);
      const b = document.createElement("button");
      b.className = "chip-button";
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.innerHTML = chip(c, on ? "on" : "off");
      b.title = on ? t("kept") : t("given up");
      b.disabled = !on && total >= most;
      b.onclick = () => {
        kept[c] = on ? (kept[c] || 0) - 1 : (kept[c] || 0) + 1;
        pickKeep(passes);
      };
      row.appendChild(b);
    }
  }
  box.appendChild(row);
  const none = document.createElement("button");
  none.textContent = t("Keep none");
  none.onclick = () => { kept = {}; pickKeep(passes); };
  box.appendChild(none);
  box.insertAdjacentHTML("beforeend", `<p class="hint">${escapeHtml(
    fill(t("{kept} kept, {most} at most"), {kept: total, most}))}</p>`);
}

function pickKeep(passes) {
  const same = (a, b) => {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every(k => (a[k] || 0) === (b[k] || 0));
  };
  const found = passes.find(m => same(m.details.keep, kept));
  selected = found ? found.action : null;
  drawMoves();
}

// what a move earns, as "label: value" (no plural to get wrong in any language)
const PREVIEW = () => ({points: t("points"), bonus: t("bonus tiles"),
  discarded: t("tiles to the tower"), broken: t("pieces broken"),
  tile: t("starting player tile"), completes: t("strip completed"),
  window: t("window furnished"), final: t("final score")});

function drawPreview(move) {
  const box = $("preview");
  if (!move) { box.innerHTML = ""; return; }
  const labels = PREVIEW();
  const parts = Object.entries(move.preview || {})
    .filter(([key, value]) => key === "points" || key === "final" || value)
    .map(([key, value]) => `${labels[key] || t(key)}: ${key === "points" && value > 0 ? "+" : ""}${value}`);
  box.innerHTML = `<span class="words">${escapeHtml(format(move.text) || move.move)}</span>
    <span class="earns">${escapeHtml(parts.join(" · "))}</span>`;
}

function pickHelp(chosen, choosing) {
  // what to do next; fingers tap where mice click
  if (chosen) return t("Confirm this move, or clear it.");
  if (choosing) return t("Choose below, then confirm.");
  if (picks.length) {
    return touch() ? t("Now tap a highlighted place on the board.")
      : t("Now click a highlighted place on the board.");
  }
  return touch() ? t("Tap a highlighted piece on the board.")
    : t("Click a highlighted piece on the board.");
}

function drawMoves() {
  const left = candidates();
  const mine = view.legal.length > 0 && replayPly === null;
  drawChoices(left);
  const list = $("moves");
  list.innerHTML = "";
  for (const m of view.legal) {
    const b = document.createElement("button");
    b.textContent = m.move;
    b.title = format(m.text);
    b.classList.toggle("selected", m.action === selected);
    b.classList.toggle("hinted", hinted.includes(m.action));
    b.onclick = () => { selected = m.action; picks = m.targets.slice(); kept = null; drawMoves(); };
    list.appendChild(b);
  }
  $("all-moves").hidden = !mine;
  const chosen = view.legal.find(m => m.action === selected);
  drawPreview(chosen);
  const choosing = left.length > 1 && left.every(m => m.targets.length === picks.length);
  $("pick-help").textContent = mine ? pickHelp(chosen, choosing) : "";
  $("turn").classList.toggle("active", mine);
  $("turn").classList.toggle("ready", Boolean(chosen));  // the preview says what Confirm does
  $("turn").hidden = view.over;
  $("confirm").disabled = selected === null || !online;
  $("clear").disabled = !picks.length && selected === null;
  markBoard();
  // on a phone the turn's panel is fixed at the bottom: keep the page scrollable past it
  const bar = $("turn");
  const fixed = getComputedStyle(bar).position === "fixed";
  document.body.style.setProperty("--turn-height", `${fixed ? bar.offsetHeight : 0}px`);
}

// -- the view ---------------------------------------------------------------------------------
const gameName = () => t(view.title || view.game);

function status() {
  if (replayPly !== null) {
    const note = reviewNote();
    if (note) return note;
    return fill(t("Replay: move {ply} of {plies}"), {ply: replayPly, plies: view.log.length});
  }
  if (view.over) {
    return fill(t("Game over: {names} won"), {names: view.winners.map(seatName).join(", ")});
  }
  if (view.to_move === null) return t("drawing…");
  const decision = t(view.decision);
  if (view.to_move === view.you) return fill(t("Your turn: {decision}"), {decision});
  return fill(t("{name} to play: {decision}"), {name: seatName(view.to_move), decision});
}

function drawStatus() {
  $("status").textContent = status();
  $("replay-ply").textContent = replayPly === null ? t("live") : `${replayPly} / ${view.log.length}`;
}

function drawLog() {
  const log = $("log");
  log.innerHTML = "";
  for (const entry of [...view.log].reverse()) {
    const li = document.createElement("li");
    li.value = entry.ply;
    li.innerHTML = `<b>${escapeHtml(seatName(entry.seat))}</b> ${escapeHtml(format(entry.text))}`;
    if (entry.by) li.innerHTML += ` <small class="by">(${escapeHtml(playedBy(entry))})</small>`;
    li.title = entry.move;
    const d = review && review.decisions[entry.ply - 1];
    if (d) {
      if (d.loss > 0) li.innerHTML += ` <span class="loss ${d.label || ""}">−${d.loss}</span>`;
      li.classList.toggle("current", reviewed === entry.ply - 1 && replayPly === reviewed);
      li.onclick = () => showDecision(entry.ply - 1);
    } else {
      li.classList.toggle("current", replayPly === entry.ply);
      li.onclick = () => replayTo(entry.ply);
    }
    log.appendChild(li);
  }
}

// each item of the final breakdown: its row label, and whether its detail names the row
// (a star, a number) or only explains the points (how many pieces, which track space)
const ITEMS = {
  play: [() => t("during the game"), false], star: [d => `${t("star")}: ${t(d)}`, true],
  number: [d => `${t("all spaces")} ${d}`, true], leftovers: [() => t("leftover pieces"), false],
  broken: [() => t("broken glass"), false], ornaments: [() => t("ornaments"), false],
  windows: [() => t("windows"), false],
};

function drawEnd() {
  $("end").hidden = !view.over;
  if (!view.over) return;
  const rows = [];
  (view.breakdown || []).forEach((lines, seat) => lines.forEach(line => {
    const [name, names] = ITEMS[line.item] || [() => line.item, false];
    const label = name(line.detail);
    let row = rows.find(r => r.label === label);
    if (!row) rows.push(row = {label, points: view.seats.map(() => "")});
    row.points[seat] = names || !line.detail ? line.points
      : `${line.points} <small>(${escapeHtml(line.detail)})</small>`;
  }));
  const head = view.seats.map((_, s) => `<th scope="col">${escapeHtml(seatName(s))}</th>`).join("");
  const body = rows.map(r => `<tr><th scope="row">${escapeHtml(r.label)}</th>${r.points.map(p =>
    `<td>${p}</td>`).join("")}</tr>`).join("");
  const total = view.scores.map(s => `<td><b>${s}</b></td>`).join("");
  $("breakdown").innerHTML = `<tr><td></td>${head}</tr>${body}` +
    `<tr class="total"><th scope="row">${escapeHtml(t("total"))}</th>${total}</tr>`;
  const next = view.rematch;
  $("rematch").hidden = Boolean(next) || view.you === null;
  $("rematch-link").hidden = !next;
  if (next && next.token) $("rematch-link").href = `/?game=${next.id}&token=${next.token}`;
  if (!review && !reviewAsked) {  // a review made earlier is shown at once
    reviewAsked = true;
    askReview(false);
  }
}

let reviewAsked = false;

// -- the review of a finished game ---------------------------------------------------------
const LABELS = {inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"),
  blunder: () => t("blunder")};

async function askReview(start) {
  // start: ask for it to be made; then look at its progress each second until it is done
  const status = $("review-status");
  let got;
  try {
    got = start ? await api(`/api/games/${gameId}/review`, {token})
      : await api(`/api/games/${gameId}/review?${new URLSearchParams({token})}`);
  } catch (e) {
    status.textContent = e.message;
    $("review").disabled = false;
    return;
  }
  if (got.status === "done") {
    review = got.review;
    status.textContent = "";
    drawReview();
  } else if (got.status === "running") {
    $("review").disabled = true;
    status.textContent = fill(t("Reviewing: move {done} of {total}"), got);
    setTimeout(() => askReview(false), 1000);
  } else {  // none (any more): it can be asked for
    $("review").disabled = false;
    status.textContent = "";
  }
}

function drawReview() {
  $("review").hidden = Boolean(review);
  $("review-box").hidden = !review;
  if (!review) return;
  const graph = $("review-graph");
  graph.innerHTML = review.svg;
  const two = review.players === 2;
  for (const text of graph.querySelectorAll("text.legend")) {  // the seats' names, translated
    const name = seatName(Number(text.dataset.seat));
    text.textContent = two ? fill(t("{name} ahead"), {name}) : name;
  }
  for (const mark of graph.querySelectorAll("circle[data-ply]")) {
    const i = review.decisions.findIndex(d => d.ply === Number(mark.dataset.ply));
    mark.onclick = () => showDecision(i);
  }
  // a column per seat, as the final scores, headed by its line's colour and its name
  const colour = seat => graph.querySelector(`text.legend[data-seat="${seat}"]`)?.getAttribute("fill");
  const head = review.summary.map(p => {
    const name = escapeHtml(seatName(p.seat));
    const swatch = `<span class="swatch" style="background:${escapeHtml(colour(p.seat) || "none")}"></span>`;
    return `<th scope="col" title="${name}">${swatch}${name}</th>`;
  });
  const row = (label, cells) => `<tr><th scope="row">${escapeHtml(label)}</th>` +
    cells.map(c => `<td>${c}</td>`).join("") + "</tr>";
  $("review-summary").innerHTML = `<tr><td></td>${head.join("")}</tr>` +
    row(t("points lost per move"), review.summary.map(p => p.average_loss.toFixed(1))) +
    row(t("inaccuracies"), review.summary.map(p => p.inaccuracies)) +
    row(t("mistakes"), review.summary.map(p => p.mistakes)) +
    row(t("blunders"), review.summary.map(p => p.blunders));
  drawLog();
}

function reviewNote() {
  // what the reviewed decision's move lost against the best, said above the board
  if (!review || reviewed === null || replayPly !== reviewed) return null;
  const i = reviewed;
  const d = review.decisions[i];
  const played = format(view.log[i].text);
  const name = seatName(d.seat);
  return d.loss > 0
    ? fill(t("Move {n}: {name} played {played}; best was {best}, {loss} points more ({label})."),
      {n: i + 1, name, played, best: format(d.best_text), loss: d.loss,
        label: d.label ? LABELS[d.label]() : t("a small difference")})
    : fill(t("Move {n}: {name} played {played}, the best move."), {n: i + 1, name, played});
}

function showDecision(i) {
  // the board before the decision, its best move drawn as a ghost, and what the move lost
  reviewed = i;
  replayTo(i);
  const top = $("status").getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 2) $("status").scrollIntoView({block: "start"});
}

// an invited friend's seat has no name until they give one (asked once, kept for next time)
function drawNaming() {
  const mine = view.you === null ? null : view.seats[view.you];
  const form = $("naming");
  const ask = !!mine && mine.kind === "human" && !mine.name && !view.over;
  if (ask && form.hidden) form.name.value = localStorage.getItem("azul-name") || "";
  form.hidden = !ask;
}

async function saveName(event) {
  event.preventDefault();
  const name = $("naming").name.value.trim();
  $("naming-error").textContent = "";
  try {
    show(await api(`/api/games/${gameId}/name`, {token, name}));
    localStorage.setItem("azul-name", name);
  } catch (e) { $("naming-error").textContent = e.message; }
}

function drawInvites() {
  const saved = JSON.parse(localStorage.getItem(`azul-invites-${gameId}`) || "null");
  $("invite").hidden = !saved || !saved.invites.length || view.over;
  if (!saved) return;
  const links = saved.invites.map(i => [fill(t("Seat {n}"), {n: i.seat + 1}),
    `${location.origin}/?game=${gameId}&token=${i.token}`]);
  links.push([t("Spectators"), `${location.origin}/?game=${gameId}&token=${saved.watch}`]);
  const box = $("invite-links");
  box.innerHTML = "";
  for (const [label, url] of links) {
    const li = document.createElement("li");
    li.innerHTML = `<span>${escapeHtml(label)}</span> <input readonly value="${escapeHtml(url)}"
      aria-label="${escapeHtml(label)}">`;
    const copy = document.createElement("button");
    copy.textContent = t("Copy");
    copy.onclick = async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = t("Copied"); }
      catch { li.querySelector("input").select(); }
    };
    li.appendChild(copy);
    box.appendChild(li);
  }
}

function drawFocus() {
  const box = $("focus");
  box.innerHTML = `<span>${escapeHtml(t("Large board:"))}</span>`;
  view.seats.forEach((_, s) => {
    const b = document.createElement("button");
    b.textContent = seatName(s) + (s === view.you ? ` (${t("you")})` : "");
    b.setAttribute("aria-pressed", String((focus ?? view.you ?? 0) === s));
    b.onclick = () => { focus = s === view.you ? null : s; drawFocus(); drawBoard(); };
    box.appendChild(b);
  });
}

function show(next) {
  if (view && next.version < view.version) return;  // an older view that arrived late
  const changed = !view || next.version !== view.version;
  const moved = changed ? sourcesOf(next) : [];
  view = next;
  document.body.dataset.game = view.game;
  if (changed) {
    picks = [];
    if (!view.legal.some(m => m.action === selected)) selected = null;
    if (selected !== null) picks = view.legal.find(m => m.action === selected).targets.slice();
    hinted = [];
    $("hint-text").textContent = "";
  }
  setServerTime(view.now);
  const yourTurn = view.to_move !== null && view.to_move === view.you && !view.over;
  const turnBased = Boolean(view.clock) && view.clock.control.kind === "turn";
  showTurn(yourTurn, turnBased, gameName());
  offerNotifications($("notify"), turnBased && view.you !== null && !view.over);
  drawStatus();
  drawClocks($("clocks"), view, seatName);
  // a bot keeps your seat since your time ran out twice in a row: you can take it back
  $("away").hidden = view.you === null || view.over || !view.seats[view.you].away;
  $("notice").hidden = !view.notice;  // e.g. the printed values in play are provisional
  $("notice").textContent = view.notice ? t(view.notice) : "";
  $("undo").disabled = !view.can_undo;
  $("undo").hidden = Boolean(view.clock);  // a timed game has no undo: it would give time back
  $("hint").disabled = !view.legal.length;
  $("replay").hidden = !view.log.length;
  drawLog();
  drawEnd();
  drawInvites();
  drawNaming();
  drawFocus();
  if (replayPly === null && changed) drawBoard(moved, yourTurn); else markBoard();
  drawMoves();
}

// -- replays ----------------------------------------------------------------------------------
function replayTo(ply) {
  if (ply !== reviewed) reviewed = null;  // away from the reviewed decision
  replayPly = ply === null || ply >= view.log.length ? null : Math.max(0, ply);
  drawStatus();
  drawLog();
  drawBoard();
  drawMoves();
}

// -- acting -------------------------------------------------------------------------------------
async function act(path, body) {
  $("error").textContent = "";
  try {
    show(await api(path, body));
    return true;
  } catch (e) {
    if (e.view) show(e.view);  // the move was chosen on an older view: here is the game now
    $("error").textContent = e.message;
    return false;
  }
}

function problem(title, text) {
  $("table").hidden = true;
  $("problem").hidden = false;
  $("problem-title").textContent = title;
  $("problem-text").textContent = text.charAt(0).toUpperCase() + text.slice(1);
}

let online = true;

function showConnection(state, detail) {
  online = state === "connected";
  if (online) $("error").textContent = "";
  else if (state === "reconnecting") $("error").textContent = t("Waiting for the server: your move will be possible again in a moment.");
  if (view) drawMoves();
  const box = $("connection");
  box.hidden = false;
  box.className = `connection ${state}`;
  const words = state === "connected" ? t("connected")
    : state === "reconnecting" ? fill(t("connection lost: retrying in {seconds} s"), {seconds: detail})
      : t("disconnected");
  box.innerHTML = `<span class="label">${escapeHtml(words)}</span>`;
  if (state === "refused") problem(t("This link does not open a game"), detail || "");
}

export async function startTable() {
  try {
    view = null;
    show(await api(`/api/games/${gameId}?token=${encodeURIComponent(token)}`));
  } catch (e) {
    if (e.status === 404 || e.status === 403 || e.status === 422) {
      problem(t("This link does not open a game"),
        `${e.message}. ${t("Ask for a new link, or start a game from the lobby.")}`);
    } else {
      problem(t("The game could not be loaded"), e.message);
    }
    return;
  }
  $("table").hidden = false;
  const board = $("board");
  board.onclick = event => {
    const g = event.target.closest("g.clickable");
    if (g) choose(g);
  };
  board.onkeydown = event => {
    const g = event.target.closest && event.target.closest("g.clickable");
    if (g && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(g);
    }
  };
  document.addEventListener("keydown", event => {
    if (event.key === "Escape") $("clear").click();
  });
  $("clear").onclick = () => {
    picks = []; selected = null; kept = null; drawMoves(); bringTargetsIntoSight();
  };
  $("confirm").onclick = async () => {
    const action = selected;
    const version = view.version;  // the view the move was chosen on
    selected = null;
    picks = [];
    kept = null;
    if (!await act(`/api/games/${gameId}/moves`, {token, action, version})) drawMoves();
  };
  $("undo").onclick = () => act(`/api/games/${gameId}/undo`, {token});
  $("back").onclick = () => act(`/api/games/${gameId}/back`, {token});
  setInterval(() => { if (view && view.clock) drawClocks($("clocks"), view, seatName); }, 500);
  $("naming").onsubmit = saveName;
  $("rematch").onclick = async () => {
    try {
      const next = await api(`/api/games/${gameId}/rematch`, {token});
      location.href = `/?game=${next.id}&token=${next.token}`;
    } catch (e) { $("error").textContent = e.message; }
  };
  /** One hinted move: its words, what it gives up against the best, earns now and sets up. */
  const signed = x => (x > 0 ? "+" : x < 0 ? "\u2212" : "\u00b1") + Math.abs(x);
  const hintLine = h => {
    const m = view.legal.find(x => x.action === h.action);
    const words = m ? format(m.text) || h.move : h.move;
    const behind = h.behind === 0 ? t("best")
      : fill(t("{points} points behind the best"), {points: h.behind});
    const why = fill(t("{now} now, {later} in prospects"),
                     {now: signed(h.earns), later: signed(h.sets_up.toFixed(1) * 1)});
    return `<li><b>${escapeHtml(words)}</b> <span class="why">${escapeHtml(behind)} · ${
      escapeHtml(why)}</span></li>`;
  };
  $("hint").onclick = async () => {
    if (hinted.length) {  // a second press folds the hint away (it takes room on a phone)
      hinted = [];
      $("hint-text").textContent = "";
      $("hint").setAttribute("aria-expanded", "false");
      drawMoves();
      return;
    }
    $("hint").setAttribute("aria-expanded", "true");
    $("hint-text").textContent = t("thinking…");
    try {
      const best = await api(`/api/games/${gameId}/hint`, {token});
      hinted = best.map(h => h.action);
      $("hint-text").innerHTML = `<ol class="hints" aria-label="${escapeHtml(t("Hint"))}">${
        best.map(hintLine).join("")}</ol>`;
      drawMoves();
      bringTargetsIntoSight();
    } catch (e) { $("hint-text").textContent = e.message; }
  };
  $("review").onclick = () => { $("review").disabled = true; askReview(true); };
  $("first").onclick = () => replayTo(0);
  $("prev").onclick = () => replayTo((replayPly ?? view.log.length) - 1);
  $("next").onclick = () => replayTo((replayPly ?? view.log.length) + 1);
  $("last").onclick = () => replayTo(null);
  let wide = layout();
  window.addEventListener("resize", () => {
    if (layout() !== wide) { wide = layout(); drawBoard(); }
  });
  const proto = location.protocol === "https:" ? "wss" : "ws";
  connection = live(
    `${proto}://${location.host}/api/games/${gameId}/ws?token=${encodeURIComponent(token)}&lang=${lang}&details=1`,
    show, message => { $("error").textContent = message; }, showConnection);
  return connection;
}

export const redraw = () => { if (view) drawBoard(); };
export const onTable = () => Boolean(gameId && token);
