// The browser client's entry: the language, the settings in the header, then the lobby or a
// table (the address names a game and a seat's token).
import {api} from "./connection.js";
import {chooseLanguage, escapeHtml, markdown, setCatalog, t} from "./i18n.js";
import {setSetup, startLobby} from "./lobby.js";
import {onTable, redraw, startTable} from "./table.js";

const $ = id => document.getElementById(id);

async function start() {
  const setup = api("/api/setup");  // the games, their options, the bots' levels
  setup.catch(() => {});  // (a failure is shown by the lobby)
  const en = await api("/api/i18n/en");
  const lang = chooseLanguage(en.languages);
  const chosen = lang === "en" ? en : await api(`/api/i18n/${lang}`);
  setCatalog(lang, chosen.messages);
  document.documentElement.lang = lang;
  const select = $("lang");
  select.innerHTML = Object.entries(en.languages).map(([code, name]) =>
    `<option value="${code}" ${code === lang ? "selected" : ""}>${name}</option>`).join("");
  select.onchange = () => { localStorage.setItem("azul-lang", select.value); location.reload(); };
  document.querySelectorAll("[data-i18n]").forEach(e => { e.textContent = t(e.textContent.trim()); });
  document.querySelectorAll("[data-i18n-title]").forEach(e => {
    e.title = t(e.title);
    e.setAttribute("aria-label", e.title);
  });
  $("board").setAttribute("aria-label", t("board"));
  // the settings are in the header on a wide screen, behind their button on a phone
  $("settings").open = window.innerWidth >= 760;
  document.title = t("Azul games");
  $("patterns").checked = localStorage.getItem("azul-patterns") === "1";
  $("patterns").onchange = () => {
    localStorage.setItem("azul-patterns", $("patterns").checked ? "1" : "0");
    redraw();
  };
  const game = () => document.body.dataset.game || document.querySelector("[name=game]").value;
  $("rules").ontoggle = () => {
    const text = chosen.rules[game()];
    $("rules-text").innerHTML = text ? markdown(text)
      : `<p>${escapeHtml(t("There is no rules summary for this game."))}</p>`;
  };
  if (onTable()) {
    try { setSetup(await setup); } catch { /* the bots then go by their levels' keys */ }
    await startTable();
  } else {
    startLobby(setup).then(() => $("rules").ontoggle());  // the rules of the game first offered
    document.querySelector("[name=game]").addEventListener("change", () => $("rules").ontoggle());
  }
}

start();
