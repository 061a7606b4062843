// The lobby: create a table (game, variant, options, seats), list and join tables.
import { getJSON, h, postJSON, saveSeat } from "./api.js";

const $ = (id) => document.getElementById(id);
let games = [];

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

function fillGame() {
  const g = currentGame();
  if (!g) return;
  $("game-note").textContent = `${g.players.join(", ")} players · bots: ${g.agents.join(", ")}`;
  $("variant").replaceChildren(...g.variants.map((v) => h("option", { value: v }, v)));
  $("players").replaceChildren(
    ...g.players.map((n) => h("option", { value: n, selected: n === g.default_players }, n)),
  );
  fillSeats();
  fillOptions(g);
}

// Levels first (what the server maps to bots of bounded strength), then the
// game's own bots by name. The server refuses anything else from a browser.
const LEVELS = [
  ["normal", "normal bot"],
  ["easy", "easy bot"],
  ["hard", "hard bot (slower)"],
];

function botChoices(g) {
  const named = g.agents.filter((a) => a !== "random").map((a) => [a, `${a} bot`]);
  return [...LEVELS, ["random", "random bot"], ...named];
}

function fillSeats() {
  const g = currentGame();
  const n = Number($("players").value);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const kind = h(
      "select",
      { class: "seat-kind", "data-seat": i, "aria-label": `seat ${i} kind` },
      h("option", { value: "human", selected: i === 0 }, i === 0 ? "you" : "a person"),
      ...botChoices(g).map(([a, label], k) => h("option", { value: `bot:${a}`, selected: i > 0 && k === 0 }, label)),
    );
    rows.push(h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, `Seat ${i}`), kind));
  }
  $("seats").replaceChildren(h("legend", {}, "Seats"), ...rows);
}

function fillOptions(g) {
  const box = $("options");
  // File options (a designer's card file) are for the command line only: the server refuses them.
  const options = g.options.filter((o) => !o.path);
  box.replaceChildren(
    ...options.map((o) => {
      let input;
      if (o.choices) {
        input = h("select", { name: o.name }, ...o.choices.map((c) => h("option", { value: String(c), selected: c === o.default }, String(c))));
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
      return h("label", { class: "option-row", title: o.help }, h("span", {}, o.name.replaceAll("_", " ")), input, h("small", {}, o.help + range));
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
      const name = $("name").value.trim() || "player";
      localStorage.setItem("bestiary:name", name);
      const joined = await postJSON(`/api/tables/${table.id}/join`, { seat: 0, name });
      saveSeat(table.id, joined.seat, joined.token);
    }
    location.href = `/table/${table.id}`;
  } catch (e) {
    $("create-error").textContent = e.message;
  }
}

function tableItem(t) {
  const seats = t.seats
    .map((s) => (s.kind === "bot" ? `${s.agent} bot` : s.taken ? s.name || "player" : "open"))
    .join(" · ");
  let link;
  if (t.status === "waiting") link = h("a", { href: `/table/${t.id}`, class: "button" }, "join");
  else if (t.status === "playing") link = h("a", { href: `/table/${t.id}`, class: "button" }, "watch");
  else if (t.status === "finished") link = h("a", { href: `/table/${t.id}#replay`, class: "button" }, "replay");
  else link = h("span", { class: "muted" }, t.status);
  let result = "";
  if (t.result) result = ` — winner: ${t.result.winners.map((w) => `seat ${w}`).join(", ")}`;
  return h(
    "li",
    { "data-table": t.id, "data-status": t.status },
    h("strong", {}, t.title),
    ` (${t.variant}) `,
    t.seed_chosen ? h("span", { class: "badge", title: "the player chose this table's seed" }, "solo, own seed") : "",
    h("span", { class: "muted" }, seats),
    result,
    " ",
    link,
  );
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
    $("tables").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "none")]));
    const last = Math.min(total, listing.offset + tables.length);
    $("page-info").textContent = total ? `${listing.offset + 1}–${last} of ${total}` : "";
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
  $("name").value = localStorage.getItem("bestiary:name") || "";
  const data = await getJSON("/api/games");
  games = data.games.filter((g) => !g.error);
  const preferred = new URLSearchParams(location.search).get("game");
  $("game").replaceChildren(
    ...games.map((g) => h("option", { value: g.id, selected: g.id === preferred }, `${g.title}${g.has_page ? "" : " (generic table)"}`)),
  );
  $("game").addEventListener("change", fillGame);
  $("players").addEventListener("change", fillSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", refresh);
  $("f-game").replaceChildren(h("option", { value: "" }, "every game"), ...games.map((g) => h("option", { value: g.id }, g.title)));
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
