// The lobby: a new game with its options and seats, and the public games to join or watch.
import {api} from "./connection.js";
import {escapeHtml, t} from "./i18n.js";

const $ = id => document.getElementById(id);
const form = () => $("new-game");

/** The bot levels the server offers, weakest first, with their labels. */
export const LEVELS = () => [
  ["random", t("random bot")], ["greedy", t("greedy bot")], ["heuristic", t("heuristic bot")],
  ["mcts-fast", t("MCTS bot, quick")], ["mcts", t("MCTS bot")], ["mcts-strong", t("MCTS bot, strong")],
];

export function levelName(level) {
  const found = LEVELS().find(([value]) => value === level);
  return found ? found[1] : level;
}

function seatRows() {
  const n = Number(form().players.value);
  const box = $("seats");
  const kept = [...box.querySelectorAll("select")].map(s => s.value);
  box.innerHTML = "";
  const choices = [["friend", t("a friend (invite link)")], ["open", t("anyone (open seat)")],
    ...LEVELS()];
  for (let i = 1; i < n; i++) {
    const value = kept[i - 1] || "heuristic";
    const options = choices.map(([v, label]) =>
      `<option value="${v}" ${v === value ? "selected" : ""}>${escapeHtml(label)}</option>`);
    box.insertAdjacentHTML("beforeend",
      `<p class="seat"><label>${escapeHtml(t("Seat"))} ${i + 1}
       <select name="seat${i}">${options.join("")}</select></label></p>`);
  }
  box.insertAdjacentHTML("afterbegin",
    `<p class="seat">${escapeHtml(t("Seat"))} 1: <b>${escapeHtml(t("you"))}</b></p>`);
}

function showOptions() {
  const game = form().game.value;
  form().querySelectorAll("[data-for]").forEach(e => { e.hidden = e.dataset.for !== game; });
}

async function create(event) {
  event.preventDefault();
  const f = form();
  const name = f.name.value.trim();
  localStorage.setItem("azul-name", name);
  const n = Number(f.players.value);
  const seats = [{kind: "human", name: name || null}];
  for (let i = 1; i < n; i++) {
    const v = f[`seat${i}`].value;
    seats.push(v === "friend" ? {kind: "human"} : v === "open" ? {kind: "open"}
      : {kind: "bot", bot: v});
  }
  const options = {players: n};
  if (f.game.value === "pavilion") options.board = f.board.value;
  else options.side = f.side.value;
  const isPublic = f.public.checked || seats.some(s => s.kind === "open");
  $("create-error").textContent = "";
  try {
    const game = await api("/api/games", {game: f.game.value, options, seats, public: isPublic});
    const invites = game.seats.slice(1).filter(s => s.token)
      .map(s => ({seat: s.seat, token: s.token}));
    localStorage.setItem(`azul-invites-${game.id}`,
      JSON.stringify({invites, watch: game.watch_token}));
    location.href = `/?game=${game.id}&token=${game.seats[0].token}`;
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
  const title = {pavilion: t("Summer Pavilion"), sintra: t("Stained Glass of Sintra")}[g.game] || g.game;
  const who = g.seats.map(s => s.kind === "bot" ? levelName(s.bot)
    : s.kind === "open" ? t("free seat") : s.name || t("a person")).join(", ");
  return `${title} · ${who}`;
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

export function startLobby() {
  $("lobby").hidden = false;
  const f = form();
  f.name.value = localStorage.getItem("azul-name") || "";
  f.players.onchange = seatRows;
  f.game.onchange = showOptions;
  f.onsubmit = create;
  seatRows();
  showOptions();
  listGames();
  setInterval(listGames, 10000);
}
