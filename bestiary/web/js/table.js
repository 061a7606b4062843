// The table page: the game first (whose turn, the prompt, the clock, a move
// waiting for confirmation, the result, the board), the log and the replay
// viewer beside it; the seats, links and settings in the "Table" menu. One
// socket per page; it reconnects.
import { forgetSeat, getJSON, h, PlaySocket, postJSON, savedSeat, saveSeat, seatLabel, seatName } from "./api.js";
import { chatRefused, receiveChat, setupChat } from "./chat.js";
import * as generic from "./generic.js";
import { lang, ready, t, tn } from "./i18n.js";
import { Coach, tutorialWanted } from "./tutorial.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

// A seat link (#seat=<n>.<token>) moves a seat to this device: keep it, then
// drop it from the address bar so it is not shared by accident.
(function adoptSeatLink() {
  const m = /^#seat=(\d+)\.([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return;
  saveSeat(tableId, Number(m[1]), m[2]);
  history.replaceState(null, "", location.pathname);
})();

const page = {
  table: null,
  renderer: generic,
  socket: null,
  mine: savedSeat(tableId), // {seat, token} or null
  state: null, // the latest update, as the renderer sees it
  log: [],
  freshLog: true, // the next update after (re)connecting carries the whole log
  replay: null, // {frames, step, seat} while the replay viewer is open
  wasMyTurn: false, // for the "your turn" tone: it sounds when the turn arrives
  hinting: false, // a hint is being asked for (its button stays disabled)
  pending: null, // {text, label}: a move chosen, waiting for Confirm (the confirm-moves setting)
  deadline: null, // performance.now() when this seat's clock runs out, while it owes a move
  notices: new Map(), // the clock's log lines ("a bot moved for Ana"), by their place in the log
  wasOver: false, // the result is scrolled into view once, when the game ends
  joinOffered: false, // the invitation's "Join as …" step is offered once per visit
  coach: null, // the first-game tutorial (?tutorial=1), js/tutorial.js
};

function showError(message) {
  const el = $("error");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => (el.hidden = true), 6000);
}

async function loadRenderer(game) {
  try {
    const { games } = await getJSON("/api/games");
    const info = games.find((g) => g.id === game);
    if (info && info.has_page) return await import(`/static/games/${game}.js`);
  } catch (e) {
    console.warn("falling back to the generic table:", e);
  }
  return generic;
}

// A message other than a move on the table's socket (chat): whether it went out.
function sendRaw(msg) {
  const ws = page.socket && page.socket.ws;
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(msg));
  return true;
}

function send(text) {
  if (!page.socket || !page.socket.act(text)) return showError(t("not connected — retrying"));
  if (page.coach) page.coach.moved(); // the tutorial's next step waits for a move
}

// -- undo ------------------------------------------------------------------------
// A person alone with bots may take back their own last move while it showed
// them nothing and no one has answered it (the bots wait a beat): the server
// says when (can_undo in this seat's update) and, after an undo, sends
// "reset" and the whole state again, with the log line "You took back your move."
function canUndo() {
  return Boolean(page.state && page.state.canUndo && !page.state.over && !page.replay);
}

function takeBack() {
  if (!canUndo()) return;
  cancelPending();
  if (!sendRaw({ type: "undo" })) showError(t("not connected — retrying"));
}

function renderUndo() {
  const button = $("undo");
  const shown = canUndo();
  if (!shown && document.activeElement === button) $("turn-line").focus({ preventScroll: true });
  button.hidden = !shown;
}

// Beside the hint in the turn bar; Ctrl+Z (⌘Z) too, outside text fields.
function setupUndo() {
  const title = t("take back your last move: it showed you nothing new and no one has answered it yet (Ctrl+Z)");
  $("hint").after(" ", h("button", { type: "button", class: "small", id: "undo", title, "aria-keyshortcuts": "Control+Z Meta+Z", hidden: true, onclick: takeBack }, t("undo")));
  $("turn-line").tabIndex = -1; // where focus goes when the button it was on goes away
  document.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.shiftKey || ev.altKey || (ev.key || "").toLowerCase() !== "z") return;
    if (ev.target.closest && ev.target.closest("input, textarea, select, [contenteditable]")) return;
    if (!canUndo()) return;
    ev.preventDefault();
    takeBack();
  });
}

