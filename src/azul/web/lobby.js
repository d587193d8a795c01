// The lobby: a new game with its options and seats, and the public games to join or watch.
// Which games there are, their options and the bots' levels all come from the server
// (/api/setup): the client names no game.
import {controlText} from "./clocks.js";
import {api} from "./connection.js";
import {escapeHtml, fill, t} from "./i18n.js";

const $ = id => document.getElementById(id);
const form = () => $("new-game");

// the server's answer: {games: [{name, title, players, options, ratings, notice, notices}],
// levels, default_level, clocks: [{label, clock}]}; a game's ratings: {players: {level:
// {rating, low, high, games}}}
let setup = {games: [], levels: [], default_level: null, clocks: []};

export function setSetup(answer) {
  setup = answer;
}

/** A bot level's name for people. */
export function levelName(level) {
  const found = setup.levels.find(l => l.name === level);
  return found ? t(found.label) : level;
}

const chosenGame = () => setup.games.find(g => g.name === form().game.value);

/** The selects of a game's options, each with its option (data-option names it). */
const optionSelects = game =>
  [...form().querySelectorAll(`[data-game="${CSS.escape(game.name)}"] select`)]
    .map(select => [select, game.options.find(o => o.name === select.dataset.option)]);

/** The chosen options of the game, with the values' own types (numbers stay numbers). */
function chosenOptions(game) {
  const options = {};
  for (const [select, option] of optionSelects(game)) {
    options[option.name] = option.values[select.selectedIndex].value;
  }
  return options;
}

const players = game => Number(chosenOptions(game).players ?? game.players);

function optionLabel(game, option) {
  // an option of a game, as a label with its select; shown while the game is chosen
  const label = document.createElement("label");
  label.dataset.game = game.name;
  const values = option.values.map(v =>
    `<option value="${escapeHtml(String(v.value))}">${escapeHtml(t(v.label))}</option>`);
  label.innerHTML = `<span>${escapeHtml(t(option.label))}</span>
    <select name="${escapeHtml(`${game.name}.${option.name}`)}"
      data-option="${escapeHtml(option.name)}">${values.join("")}</select>`;
  label.querySelector("select").onchange = () => { seatRows(); showNotice(); };
  return label;
}

function buildGames() {
  // the game select, and after it each option of each game
  form().game.innerHTML = setup.games.map(g =>
    `<option value="${escapeHtml(g.name)}">${escapeHtml(t(g.title))}</option>`).join("");
  let place = $("game-label");
  for (const game of setup.games) {
    for (const option of game.options) {
      const label = optionLabel(game, option);
      place.after(label);
      place = label;
    }
  }
}

/** A level's measured rating in the game for n players, as people read it ("" if none). */
function ratingText(game, n, level) {
  const found = game && (game.ratings || {})[n]?.[level];
  return found ? ` · ${fill(t("rating {rating} ({low}–{high})"), found)}` : "";
}

function seatRows() {
  const game = chosenGame();
  const n = game ? players(game) : 0;
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map(s => s.value);
  box.innerHTML = "";
  const choices = [["friend", t("a friend (invite link)")], ["open", t("anyone (open seat)")],
    ...setup.levels.map(l => [l.name, t(l.label) + ratingText(game, n, l.name)])];
  for (let i = 1; i < n; i++) {
    const value = kept[i - 1] || setup.default_level;
    const options = choices.map(([v, label]) =>
      `<option value="${escapeHtml(v)}" ${v === value ? "selected" : ""}>${escapeHtml(label)}</option>`);
    box.insertAdjacentHTML("beforeend",
      `<p class="seat"><label>${escapeHtml(t("Seat"))} ${i + 1}
       <select name="seat${i}">${options.join("")}</select></label></p>`);
  }
  box.insertAdjacentHTML("afterbegin",
    `<p class="seat">${escapeHtml(t("Seat"))} 1: <b>${escapeHtml(t("you"))}</b></p>`);
}

function buildClocks() {
  // the time controls the server offers, and who plays a move whose time ran out
  const f = form();
  f.clock.innerHTML = setup.clocks.map((c, i) =>
    `<option value="${i}">${escapeHtml(t(c.label))}</option>`).join("");
  f.clock_bot.innerHTML = setup.levels.map(l => `<option value="${escapeHtml(l.name)}"
    ${l.name === "heuristic" ? "selected" : ""}>${escapeHtml(t(l.label))}</option>`).join("");
  f.clock.onchange = () => { $("clock-bot").hidden = chosenClock() === null; };
}

