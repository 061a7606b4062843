// The lobby: create a table (game, variant, options, seats), list and join tables.
import { botName, getJSON, h, postJSON, saveSeat } from "./api.js";
import { ready, t, tn } from "./i18n.js";
import { openRules } from "./help.js";
import { startTutorial } from "./tutorial.js";

const $ = (id) => document.getElementById(id);
let games = [];

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

function fillGame() {
  const g = currentGame();
  if (!g) return;
  $("game-note").textContent = t("{players} players · bots: {bots}", { players: g.players.join(", "), bots: g.agents.map(botName).join(", ") });
  // "How to play": the game's rules for players, in the drawer the table page uses.
  const howTo = h("button", { type: "button", class: "small how-to-play", "data-game": g.id }, t("How to play"));
  howTo.addEventListener("click", () => openRules(g.id));
  $("game-note").append(" ", howTo);
  offerTutorial(g);
  // Variants, options and their choices are the game's words (their English is
  // the protocol): shown through the catalog, sent as they are.
  $("variant").replaceChildren(...g.variants.map((v) => h("option", { value: v }, t(v))));
  $("players").replaceChildren(
    ...g.players.map((n) => h("option", { value: n, selected: n === g.default_players }, n)),
  );
  fillSeats();
  fillOptions(g);
}

// "Learn to play": a scripted first game, for the games that have a tutorial.
const tutorials = new Map(); // game id -> whether it has one
async function offerTutorial(g) {
  if (!tutorials.has(g.id)) {
    try {
      await getJSON(`/api/games/${encodeURIComponent(g.id)}/tutorial`);
      tutorials.set(g.id, true);
    } catch {
      tutorials.set(g.id, false);
    }
  }
  if (!tutorials.get(g.id) || currentGame() !== g || $("game-note").querySelector(".learn-to-play")) return;
  const learn = h("button", { type: "button", class: "small learn-to-play", "data-game": g.id }, t("Learn to play (tutorial)"));
  learn.addEventListener("click", async () => {
    const name = $("name").value.trim();
    if (name) localStorage.setItem("bestiary:name", name);
    try {
      await startTutorial(g.id);
    } catch (e) {
      $("create-error").textContent = e.message;
    }
  });
  $("game-note").append(" ", learn);
}

// Levels first (what the server maps to bots of bounded strength), then the
// game's own bots by name. The server refuses anything else from a browser.
function levels() {
  return [
    ["normal", t("normal bot")],
    ["easy", t("easy bot")],
    ["hard", t("hard bot (slower)")],
  ];
}

function botChoices(g) {
  const named = g.agents.filter((a) => a !== "random").map((a) => [a, botName(a)]);
  return [...levels(), ["random", t("random bot")], ...named];
}

function fillSeats() {
  const g = currentGame();
  const n = Number($("players").value);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const kind = h(
      "select",
      { class: "seat-kind", "data-seat": i, "aria-label": t("seat {n}: who plays it", { n: i }) },
      h("option", { value: "human", selected: i === 0 }, i === 0 ? t("you") : t("a person")),
      ...botChoices(g).map(([a, label], k) => h("option", { value: `bot:${a}`, selected: i > 0 && k === 0 }, label)),
    );
    rows.push(h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, t("Seat {n}", { n: i })), kind));
  }
  $("seats").replaceChildren(h("legend", {}, t("Seats")), ...rows);
}

function fillOptions(g) {
  const box = $("options");
  // File options (a designer's card file) are for the command line only: the server refuses them.
  const options = g.options.filter((o) => !o.path);
  box.replaceChildren(
    ...options.map((o) => {
      let input;
      if (o.choices) {
        input = h("select", { name: o.name }, ...o.choices.map((c) => h("option", { value: String(c), selected: c === o.default }, typeof c === "string" ? t(c) : String(c))));
      } else if (o.type === "bool") {
        input = h("input", { type: "checkbox", name: o.name, checked: !!o.default });
      } else if (o.type === "int" || o.type === "float") {
        input = h("input", { name: o.name, type: "number", value: o.default === null ? "" : String(o.default), min: o.min ?? undefined, max: o.max ?? undefined, step: o.type === "int" ? 1 : "any" });
      } else {
        input = h("input", { name: o.name, value: o.default === null ? "" : String(o.default), size: 12, maxlength: 200 });
      }
      input.dataset.default = o.default === null ? "" : String(o.default);
      input.classList.add("option");
      const range = o.min !== null && o.min !== undefined ? ` (${o.min}–${o.max ?? "…"})` : "";
      return h("label", { class: "option-row", title: t(o.help) }, h("span", {}, t(o.name.replaceAll("_", " "))), input, h("small", {}, t(o.help) + range));
    }),
  );
  $("options-box").hidden = options.length === 0;
}