// -- confirm moves ---------------------------------------------------------------
// With the setting on (the default on touch screens, where a slip of the
// finger is easy), a move is first chosen and marked, then sent by Confirm;
// Escape or Cancel drops it. Every game's page submits through api.act, so
// every game gets it.
const CONFIRM_KEY = "bestiary.confirm";
function confirmMoves() {
  const saved = localStorage.getItem(CONFIRM_KEY);
  if (saved === "1" || saved === "0") return saved === "1";
  return window.matchMedia("(pointer: coarse)").matches;
}

// The move in the words of its button ("claim as Avian"), where the button
// is words; a card (a picture) is named by the action itself ("discard Harpy").
function actionLabel(text) {
  const el = document.querySelector(`#board [data-action="${CSS.escape(text)}"]`);
  const label = generic.actionLabel(page.state, text); // the server's label, in the page's language
  if (!el || el.querySelector("svg")) return label;
  const words = (el.textContent || "").trim().replace(/\s+/g, " ");
  return words && words.length <= 80 ? words : label;
}

function choose(text) {
  if (!confirmMoves()) return send(text);
  page.pending = { text, label: actionLabel(text) };
  renderPending();
  $("confirm-move").focus({ preventScroll: true });
}

function renderPending() {
  const p = page.pending;
  $("confirm-bar").hidden = !p;
  document.body.dataset.pending = p ? "yes" : "no";
  for (const el of document.querySelectorAll("#board .pending-move")) el.classList.remove("pending-move");
  if (!p) return;
  $("confirm-text").textContent = t("Your move: {move}. Send it?", { move: p.label });
  for (const el of document.querySelectorAll(`#board [data-action="${CSS.escape(p.text)}"]`)) el.classList.add("pending-move");
}

function confirmPending() {
  const p = page.pending;
  page.pending = null;
  renderPending();
  if (p) send(p.text);
}

function cancelPending() {
  if (!page.pending) return false;
  page.pending = null;
  renderPending();
  return true;
}

function setupConfirm() {
  const box = $("confirm-setting");
  box.checked = confirmMoves();
  box.addEventListener("change", () => {
    localStorage.setItem(CONFIRM_KEY, box.checked ? "1" : "0");
    if (!box.checked) cancelPending();
  });
  $("confirm-move").addEventListener("click", confirmPending);
  $("cancel-move").addEventListener("click", cancelPending);
}

const api = {
  act: choose,
  get seat() {
    return page.mine ? page.mine.seat : null;
  },
  seatLabel: (seat) => seatLabel(page.table, seat),
  h,
};

function renderSeats() {
  const tb = page.table;
  // Rebuild the list only when what it shows changed: every socket update
  // redraws, and a "take this seat" button swapped for an identical one
  // between a press and its release loses the click.
  const shown = JSON.stringify([tb.seats, tb.status, tb.result && tb.result.winners, page.mine && page.mine.seat, lang()]);
  if (shown !== page.seatsShown) {
    page.seatsShown = shown;
    $("seat-list").replaceChildren(...seatItems(tb));
  }
  renderSeatTools(tb);
}

// One list item per seat: who sits there, yours, the winner, a free seat's button.
function seatItems(tb) {
  return tb.seats.map((s) => {
    const mine = page.mine && page.mine.seat === s.seat;
    const winner = tb.result && tb.result.winners.includes(s.seat);
    const li = h(
      "li",
      { class: [mine ? "mine" : "", winner ? "winner" : ""].join(" ").trim(), "data-seat": s.seat },
      h("span", { class: "seat-no" }, `${s.seat}`),
      " ",
      s.kind === "bot" ? h("span", { class: "bot" }, seatName(s)) : seatName(s),
      mine ? h("strong", {}, " " + t("(you)")) : "",
      winner ? h("strong", {}, " ★ " + t("winner")) : "",
    );
    if (s.kind === "human" && !s.taken && !page.mine && tb.status === "waiting") {
      li.append(" ", h("button", { type: "button", class: "small take-seat", onclick: () => take(s.seat) }, t("take this seat")));
    }
    return li;
  });
}

