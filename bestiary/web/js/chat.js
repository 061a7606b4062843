// Table chat (issue 26): quick messages and short free text between the people
// and spectators at the table. The server sends {type: "chat", from, name,
// text | quick, at} to every socket and {type: "chat_history", messages}
// after hello; a quick message is a fixed key, worded here in the reader's
// language. Everything a person wrote is shown with text nodes (h()), never
// as HTML.
//
// Muting (the Table menu's "mute chat", kept in localStorage): the page shows
// no messages (and never sounds: chat makes no sound at all). The quick
// buttons stay, so a player who muted can still say "good game"; the text
// field goes, as answering what one cannot read makes no sense.
import { h } from "./api.js";
import { t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const MUTE_KEY = "bestiary.chat-muted";
const MAX_CHARS = 200; // the server's limit (chat.py)
const KEEP = 50; // as many as the server keeps

// The quick keys the server accepts (chat.QUICK), each worded for the reader.
const QUICK = {
  gg: () => t("Good game!"),
  your_turn: () => t("Your turn!"),
  thinking: () => t("Thinking…"),
  well_played: () => t("Well played!"),
  one_moment: () => t("One moment, please."),
};

const chat = {
  messages: [],
  unread: 0,
  open: true,
  send: () => false, // set by setupChat: sends a message on the table's socket
  mySeat: () => null,
};

export function chatMuted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

function phone() {
  return window.matchMedia("(max-width: 600px)").matches;
}

// What a message says, in this page's language (an unknown key as it came).
export function chatText(msg) {
  if (msg.quick !== undefined) return QUICK[msg.quick] ? QUICK[msg.quick]() : String(msg.quick);
  return String(msg.text || "");
}

function timeOf(at) {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function item(msg) {
  const mine = msg.from !== null && msg.from === chat.mySeat();
  const who = msg.from === null ? t("spectator") : String(msg.name || t("player"));
  return h(
    "li",
    { class: ["chat-line", mine ? "mine" : "", msg.quick !== undefined ? "quick" : ""].join(" ").trim(), "data-from": msg.from === null ? "spectator" : String(msg.from) },
    h("time", { datetime: msg.at, class: "muted" }, timeOf(msg.at)),
    " ",
    h("strong", { class: "chat-name" }, who + ":"),
    " ",
    h("span", { class: "chat-text" }, chatText(msg)),
  );
}

function render() {
  const muted = chatMuted();
  const panel = $("chat-panel");
  panel.dataset.muted = muted ? "yes" : "no";
  panel.dataset.open = chat.open ? "yes" : "no";
  $("chat-form").hidden = muted;
  $("chat-muted-note").hidden = !muted;
  const list = $("chat-list");
  list.hidden = muted;
  for (const b of [$("chat-toggle"), $("chat-open")]) b.setAttribute("aria-expanded", String(chat.open));
  const count = muted || chat.open ? "" : chat.unread ? String(chat.unread) : "";
  for (const el of document.querySelectorAll(".chat-unread")) {
    el.textContent = count;
    el.hidden = !count;
  }
  $("chat-open").title = count ? t("Chat (unread: {n})", { n: count }) : t("Chat");
}

function showAll() {
  const list = $("chat-list");
  list.replaceChildren(...(chatMuted() ? [] : chat.messages.map(item)));
  list.scrollTop = list.scrollHeight;
}

// A message or the history from the server (the page's onMessage passes them).
export function receiveChat(msg) {
  if (msg.type === "chat_history") {
    chat.messages = (msg.messages || []).slice(-KEEP);
    showAll();
    return render();
  }
  chat.messages.push(msg);
  if (chat.messages.length > KEEP) chat.messages.shift();
  if (chatMuted()) return render();
  const list = $("chat-list");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.append(item(msg)); // aria-live="polite": read out once, as it arrives
  while (list.children.length > KEEP) list.firstChild.remove();
  if (atEnd || msg.from === chat.mySeat()) list.scrollTop = list.scrollHeight;
  if (!chat.open && msg.from !== chat.mySeat()) chat.unread += 1;
  render();
}

// The server refused a chat message: why, in the panel, in the page's words.
export function chatRefused(msg) {
  const words = {
    rate: () => t("Too many messages: try again in {seconds} s.", { seconds: msg.retry_after }),
    length: () => tn("A message is at most {n} character.", "A message is at most {n} characters.", msg.limit || MAX_CHARS),
    empty: () => t("Write something first."),
  };
  const el = $("chat-status");
  el.textContent = words[msg.chat] ? words[msg.chat]() : t(msg.message);
  clearTimeout(chatRefused.timer);
  chatRefused.timer = setTimeout(() => (el.textContent = ""), 6000);
}

function say(content) {
  if (!chat.send({ type: "chat", ...content })) {
    $("chat-status").textContent = t("not connected — retrying");
    return false;
  }
  $("chat-status").textContent = "";
  return true;
}

function setOpen(open) {
  chat.open = open;
  if (open) chat.unread = 0;
  render();
  if (open && phone()) $("chat-input").focus({ preventScroll: true });
}

// send(message) -> whether it went out; mySeat() -> this page's seat or null.
export function setupChat({ send, mySeat }) {
  chat.send = send;
  chat.mySeat = mySeat;
  chat.open = !phone(); // beside the log on a desktop; behind the Chat button on a phone
  $("chat-quick").replaceChildren(
    ...Object.keys(QUICK).map((key) => h("button", { type: "button", class: "small secondary", "data-quick": key, onclick: () => say({ quick: key }) }, QUICK[key]())),
  );
  $("chat-input").maxLength = MAX_CHARS;
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return input.focus();
    if (say({ text })) input.value = "";
  });
  $("chat-toggle").addEventListener("click", () => setOpen(!chat.open));
  $("chat-open").addEventListener("click", () => setOpen(!chat.open));
  $("chat-close").addEventListener("click", () => setOpen(false));
  const box = $("chat-mute");
  box.checked = chatMuted();
  box.addEventListener("change", () => {
    localStorage.setItem(MUTE_KEY, box.checked ? "1" : "0");
    chat.unread = 0;
    showAll();
    render();
  });
  render();
}
