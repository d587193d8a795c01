// A timed game's clocks as the server keeps them: each seat's time left, and the running one
// counted down from the server's own time (every view of a timed game says it, as "now"),
// never from the browser's. The server alone decides when time is up.
import {escapeHtml, fill, t} from "./i18n.js";

let offset = 0;  // the server's time less the browser's, in seconds, as of the newest view

/** Remember the server's time a view was sent at. */
export function setServerTime(now) {
  if (typeof now === "number") offset = now - Date.now() / 1000;
}

const serverNow = () => Date.now() / 1000 + offset;
const pad = n => String(n).padStart(2, "0");

/** A length of time as a clock shows it: 0:42, 1:02:03; or, turn-based, 23 h 59 min, 2 d 3 h. */
export function duration(seconds, long = false) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (long && d) return h ? fill(t("{d} d {h} h"), {d, h}) : fill(t("{d} d"), {d});
  if (long && h) return fill(t("{h} h {m} min"), {h, m});
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(m)}:${pad(s % 60)}`;
  return `${m}:${pad(s % 60)}`;
}

/** A time control in words: "1:00 a move + 3:00 in reserve", "5:00 a game + 3 s a move". */
export function controlText(c) {
  if (c.kind === "move") {
    return c.reserve ? fill(t("{move} a move + {reserve} in reserve"),
      {move: duration(c.seconds), reserve: duration(c.reserve)})
      : fill(t("{move} a move"), {move: duration(c.seconds)});
  }
  if (c.kind === "game") {
    return c.increment ? fill(t("{game} a game + {increment} s a move"),
      {game: duration(60 * c.minutes), increment: c.increment})
      : fill(t("{game} a game"), {game: duration(60 * c.minutes)});
  }
  if (c.kind === "turn") return fill(t("turn-based: {hours} h a move"), {hours: c.hours});
  return t("untimed");
}

/** What a seat's clock reads now, and whether little of it is left. */
function reading(clock, seat) {
  const c = clock.control;
  if (clock.seat === seat && clock.deadline !== null) {
    const left = clock.deadline - serverNow();
    const whole = c.kind === "move" ? c.seconds + clock.left[seat] : 60 * c.minutes;
    return [duration(left, c.kind === "turn"), c.kind !== "turn" && left < Math.min(10, whole / 3)];
  }
  if (c.kind === "move") {  // a move's own time, and the reserve
    const reserve = clock.left[seat];
    return [reserve ? `${duration(c.seconds)} + ${duration(reserve)}` : duration(c.seconds), false];
  }
  if (c.kind === "game") return [duration(clock.left[seat]), false];
  return [duration(3600 * c.hours, true), false];
}

/** One person's clock: their name, and their time (running, low, or kept by a bot). */
function seatClock(view, seat, name) {
  const clock = view.clock, away = view.seats[seat].away;
  const [time, low] = away ? ["–", false] : reading(clock, seat);
  const running = clock.seat === seat && clock.deadline !== null && !view.over;
  const classes = ["clock", running ? "running" : "", low ? "low" : "", away ? "away" : ""];
  const note = away ? ` <small>${escapeHtml(t("a bot plays for now"))}</small>` : "";
  return `<span class="${classes.join(" ").trim()}" data-seat="${seat}"><span class="who">${
    escapeHtml(name)}</span> <time>${escapeHtml(time)}</time>${note}</span>`;
}

/** Draw the clocks of a view into ``box`` (hidden in an untimed game); called each second.
 * A bot's seat has no clock: only people's time is counted. */
export function drawClocks(box, view, seatName) {
  box.hidden = !(view && view.clock);
  if (box.hidden) return;
  const seats = view.seats.map((s, seat) => (s.kind === "bot" ? "" : seatClock(view, seat, seatName(seat))));
  box.innerHTML = `<span class="control">${escapeHtml(controlText(view.clock.control))}</span>${
    seats.join("")}`;
}

/** The log's words for a person's move a bot played ("" for a move of its own). */
export function playedBy(entry) {
  if (entry.by === "timeout") return t("played by the bot: time ran out");
  if (entry.by === "away") return t("played by the bot: player away");
  return "";
}