// The parts around the list that follow the table's status and your turn.
function renderSeatTools(tb) {
  placeSeats(tb);
  offerJoin(tb);
  $("invite").value = `${location.origin}/table/${tb.id}`;
  $("seat-tools").hidden = !(page.mine && tb.status === "playing");
  // Hints are for tables against bots only (the server refuses them elsewhere).
  const people = tb.seats.filter((s) => s.kind === "human").length;
  $("hint").hidden = !(page.mine && tb.status === "playing" && people === 1);
  if (page.state && !page.state.yourTurn) $("hint-box").hidden = true;
  // A hint answers for your own decision: between your turns it could only say so.
  if (!page.hinting) $("hint").disabled = !myDecision();
  $("title").textContent = `${tb.title} · ${t(tb.variant)} · ${statusText(tb)}`; // a variant's name is in the catalog
  // The tab says so when it is your turn: a player in another tab sees it.
  const mineToPlay = page.state && page.state.yourTurn && !page.state.over && !page.replay;
  document.title = mineToPlay ? t("▶ Your turn — Bestiary — {title}", { title: tb.title }) : t("Bestiary — {title}", { title: tb.title });
  renderFairness(tb);
}

// While the table waits for players, the seats and the invitation link are
// the page's business (on the page); once it plays, they go in the menu.
function placeSeats(tb) {
  const block = $("seats-block");
  const waiting = tb.status === "waiting";
  const home = waiting ? $("waiting-panel") : $("seats-panel");
  if (block.parentNode !== home) home.prepend(block);
  $("waiting-panel").hidden = !waiting;
}

// -- the Table menu (seats, links, settings, the fair deal) -------------------------
function openMenu() {
  const menu = $("table-menu");
  menu.hidden = false;
  $("menu-open").setAttribute("aria-expanded", "true");
  menu.focus();
}

function closeMenu() {
  const menu = $("table-menu");
  if (menu.hidden) return false;
  menu.hidden = true;
  $("menu-open").setAttribute("aria-expanded", "false");
  if (menu.contains(document.activeElement) || document.activeElement === document.body) $("menu-open").focus();
  return true;
}

function setupMenu() {
  $("menu-open").addEventListener("click", () => ($("table-menu").hidden ? openMenu() : closeMenu()));
  $("menu-close").addEventListener("click", closeMenu);
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    // One thing at a time: the menu first, then a move waiting for Confirm,
    // then the invitation's offer (to watch instead).
    if (closeMenu() || cancelPending()) ev.preventDefault();
    else if ($("join-dialog").open) $("join-dialog").close();
  });
}

// -- the invitation: "Join as seat N" -------------------------------------------------
// A friend who opens the invitation link (no seat here, the table waiting for
// a person) is offered the first open seat at once, with a name field.
function openSeat(tb) {
  return tb.seats.find((s) => s.kind === "human" && !s.taken);
}

function offerJoin(tb) {
  const dialog = $("join-dialog");
  const seat = openSeat(tb);
  const wanted = !page.mine && tb.status === "waiting" && seat;
  if (!wanted) {
    if (dialog.open) dialog.close();
    return;
  }
  if (page.joinOffered) {
    if (dialog.open) dialog.dataset.seat = String(seat.seat); // someone took the first one meanwhile
    fillJoin(tb, seat);
    return;
  }
  page.joinOffered = true;
  fillJoin(tb, seat);
  $("join-name").value = localStorage.getItem("bestiary:name") || "";
  dialog.show(); // not modal: the seat list and the page stay usable
  $("join-name").focus();
}

