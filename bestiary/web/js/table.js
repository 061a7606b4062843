// The table page: seats, the game's renderer (or the generic one), the log,
// the result and the replay viewer. One socket per page; it reconnects.
import { forgetSeat, getJSON, h, PlaySocket, postJSON, savedSeat, saveSeat, seatLabel, seatName } from "./api.js";
import * as generic from "./generic.js";
import { lang, ready, t, tn } from "./i18n.js";

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

const api = {
  act(text) {
    if (!page.socket || !page.socket.act(text)) showError(t("not connected — retrying"));
  },
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
  $("invite").value = `${location.origin}/table/${tb.id}`;
  $("seat-tools").hidden = !(page.mine && tb.status === "playing");
  // Hints are for tables against bots only (the server refuses them elsewhere).
  const people = tb.seats.filter((s) => s.kind === "human").length;
  $("hint").hidden = !(page.mine && tb.status === "playing" && people === 1);
  if (page.state && !page.state.yourTurn) $("hint-box").hidden = true;
  // A hint answers for your own decision: between your turns it could only say so.
  if (!page.hinting) $("hint").disabled = !myDecision();
  $("title").textContent = `${tb.title} · ${tb.variant} · ${statusText(tb)}`;
  // The tab says so when it is your turn: a player in another tab sees it.
  const mineToPlay = page.state && page.state.yourTurn && !page.state.over && !page.replay;
  document.title = mineToPlay ? t("▶ Your turn — Bestiary — {title}", { title: tb.title }) : t("Bestiary — {title}", { title: tb.title });
  renderFairness(tb);
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
    const lines = [t("Hint: {move}", { move: r.action })];
    if (others.length) {
      const weighed = others.map((a) => t("{move} ({n} searches, won {rate})", { move: a.action, n: a.visits, rate: `${Math.round(a.win_rate * 100)}%` }));
      lines.push(t("Also weighed: {moves}", { moves: weighed.join("; ") }));
    }
    // One legal move, or a secret pick left to the game's bot: no search ran.
    if (r.iterations === 0) lines.push(t("(the game's own bot chose it: searching would not do better here)"));
    else {
      if (r.tied) lines.push(t("(the search could not tell these moves apart: the game's own bot chose)"));
      lines.push(t("({n} searches in {seconds} s, from your view only: the bot samples the cards you cannot see)", { n: r.iterations, seconds: r.seconds.toFixed(1) }));
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
    const t = await postJSON(`/api/tables/${tableId}/rematch`, {});
    if (page.mine) {
      const seat = page.mine.seat;
      const free = t.seats.find((s) => s.seat === seat && s.kind === "human" && !s.taken);
      if (free) {
        const name = localStorage.getItem("bestiary:name") || t("player");
        const joined = await postJSON(`/api/tables/${t.id}/join`, { seat, name });
        saveSeat(t.id, joined.seat, joined.token);
      }
    }
    location.href = `/table/${t.id}`;
  } catch (e) {
    showError(e.message);
  }
}

async function take(seat) {
  try {
    const name = localStorage.getItem("bestiary:name") || prompt(t("Your name?"), t("player")) || t("player");
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
  if (rule.title) parts.push(t("Rule: {title}", { title: rule.title }));
  if (rule.quote) parts.push(t("The rulebook says: “{quote}”", { quote: quoteOf(rule) }));
  return parts.join("\n");
}

function ruleBox(rule) {
  const box = h("div", { class: "log-rule" });
  if (rule.title) box.append(h("strong", {}, t("Rule: {title}", { title: rule.title })));
  if (rule.quote) box.append(h("p", { class: "log-quote" }, t("The rulebook says: “{quote}”", { quote: quoteOf(rule) })));
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

function renderLog(entries) {
  const items = entries.map((e) => {
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
  if (msg.type === "error") return showError(t(msg.message)); // the server's own words are in the catalog
  if (msg.type !== "update") return;
  if (page.freshLog) {
    page.log = [];
    page.freshLog = false;
  }
  page.log.push(...msg.events);
  page.table = msg.table;
  page.state = {
    game: msg.table.game,
    seat: msg.seat,
    view: msg.view,
    legal: msg.legal,
    yourTurn: msg.your_turn,
    over: msg.over,
    result: msg.result,
    table: msg.table,
    log: page.log,
    moves: msg.moves,
  };
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
  renderSeats();
  renderResult();
  if (!page.replay) renderLog(page.log);
  renderBoard();
  document.body.dataset.over = s.over ? "yes" : "no";
  document.body.dataset.yourTurn = s.yourTurn ? "yes" : "no";
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
  $("replay-panel").hidden = false;
  $("rp-step").max = String(data.frames.length - 1);
  renderReplayFrame();
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
  renderLog(page.log);
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
  renderSeats();
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("invite").value));
  $("copy-seat").addEventListener("click", copySeatLink);
  $("resign").addEventListener("click", resign);
  $("hint").addEventListener("click", askHint);
  setupNotify();
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
