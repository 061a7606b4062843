// The server's lobby API and the play socket, for the lobby and table pages.
import { t } from "./i18n.js";
import { on } from "./morph.js";

// Who this browser is, for the server's quotas: people behind one router then
// each get their own share (a random id kept on this device, nothing more).
export function clientId() {
  const key = "bestiary.client";
  let id = localStorage.getItem(key);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(key, id);
  }
  return id;
}

function clientHeaders() {
  try {
    return { "X-Bestiary-Client": clientId() };
  } catch (e) {
    return {}; // no storage (a private window): the server counts the address
  }
}

export async function getJSON(url) {
  const r = await fetch(url, { headers: clientHeaders() });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(messageOf(body, r));
  return body;
}

export async function postJSON(url, data) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...clientHeaders() },
    body: JSON.stringify(data),
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(messageOf(body, r));
  return body;
}

function messageOf(body, r) {
  const d = body && body.detail;
  if (typeof d === "string") return t(d); // the server's own messages are in the catalog
  if (Array.isArray(d)) return d.map((e) => `${(e.loc || []).slice(1).join(".")}: ${e.msg}`).join("; ");
  return `${r.status} ${r.statusText}`;
}

// Seat tokens live in this browser only: one per table.
const KEY = (table) => `bestiary:seat:${table}`;
export function savedSeat(table) {
  try {
    return JSON.parse(localStorage.getItem(KEY(table)) || "null");
  } catch {
    return null;
  }
}
export function saveSeat(table, seat, token) {
  localStorage.setItem(KEY(table), JSON.stringify({ seat, token }));
}
export function forgetSeat(table) {
  localStorage.removeItem(KEY(table));
}

// A play socket that reconnects by itself (the server resends the whole log).
export class PlaySocket {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.delay = 500;
    this.closed = false;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.delay = 500;
      ws.send(JSON.stringify({ type: "hello", token: this.token || undefined }));
      this.onStatus("connected");
    };
    ws.onmessage = (e) => this.onMessage(JSON.parse(e.data), this);
    ws.onclose = (e) => {
      if (this.closed) return;
      if (e.code === 4403 || e.code === 4404) {
        this.onStatus("refused");
        return;
      }
      this.onStatus("reconnecting");
      // 4413: the server closed a socket that fell too far behind (a slow
      // link, a tab asleep); the hello of the next one brings the whole log
      // again, so reconnect at once rather than backing off.
      if (e.code === 4413) this.delay = 500;
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  act(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "act", action: text }));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}

// A game page's own stylesheet, next to its module, added to the document once:
// pageStyle("meat", import.meta.url) loads games/meat.css.
export function pageStyle(id, moduleUrl) {
  if (document.querySelector(`link[data-page='${id}']`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: new URL(`./${id}.css`, moduleUrl).href, "data-page": id }));
}

// Small DOM helper: h("div", {class: "x", onclick: f}, child, "text", ...)
// Handlers go through on() (morph.js): a board redrawn with morph() keeps
// its elements, and a kept element must run the new render's handler.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") on(el, k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A bot's name in the page's language: the levels and the games' bots have
// whole names in the catalog ("trudny bot"; bestiary/i18n/agents.py names them
// the same way in log lines); any other spec is put in "{agent} bot".
const N_ = (s) => s; // marks a message for the catalog; translated where shown
const BOT_NAMES = { random: N_("random bot"), easy: N_("easy bot"), normal: N_("normal bot"), hard: N_("hard bot"), heuristic: N_("heuristic bot") };
export function botName(agent) {
  return BOT_NAMES[agent] ? t(BOT_NAMES[agent]) : t("{agent} bot", { agent });
}

// A seat's name as the page shows it: a bot the server named after its level
// ("normal bot") in the page's language; a person's name as they wrote it.
export function seatName(s) {
  if (s.kind === "bot" && (!s.name || s.name === `${s.agent} bot`)) return botName(s.agent);
  return s.name || (s.taken ? t("player") : t("open seat"));
}

export function seatLabel(table, seat) {
  const s = table && table.seats && table.seats[seat];
  if (!s) return t("seat {n}", { n: seat });
  return t("{name} (seat {n})", { name: seatName(s), n: seat });
}