function fillJoin(tb, seat) {
  const dialog = $("join-dialog");
  dialog.dataset.seat = String(seat.seat);
  const people = tb.seats.filter((s) => s.kind === "human" && s.taken).map((s) => seatName(s));
  $("join-title").textContent = t("{game}: a seat is waiting for you", { game: tb.title });
  $("join-note").textContent = people.length ? t("At this table: {names}.", { names: people.join(", ") }) : "";
  $("join-seat").textContent = t("Join as seat {n}", { n: seat.seat });
}

function setupJoin() {
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) return $("join-name").focus();
    localStorage.setItem("bestiary:name", name);
    $("join-dialog").close();
    take(Number($("join-dialog").dataset.seat), name);
  });
  $("join-watch").addEventListener("click", () => $("join-dialog").close());
}

// The deal's fairness: the seed's SHA-256 is published from the start, the seed
// itself once the game is over, so anyone can check sha256(seed) and replay it.
function renderFairness(tb) {
  const el = $("fairness");
  if (!el || !tb.seed_sha256) return;
  const parts = [t("deal commitment sha256: {hash}", { hash: tb.seed_sha256 })];
  if (tb.seed) parts.push(t("seed: {seed}", { seed: tb.seed }));
  if (tb.seed_chosen) parts.push(t("(a solo table: the player chose the seed)"));
  el.textContent = parts.join(" · ");
}

// Whose turn, at the top of the page: yours, or the seats the view says owe a
// move (a view that does not name them gets "waiting for the others").
function turnText() {
  const s = page.state;
  const tb = page.table;
  if (page.replay) return t("Replay.");
  if (!s || !tb) return "";
  if (tb.status === "waiting") return t("Waiting for players to take their seats…");
  if (s.over) return t("Game over.");
  if (s.yourTurn) return t("Your move.");
  const owed = s.view && Array.isArray(s.view.to_act) ? s.view.to_act : null;
  if (owed && owed.length) {
    const names = owed.map((seat) => seatLabel(tb, seat)).join(", ");
    return s.seat === null ? t("To move: {names}.", { names }) : t("Waiting for {names}.", { names });
  }
  return s.seat === null ? t("You are watching.") : t("Waiting for the other players…");
}

function renderTurn() {
  const el = $("turn-line");
  el.textContent = turnText();
  el.parentNode.classList.toggle("mine", myDecision());
  renderClock();
  renderUndo();
}

// This seat's clock (a table with a turn timer): the server sends the seconds
// left of the current decision with each update; the page counts down.
function renderClock() {
  const el = $("clock");
  const running = page.deadline !== null && myDecision();
  el.hidden = !running;
  if (!running) return;
  const left = Math.max(0, Math.ceil((page.deadline - performance.now()) / 1000));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  el.textContent = t("{time} left", { time: text });
  el.dataset.left = String(left);
  el.classList.toggle("urgent", left <= 10);
  el.title = t("When the clock runs out, a bot makes this move for you (the seat stays yours).");
}

function statusText(tb) {
  if (tb.status === "waiting") return t("waiting for players");
  if (tb.status === "finished") return t("finished");
  if (tb.status === "expired") return t("expired (nobody joined in time)");
  return t("move {n}", { n: tb.moves });
}

async function copySeatLink() {
  const link = `${location.origin}/table/${tableId}#seat=${page.mine.seat}.${page.mine.token}`;
  if (navigator.clipboard) await navigator.clipboard.writeText(link);
  showError(t("seat link copied: open it on the other device (anyone with it can play your seat)"));
}

// The strongest bot's move for your seat, searched from your view only (about
// a second, in a worker on the server).
function myDecision() {
  return Boolean(page.state && page.state.yourTurn && !page.state.over && !page.replay);
}