function chosenOptions() {
  const out = {};
  for (const el of document.querySelectorAll("#options .option")) {
    const value = el.type === "checkbox" ? String(el.checked) : el.value;
    const dflt = el.type === "checkbox" ? String(el.dataset.default === "true") : el.dataset.default;
    if (value !== dflt) out[el.name] = value;
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const seats = [...document.querySelectorAll(".seat-kind")].map((el) =>
    el.value === "human" ? { kind: "human" } : { kind: "bot", agent: el.value.slice(4) },
  );
  try {
    const table = await postJSON("/api/tables", {
      game: $("game").value,
      variant: $("variant").value,
      options: chosenOptions(),
      seats,
      turn_seconds: $("turn-seconds").value ? Number($("turn-seconds").value) : null,
    });
    if (seats[0].kind === "human") {
      const name = $("name").value.trim() || t("player");
      localStorage.setItem("bestiary:name", name);
      const joined = await postJSON(`/api/tables/${table.id}/join`, { seat: 0, name });
      saveSeat(table.id, joined.seat, joined.token);
    }
    location.href = `/table/${table.id}`;
  } catch (e) {
    $("create-error").textContent = e.message;
  }
}

function statusName(status) {
  const names = { waiting: t("waiting for players"), playing: t("in play"), finished: t("finished"), expired: t("expired") };
  return names[status] || status;
}

function seatName(tb, seat) {
  const s = tb.seats[seat];
  return s && s.name ? s.name : t("seat {n}", { n: seat });
}

function tableItem(tb) {
  const seats = tb.seats
    .map((s) => (s.kind === "bot" ? botName(s.agent) : s.taken ? s.name || t("player") : t("open")))
    .join(" · ");
  let link;
  if (tb.status === "waiting") link = h("a", { href: `/table/${tb.id}`, class: "button" }, t("join"));
  else if (tb.status === "playing") link = h("a", { href: `/table/${tb.id}`, class: "button" }, t("watch"));
  else if (tb.status === "finished") link = h("a", { href: `/table/${tb.id}#replay`, class: "button" }, t("replay"));
  else link = h("span", { class: "muted" }, statusName(tb.status));
  let result = "";
  if (tb.result) result = " — " + t("winner: {names}", { names: tb.result.winners.map((w) => seatName(tb, w)).join(", ") });
  return h(
    "li",
    { "data-table": tb.id, "data-status": tb.status },
    h("strong", {}, tb.title),
    ` (${t(tb.variant)}) `, // a variant's name is in the catalog, as in the game picker
    tb.seed_chosen ? h("span", { class: "badge", title: t("the player chose this table's seed") }, t("solo, own seed")) : "",
    " ",
    h("span", { class: "table-state" }, tableState(tb)),
    " ",
    h("span", { class: "muted" }, seats),
    result,
    " ",
    link,
  );
}

// A table in a few words: waiting, in play at move n, or over after n moves.
function tableState(tb) {
  if (tb.status === "playing") return t("in play, move {n}", { n: tb.moves || 0 }) + " · ";
  if (tb.status === "finished") return tn("finished after {n} move", "finished after {n} moves", tb.moves || 0) + " · ";
  return statusName(tb.status) + " · ";
}

// An empty listing under a filter says so and offers every table instead,
// so a newcomer never meets a bare "none" while games are being played.
function emptyListing() {
  const filtered = $("f-status").value || $("f-game").value || $("f-free").checked;
  if (!filtered) return h("li", { class: "muted" }, t("No tables yet: create the first one."));
  const all = h("button", { type: "button", class: "small", id: "show-all", onclick: showAll }, t("show every table"));
  return h("li", { class: "muted" }, t("No table matches these filters."), " ", all);
}

function showAll() {
  $("f-status").value = "";
  $("f-game").value = "";
  $("f-free").checked = false;
  refilter();
}

// The listing: one page at a time, filtered by game, status and free seats.
const listing = { offset: 0, limit: 20, total: 0 };

function listQuery() {
  const q = new URLSearchParams({ limit: String(listing.limit), offset: String(listing.offset) });
  if ($("f-game").value) q.set("game", $("f-game").value);
  if ($("f-status").value) q.set("status", $("f-status").value);
  if ($("f-free").checked) q.set("free", "true");
  return q;
}

async function refresh() {
  try {
    const { tables, total } = await getJSON(`/api/tables?${listQuery()}`);
    listing.total = total;
    if (listing.offset > 0 && listing.offset >= total) {
      listing.offset = Math.max(0, total - listing.limit);
      return refresh();
    }
    const items = tables.map(tableItem);
    $("tables").replaceChildren(...(items.length ? items : [emptyListing()]));
    const last = Math.min(total, listing.offset + tables.length);
    $("page-info").textContent = total ? t("{first}–{last} of {total}", { first: listing.offset + 1, last, total }) : "";
    $("prev-page").disabled = listing.offset === 0;
    $("next-page").disabled = last >= total;
  } catch (e) {
    $("tables").replaceChildren(h("li", { class: "error" }, e.message));
  }
}

function refilter() {
  listing.offset = 0;
  refresh();
}

async function main() {
  await ready();
  $("name").value = localStorage.getItem("bestiary:name") || "";
  const data = await getJSON("/api/games");
  games = data.games.filter((g) => !g.error);
  const preferred = new URLSearchParams(location.search).get("game");
  $("game").replaceChildren(
    ...games.map((g) => h("option", { value: g.id, selected: g.id === preferred }, g.has_page ? g.title : t("{title} (generic table)", { title: g.title }))),
  );
  $("game").addEventListener("change", fillGame);
  $("players").addEventListener("change", fillSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", refresh);
  $("f-game").replaceChildren(h("option", { value: "" }, t("every game")), ...games.map((g) => h("option", { value: g.id }, g.title)));
  for (const id of ["f-game", "f-status", "f-free"]) $(id).addEventListener("change", refilter);
  $("prev-page").addEventListener("click", () => {
    listing.offset = Math.max(0, listing.offset - listing.limit);
    refresh();
  });
  $("next-page").addEventListener("click", () => {
    listing.offset += listing.limit;
    refresh();
  });
  fillGame();
  refresh();
  setInterval(refresh, 5000);
}

main();