/** The chosen time control, as a new game's clock (null: untimed). */
function chosenClock() {
  const f = form();
  const choice = setup.clocks[Number(f.clock.value)];
  if (!choice || choice.clock.kind === "untimed") return null;
  return {...choice.clock, bot: f.clock_bot.value};
}

function showNotice() {
  // what the server says people should know before they play the game with the values chosen
  // (e.g. the printed values are provisional): a chosen value's notice replaces the game's
  const game = chosenGame();
  let notice = game?.notice || "";
  for (const [select, option] of game ? optionSelects(game) : []) {
    const by = (game.notices || {})[option.name] || {};
    const value = String(option.values[select.selectedIndex].value);
    if (Object.hasOwn(by, value)) notice = by[value];
  }
  $("game-notice").hidden = !notice;
  $("game-notice").textContent = notice ? t(notice) : "";
}

function showOptions() {
  const game = form().game.value;
  form().querySelectorAll("[data-game]").forEach(e => { e.hidden = e.dataset.game !== game; });
  showNotice();
  seatRows();
}

async function create(event) {
  event.preventDefault();
  const f = form();
  const name = f.name.value.trim();
  localStorage.setItem("azul-name", name);
  const game = chosenGame();
  if (!game) return;
  const n = players(game);
  const seats = [{kind: "human", name: name || null}];
  for (let i = 1; i < n; i++) {
    const v = f[`seat${i}`].value;
    seats.push(v === "friend" ? {kind: "human"} : v === "open" ? {kind: "open"}
      : {kind: "bot", bot: v});
  }
  const options = chosenOptions(game);
  const isPublic = f.public.checked || seats.some(s => s.kind === "open");
  $("create-error").textContent = "";
  try {
    const made = await api("/api/games",
      {game: game.name, options, seats, public: isPublic, clock: chosenClock()});
    const invites = made.seats.slice(1).filter(s => s.token)
      .map(s => ({seat: s.seat, token: s.token}));
    localStorage.setItem(`azul-invites-${made.id}`,
      JSON.stringify({invites, watch: made.watch_token}));
    location.href = `/?game=${made.id}&token=${made.seats[0].token}`;
  } catch (e) {
    $("create-error").textContent = e.message;
  }
}

async function join(gameId, seat) {
  const name = localStorage.getItem("azul-name") || form().name.value.trim() || null;
  try {
    const got = await api(`/api/games/${gameId}/join`, {seat, name});
    location.href = `/?game=${gameId}&token=${got.token}`;
  } catch (e) {
    $("create-error").textContent = e.message;
    listGames();
  }
}

function gameLabel(g) {
  const title = t(g.title || g.game);
  const who = g.seats.map(s => s.kind === "bot" ? levelName(s.bot)
    : s.kind === "open" ? t("free seat") : s.name || t("a person")).join(", ");
  return g.clock ? `${title} · ${controlText(g.clock)} · ${who}` : `${title} · ${who}`;
}

async function listGames() {
  let games = [];
  try { games = await api("/api/games"); } catch { return; }
  const box = $("open-games");
  const live = games.filter(g => !g.over);
  box.innerHTML = live.length ? "" : `<li>${escapeHtml(t("No open games right now."))}</li>`;
  for (const g of live) {
    const li = document.createElement("li");
    li.innerHTML = `<span>${escapeHtml(gameLabel(g))}</span>`;
    for (const seat of g.open) {
      const b = document.createElement("button");
      b.textContent = `${t("Join")} (${t("seat")} ${seat + 1})`;
      b.onclick = () => join(g.id, seat);
      li.appendChild(b);
    }
    const watch = document.createElement("a");
    watch.href = `/?game=${g.id}&token=${g.watch_token}`;
    watch.textContent = t("Watch");
    li.appendChild(watch);
    box.appendChild(li);
  }
}

export async function startLobby(answer) {
  $("lobby").hidden = false;
  const f = form();
  f.name.value = localStorage.getItem("azul-name") || "";
  f.game.onchange = showOptions;
  f.onsubmit = create;
  try {
    setSetup(await answer);
    buildGames();
    buildClocks();
    showOptions();
  } catch (e) {
    $("create-error").textContent = e.message;
  }
  listGames();
  setInterval(listGames, 10000);
}