async function askHint() {
  if (!page.mine) return;
  const box = $("hint-box");
  const button = $("hint");
  box.hidden = false;
  box.textContent = t("Thinking for a second…");
  button.disabled = true;
  page.hinting = true;
  try {
    const r = await postJSON(`/api/tables/${tableId}/hint`, { token: page.mine.token });
    const others = (r.alternatives || []).filter((a) => a.action !== r.action);
    // Moves by their labels in the page's language ("odrzuć Pixie"), as the buttons say them.
    const said = (a) => generic.actionLabel(page.state, a);
    const lines = [t("Hint: {move}", { move: said(r.action) })];
    if (others.length) {
      const weighed = others.map((a) => t("{move} ({n} searches, won {rate})", { move: said(a.action), n: a.visits, rate: `${Math.round(a.win_rate * 100)}%` }));
      lines.push(t("Also weighed: {moves}", { moves: weighed.join("; ") }));
    }
    // One legal move, or a secret pick left to the game's bot: no search ran.
    if (r.iterations === 0) lines.push(t("(the game's own bot chose it: searching would not do better here)"));
    else {
      if (r.tied) lines.push(t("(the search could not tell these moves apart: the game's own bot chose)"));
      lines.push(t("({n} searches in {seconds} s, from your view only: the bot samples the cards you cannot see)", { n: r.iterations, seconds: r.seconds.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }));
    }
    box.replaceChildren(...lines.map((l) => h("span", { class: "hint-line" }, l)));
  } catch (e) {
    box.textContent = t("No hint now: {reason}", { reason: e.message });
  } finally {
    page.hinting = false;
    button.disabled = !myDecision();
  }
}

// "Your turn" for a player in another tab or window: a short tone (and a
// notification while the page is hidden), when the player asked for it.
const NOTIFY_KEY = "bestiary.notify";
function notifyTurn() {
  if (localStorage.getItem(NOTIFY_KEY) !== "1") return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx) {
      const ctx = new Ctx();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.35);
    }
  } catch (e) {
    console.warn(e);
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("Your turn"), { body: page.table ? page.table.title : "" });
  }
}

