// The browser client: it never applies rules itself; the server lists the legal moves.
const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const token = params.get("token");
let selected = null;
let shown = -1;  // the version of the view on screen: an older one arriving late is dropped

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || JSON.stringify(data.detail));
  return data;
}

function seatRows() {
  const n = Number(document.querySelector("[name=players]").value);
  const box = document.getElementById("seats");
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    box.insertAdjacentHTML("beforeend", `<div class="seat">Seat ${i}: <select name="seat${i}">
      <option value="human">person</option><option value="random">random bot</option>
      <option value="greedy">greedy bot</option>
      <option value="heuristic" ${i ? "selected" : ""}>heuristic bot</option>
      <option value="mcts:time=0.5,iterations=null">MCTS bot</option></select></div>`);
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
      `<li>Seat ${s.seat}: <a href="/?game=${game.id}&token=${s.token}">play</a></li>`);
    links.push(`<li><a href="/?game=${game.id}&token=${game.watch_token}">watch</a></li>`);
    document.getElementById("links").innerHTML = `<ul>${links.join("")}</ul>`;
  } catch (e) {
    document.getElementById("links").textContent = e.message;
  }
}

function show(view) {
  if (view.version < shown) return;
  shown = view.version;
  const you = view.you === null ? "spectator" : `seat ${view.you}`;
  const turn = view.over ? `game over, winner(s): ${view.winners.join(", ")}`
    : view.to_move === null ? "drawing" : `seat ${view.to_move} to ${view.decision}`;
  document.getElementById("status").textContent =
    `${view.game} - you: ${you} - ${turn} - scores: ${view.scores.join(" / ")}`;
  fetch(`/api/games/${gameId}/svg?token=${token}`).then(r => r.text()).then(svg => {
    document.getElementById("board").innerHTML = svg;
  });
  const moves = document.getElementById("moves");
  moves.innerHTML = "";
  // a live update keeps the player's selection while it is still legal
  if (!view.legal.some(m => m.action === selected)) selected = null;
  document.getElementById("confirm").disabled = selected === null;
  for (const m of view.legal) {
    const b = document.createElement("button");
    b.textContent = m.move;
    if (m.action === selected) b.classList.add("selected");
    b.onclick = () => {
      moves.querySelectorAll("button").forEach(x => x.classList.remove("selected"));
      b.classList.add("selected");
      selected = m.action;
      document.getElementById("confirm").disabled = false;
    };
    moves.appendChild(b);
  }
  document.getElementById("undo").disabled = !view.can_undo;
  document.getElementById("log").innerHTML =
    view.log.map(e => `<li>seat ${e.seat}: ${e.move}</li>`).join("");
}

async function play() {
  document.getElementById("table").hidden = false;
  document.getElementById("confirm").onclick = async () => {
    const action = selected;
    selected = null;
    try { show(await api(`/api/games/${gameId}/moves`, {token, action})); }
    catch (e) { document.getElementById("error").textContent = e.message; }
  };
  document.getElementById("undo").onclick = async () => {
    try { show(await api(`/api/games/${gameId}/undo`, {token})); }
    catch (e) { document.getElementById("error").textContent = e.message; }
  };
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws?token=${token}`);
  ws.onmessage = event => show(JSON.parse(event.data));
  ws.onclose = () => api(`/api/games/${gameId}?token=${token}`).then(show);
}

if (gameId && token) {
  play();
} else {
  document.getElementById("lobby").hidden = false;
  document.querySelector("[name=players]").onchange = seatRows;
  document.getElementById("new-game").onsubmit = createGame;
  seatRows();
}
