// Talking to the server: JSON requests whose errors read well, and a live connection that
// comes back by itself after a restart or a network drop (every reconnection resyncs fully).
import {lang, t} from "./i18n.js";

export class ServerError extends Error {
  constructor(message, status, view = null) {
    super(message);
    this.status = status;
    this.view = view;  // the game now, when a move was chosen on an older view
  }
}

/** A GET (no body) or POST (body) to the API; a ServerError with the server's message. */
export async function api(path, body) {
  const headers = {"Accept-Language": lang};
  const init = body === undefined ? {headers} : {
    method: "POST", headers: {...headers, "Content-Type": "application/json"},
    body: JSON.stringify(body)};
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ServerError(t("The server cannot be reached: check your connection."), 0);
  }
  let data = null;
  try { data = await res.json(); } catch { /* not JSON: said below */ }
  if (!res.ok) {
    throw new ServerError(data && data.error ? data.error
      : `${t("The server answered with an error")} (${res.status})`, res.status,
    data && data.view ? data.view : null);
  }
  return data;
}

/**
 * A WebSocket to a game that reconnects with a growing delay (1 s to 15 s). ``onView`` gets
 * every view, its log whole; ``onState`` the connection's state: "connected", "reconnecting"
 * (with the seconds to wait) or "refused" (with the close reason: the link is wrong, or too
 * many connections).
 */
export function live(url, onView, onError, onState) {
  let delay = 1000;
  let socket = null;
  let stopped = false;
  let log = [];  // a live view sends only the moves after its first log_from
  function open() {
    socket = new WebSocket(url);
    socket.onopen = () => { delay = 1000; onState("connected"); };
    socket.onmessage = event => {
      const data = JSON.parse(event.data);
      if (data.error) { onError(data.error); return; }
      log = data.log = log.slice(0, data.log_from).concat(data.log);
      onView(data);
    };
    socket.onclose = event => {
      if (stopped) return;
      if (event.code === 4403 || event.code === 4404) {
        onState("refused", event.reason);
        return;
      }
      onState("reconnecting", Math.round(delay / 1000));
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 15000);
    };
  }
  open();
  return {
    send: message => {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    close: () => { stopped = true; socket.close(); },
  };
}