function setupNotify() {
  const box = $("notify");
  box.checked = localStorage.getItem(NOTIFY_KEY) === "1";
  box.addEventListener("change", () => {
    localStorage.setItem(NOTIFY_KEY, box.checked ? "1" : "0");
    if (box.checked && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
  });
}

async function resign() {
  if (!page.mine || !confirm(t("Leave this game for good? A bot will play your seat."))) return;
  try {
    await postJSON(`/api/tables/${tableId}/resign`, { token: page.mine.token });
    forgetSeat(tableId);
    page.mine = null;
    connect();
  } catch (e) {
    showError(e.message);
  }
}

async function rematch() {
  try {
    // A player's own seat is held for them at the rematch: their token here claims it.
    const claim = page.mine ? { token: page.mine.token, name: localStorage.getItem("bestiary:name") || null } : {};
    const t = await postJSON(`/api/tables/${tableId}/rematch`, claim);
    if (t.token) saveSeat(t.id, t.seat, t.token);
    location.href = `/table/${t.id}`;
  } catch (e) {
    showError(e.message);
  }
}

async function take(seat, chosen) {
  try {
    const name = chosen || localStorage.getItem("bestiary:name") || prompt(t("Your name?"), t("player")) || t("player");
    const joined = await postJSON(`/api/tables/${tableId}/join`, { seat, name });
    saveSeat(tableId, joined.seat, joined.token);
    page.mine = { seat: joined.seat, token: joined.token };
    connect();
  } catch (e) {
    showError(e.message);
  }
}

// The rulebook's words in the page's language where the rulebook has both.
function quoteOf(rule) {
  return (rule.quotes && rule.quotes[lang()]) || rule.quote;
}

// "The rulebook says: …", saying so where its words are in another language
// than the page's (a rulebook printed in one language only).
function quoteLine(rule) {
  const quote = quoteOf(rule);
  const page = lang();
  const given = (rule.quote_languages && rule.quote_languages[page]) || rule.quote_language || page;
  if (given === page) return t("The rulebook says: “{quote}”", { quote });
  if (given === "en") return t("The rulebook says (in English): “{quote}”", { quote });
  if (given === "pl") return t("The rulebook says (in Polish): “{quote}”", { quote });
  return t("The rulebook says: “{quote}”", { quote });
}

// The rule's title in the page's language (older servers sent English only).
function titleOf(rule) {
  return (rule.titles && rule.titles[lang()]) || rule.title;
}

// A log entry's line in the page's language (older servers sent English only).
function lineOf(e) {
  return (e.texts && e.texts[lang()]) || e.text;
}

// The rule behind a line: its title and the rulebook's words, on hover (title)
// and on a tap (the line opens to show them, and a link into the rules drawer
// when the page has one).
function ruleTip(rule) {
  if (!rule || !(rule.title || rule.quote)) return undefined;
  const parts = [];
  if (rule.title) parts.push(t("Rule: {title}", { title: titleOf(rule) }));
  if (rule.quote) parts.push(quoteLine(rule));
  return parts.join("\n");
}

function ruleBox(rule) {
  const box = h("div", { class: "log-rule" });
  if (rule.title) box.append(h("strong", {}, t("Rule: {title}", { title: titleOf(rule) })));
  if (rule.quote) box.append(h("p", { class: "log-quote" }, quoteLine(rule)));
  const drawer = document.querySelector("[data-rules-drawer]");
  if (drawer && rule.anchor) {
    box.append(
      h(
        "a",
        {
          href: `#rule-${rule.anchor}`,
          onclick: (ev) => {
            ev.preventDefault();
            document.dispatchEvent(new CustomEvent("bestiary:open-rules", { detail: { anchor: rule.anchor } }));
          },
        },
        t("read this rule"),
      ),
    );
  }
  return box;
}

function toggleRule(li, e) {
  const open = li.querySelector(".log-rule");
  if (open) {
    open.remove();
    page.openRule = null;
  } else if (e.rule) {
    li.append(ruleBox(e.rule));
    page.openRule = e.event.i;
  }
}

// The clock's lines go before the event they preceded (``at``: its number).
function withNotices(entries) {
  if (!page.notices.size) return entries;
  const out = [];
  const waiting = [...page.notices.values()].sort((a, b) => a.at - b.at);
  for (const e of entries) {
    while (waiting.length && waiting[0].at <= e.event.i) out.push(noticeEntry(waiting.shift()));
    out.push(e);
  }
  return out.concat(waiting.map(noticeEntry));
}

function noticeEntry(n) {
  return { event: { kind: n.kind, i: null }, text: n.text, texts: n.texts, notice: true };
}

function renderLog(entries) {
  const items = entries.map((e) => {
    if (e.notice) return h("li", { class: "notice", "data-kind": e.event.kind }, h("span", { class: "log-text" }, lineOf(e)));
    const tip = ruleTip(e.rule);
    const li = h("li", { "data-kind": e.event.kind, "data-i": e.event.i, title: tip, tabindex: tip ? 0 : undefined, class: tip ? "has-rule" : undefined }, h("span", { class: "log-text" }, lineOf(e)));
    if (tip) {
      li.addEventListener("click", (ev) => {
        if (ev.target.closest("a")) return;
        toggleRule(li, e);
      });
      li.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          toggleRule(li, e);
        }
      });
      if (page.openRule === e.event.i) li.append(ruleBox(e.rule));
    }
    return li;
  });
  const log = $("log");
  // The list's own numbers sit in its left padding: make room for every digit
  // ("100." lost its first digit in a fixed padding).
  log.style.paddingLeft = `${String(Math.max(entries.length, 9)).length + 2}ch`;
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren(...items);
  if (atEnd || page.openRule == null) log.scrollTop = log.scrollHeight;
}

function renderResult() {
  const tb = page.table;
  const res = page.state && page.state.result ? page.state.result : tb.result;
  $("result-panel").hidden = !res;
  if (!res) return;
  const rows = res.scores.map((score, seat) =>
    h("tr", { class: res.winners.includes(seat) ? "winner" : "" }, h("td", {}, seatLabel(tb, seat)), h("td", {}, String(score)), h("td", {}, res.winners.includes(seat) ? "★" : "")),
  );
  $("result").replaceChildren(
    h("table", { class: "scores" }, h("thead", {}, h("tr", {}, h("th", {}, t("seat")), h("th", {}, t("score")), h("th", {}, ""))), h("tbody", {}, ...rows)),
  );
}

