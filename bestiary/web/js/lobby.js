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

function botChoices(g) {
  return g.agents.includes("heuristic") ? ["heuristic", ...g.agents.filter((a) => a !== "heuristic")] : g.agents;
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
      ...botChoices(g).map((a) => h("option", { value: `bot:${a}`, selected: i > 0 && a === botChoices(g)[0] }, `${a} bot`)),
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
      } else {
        input = h("input", { name: o.name, value: o.default === null ? "" : String(o.default), size: 12 });
      }
      input.dataset.default = o.default === null ? "" : String(o.default);
      input.classList.add("option");
      return h("label", { class: "option-row", title: o.help }, h("span", {}, o.name.replaceAll("_", " ")), input, h("small", {}, o.help));
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
  else link = h("a", { href: `/table/${t.id}#replay`, class: "button" }, "replay");
  let result = "";
  if (t.result) result = ` — winner: ${t.result.winners.map((w) => `seat ${w}`).join(", ")}`;
  return h(
    "li",
    { "data-table": t.id },
    h("strong", {}, t.title),
    ` (${t.variant}) `,
    h("span", { class: "muted" }, seats),
    result,
    " ",
    link,
  );
}

async function refresh() {
  try {
    const { tables } = await getJSON("/api/tables");
    for (const status of ["waiting", "playing", "finished"]) {
      const items = tables.filter((t) => t.status === status).map(tableItem);
      $(`tables-${status}`).replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "none")]));
    }
  } catch (e) {
    $("tables-waiting").replaceChildren(h("li", { class: "error" }, e.message));
  }
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
  fillGame();
  refresh();
  setInterval(refresh, 5000);
}

main();
