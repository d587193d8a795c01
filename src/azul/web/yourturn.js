// Telling a person it is their turn: the page's title and icon, and in a turn-based game a
// browser notification (only once they allowed it; no outside service is involved).
import {t} from "./i18n.js";

const ICON = "/static/icon.svg";
// the icon with a red dot in its corner, while it is your turn
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="13" height="13" rx="2" fill="#1f6fc5"/><rect x="17" y="2" width="13" height="13" rx="2" fill="#f5c518"/><rect x="2" y="17" width="13" height="13" rx="2" fill="#c0392b"/><rect x="17" y="17" width="13" height="13" rx="2" fill="#23804a"/><circle cx="24" cy="8" r="8" fill="#e53935" stroke="#fff" stroke-width="2"/></svg>`)}`;

let wasYourTurn = null;  // null until the first view: opening a game is not a new turn

const canNotify = () => "Notification" in window;

/** Show whether it is your turn; notify when it becomes so in a turn-based game. */
export function showTurn(yourTurn, turnBased, gameName) {
  document.title = (yourTurn ? `● ${t("Your turn")} – ` : "") + `${gameName} – ${t("Azul games")}`;
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = yourTurn ? TURN_ICON : ICON;
  if (yourTurn && wasYourTurn === false && turnBased && canNotify()
      && Notification.permission === "granted") {
    try {
      new Notification(t("Your turn"), {body: gameName, icon: ICON, tag: location.search});
    } catch { /* a browser that allows notifications only from a service worker */ }
  }
  wasYourTurn = yourTurn;
}

/** The button that asks for notifications: shown in a turn-based game until answered. */
export function offerNotifications(button, turnBased) {
  button.hidden = !turnBased || !canNotify() || Notification.permission !== "default";
  button.onclick = async () => {
    await Notification.requestPermission();
    button.hidden = Notification.permission !== "default";
  };
}