function renderBoard() {
  if (page.replay) return renderReplayFrame();
  if (!page.state) return;
  try {
    page.renderer.render($("board"), page.state, api);
  } catch (e) {
    console.error(e);
    generic.render($("board"), page.state, api);
  }
}

function onMessage(msg) {
  if (msg.type === "chat" || msg.type === "chat_history") return receiveChat(msg); // js/chat.js
  if (msg.type === "error" && msg.chat) return chatRefused(msg); // said in the chat panel
  // The server's own words are in the catalog; a refused undo comes in every language.
  if (msg.type === "error") return showError((msg.texts && msg.texts[lang()]) || t(msg.message));
  if (msg.type === "reset") {
    // Moves this page saw were taken back: the whole state follows.
    page.freshLog = true;
    page.pending = null;
    return;
  }
  if (msg.type !== "update") return;
  if (page.freshLog) {
    page.log = [];
    page.notices = new Map();
    page.freshLog = false;
  }
  page.log.push(...msg.events);
  for (const n of msg.notices || []) page.notices.set(`${n.kind}:${n.at}:${n.seat}`, n);
  page.deadline = msg.clock ? performance.now() + msg.clock.seconds_left * 1000 : null;
  page.table = msg.table;
  page.state = {
    game: msg.table.game,
    seat: msg.seat,
    view: msg.view,
    legal: msg.legal,
    labels: generic.actionLabels(msg.legal, msg.labels), // what each legal action's button says
    yourTurn: msg.your_turn,
    over: msg.over,
    result: msg.result,
    table: msg.table,
    log: page.log,
    moves: msg.moves,
    canUndo: Boolean(msg.can_undo), // this seat may take its last move back now
  };
  if (page.coach) page.coach.update(page.state); // every update: a burst is drawn once
  // Bots may send many updates in a burst: draw only the latest, once a frame.
  if (!page.drawPending) {
    page.drawPending = true;
    requestAnimationFrame(draw);
  }
}

function draw() {
  page.drawPending = false;
  const s = page.state;
  const myTurn = Boolean(s.yourTurn && !s.over);
  if (myTurn && !page.wasMyTurn) notifyTurn();
  page.wasMyTurn = myTurn;
  // A chosen move the table no longer allows (a bot moved for you) is dropped.
  if (page.pending && !(s.legal || []).includes(page.pending.text)) page.pending = null;
  renderSeats();
  renderTurn();
  renderResult();
  if (!page.replay) renderLog(withNotices(page.log));
  renderBoard();
  renderPending();
  if (page.coach) page.coach.render();
  document.body.dataset.over = s.over ? "yes" : "no";
  document.body.dataset.yourTurn = s.yourTurn ? "yes" : "no";
  document.body.dataset.status = page.table.status;
  // The game just ended: its result (at the top) comes into view once.
  if (s.over && !page.wasOver && !page.replay) window.scrollTo({ top: 0 });
  page.wasOver = Boolean(s.over);
}

function connect() {
  if (page.socket) page.socket.close();
  page.freshLog = true;
  page.socket = new PlaySocket(tableId, page.mine && page.mine.token, {
    onMessage,
    onStatus(s) {
      $("conn").dataset.state = s;
      const words = { connecting: t("connecting…"), reconnecting: t("reconnecting…"), refused: t("refused") };
      $("conn").textContent = s === "connected" ? (page.mine ? t("seat {n}", { n: page.mine.seat }) : t("watching")) : words[s] || s;
      if (s === "connecting" || s === "reconnecting") page.freshLog = true;
      if (s === "refused" && page.mine) {
        forgetSeat(tableId);
        page.mine = null;
        showError(t("this browser's seat token is not valid here any more; watching instead"));
        connect();
      }
    },
  });
}

// -- replay viewer ---------------------------------------------------------------
async function openReplay() {
  const seatSel = $("rp-seat");
  const seat = seatSel.value === "" ? null : Number(seatSel.value);
  const data = await getJSON(`/api/tables/${tableId}/replay${seat === null ? "" : `?seat=${seat}`}`);
  const step = page.replay ? Math.min(page.replay.step, data.frames.length - 1) : data.frames.length - 1;
  page.replay = { frames: data.frames, step, seat };
  const opening = $("replay-panel").hidden;
  $("replay-panel").hidden = false;
  $("rp-step").max = String(data.frames.length - 1);
  renderReplayFrame();
  renderTurn();
  // On a narrow screen its controls sit under the board: bring them up once.
  if (opening && matchMedia("(max-width: 900px)").matches) $("replay-panel").scrollIntoView({ block: "nearest" });
}

function renderReplayFrame() {
  const r = page.replay;
  const frame = r.frames[r.step];
  $("rp-step").value = String(r.step);
  $("rp-label").textContent = frame.move
    ? t("move {n} of {total}: {seat} — {action}", { n: r.step, total: r.frames.length - 1, seat: seatLabel(page.table, frame.move.seat), action: frame.move.action })
    : tn("the deal ({n} move follows)", "the deal ({n} moves follow)", r.frames.length - 1);
  const log = r.frames.slice(0, r.step + 1).flatMap((f) => f.events);
  renderLog(log);
  const state = { game: page.table.game, seat: r.seat, view: frame.view, legal: [], yourTurn: false, over: r.step === r.frames.length - 1, result: null, table: page.table, log, replay: true };
  try {
    page.renderer.render($("board"), state, api);
  } catch (e) {
    console.error(e);
    generic.render($("board"), state, api);
  }
}

function stepReplay(to) {
  if (!page.replay) return;
  page.replay.step = Math.max(0, Math.min(page.replay.frames.length - 1, to));
  renderReplayFrame();
}

function closeReplay() {
  page.replay = null;
  $("replay-panel").hidden = true;
  renderTurn();
  renderLog(withNotices(page.log));
  renderBoard();
}

async function main() {
  await ready();
  try {
    page.table = await getJSON(`/api/tables/${tableId}`);
  } catch (e) {
    $("board").replaceChildren(h("p", { class: "error" }, e.message), h("a", { href: "/" }, t("back to the lobby")));
    return;
  }
  page.renderer = await loadRenderer(page.table.game);
  if (tutorialWanted()) page.coach = await Coach.open(page.table.game, tableId);
  renderSeats();
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("invite").value));
  $("copy-seat").addEventListener("click", copySeatLink);
  $("resign").addEventListener("click", resign);
  $("hint").addEventListener("click", askHint);
  setupUndo();
  setupNotify();
  setupConfirm();
  setupMenu();
  setupJoin();
  setupChat({ send: sendRaw, mySeat: () => (page.mine ? page.mine.seat : null) });
  setInterval(renderClock, 250);
  $("rematch").addEventListener("click", rematch);
  $("open-replay").addEventListener("click", openReplay);
  $("rp-close").addEventListener("click", closeReplay);
  $("rp-first").addEventListener("click", () => stepReplay(0));
  $("rp-prev").addEventListener("click", () => stepReplay(page.replay.step - 1));
  $("rp-next").addEventListener("click", () => stepReplay(page.replay.step + 1));
  $("rp-last").addEventListener("click", () => stepReplay(Infinity));
  $("rp-step").addEventListener("input", (e) => stepReplay(Number(e.target.value)));
  $("rp-seat").replaceChildren(h("option", { value: "" }, t("a spectator")), ...page.table.seats.map((s) => h("option", { value: s.seat }, seatLabel(page.table, s.seat))));
  if (page.mine) $("rp-seat").value = String(page.mine.seat); // replays show your own hand
  $("rp-seat").addEventListener("change", openReplay);
  connect();
  if (location.hash === "#replay" && page.table.status === "finished") openReplay();
}

main();
