// Teratozoic's table page: the Era, every player's Gene Pool, the builds of
// the generation laid out on a grid (the solver's best monsters, their value
// and loose ends), your hand and held-back genes, and the choices of each
// phase as buttons (hold / build / take / keep), with clickable cards.
import { getJSON, h, pageStyle } from "../js/api.js";
import { card, cardName, cardNoun, svg } from "../js/cards.js";
import { actionLabel, statusLine } from "../js/generic.js";
import { morph, on } from "../js/morph.js";

pageStyle("teratozoic", import.meta.url); // its stylesheet sits next to it

// Translation: js/i18n.js sets globalThis.t (and tn for plurals); until it
// has loaded, the English source text with its {name} placeholders filled.
const fill = (s, p) => String(s).replace(/\{(\w+)\}/g, (_, k) => (p && k in p ? p[k] : "{" + k + "}"));
const t = (s, p) => (globalThis.t ? globalThis.t(s, p) : fill(s, p));
const tn = (one, many, n, p) => (globalThis.tn ? globalThis.tn(one, many, n, { n, ...p }) : fill(n === 1 ? one : many, { n, ...p }));
const N_ = (s) => s; // marks a message for the catalogue; translated where it is shown

function actionGroups(legal, groups, api) {
  const box = h("div", { class: "actions tz-actions", role: "group", "aria-label": t("your legal actions") });
  const rest = new Set(legal);
  for (const [name, test, label] of [...groups, [N_("Other"), () => true]]) {
    const acts = [...rest].filter(test);
    if (!acts.length) continue;
    acts.forEach((a) => rest.delete(a));
    box.append(h("div", { class: "action-group", "data-group": name }, h("span", { class: "verb" }, t(name)), ...acts.map((a) => h("button", { type: "button", class: "action", "data-action": a, onclick: () => api.act(a) }, label ? label(a) : said(a)))));
  }
  return box;
}

// An action as the server labels it in the page's language ("weź pomarańczowy łokieć 1"),
// else its text form.
function said(a) {
  return deck.last ? actionLabel(deck.last[1], a) : a;
}

const COLOUR = { orange: "#d9781e", red: "#c0392b", purple: "#8a4fb0", blue: "#2f6fb5", green: "#3f8f4a", yellow: "#c9a31a", grey: "#7a7f87", "three-colour": "#444" };

// How your monsters of this generation were built (the view's my_choice: the build action's kind).
const BUILT_AS = {
  best: N_("Your monsters (the solver's best build)"),
  flat: N_("Your monsters (flat)"),
  placed: N_("Your monsters (placed)"),
};

const GROUPS = [
  [N_("Express"), (a) => a === "express", () => t("express: play every card not held back")],
  [N_("Hold back"), (a) => a.startsWith("hold "), (a) => t("hold back {card}", { card: cardNoun(a.slice(5)) })],
  [N_("Build"), (a) => a.startsWith("build "), (a) => (a === "build best" ? t("build best — the solver's best monsters") : a === "build flat" ? t("build flat — the cards laid out unconnected") : a === "build placed" ? t("build as placed") : a)],
  [N_("Take (winner)"), (a) => a.startsWith("take "), (a) => t("take {card}", { card: cardNoun(a.slice(5)) })],
  [N_("Keep"), (a) => a.startsWith("keep "), (a) => t("keep {card}", { card: cardNoun(a.slice(5)) })],
];

// -- the cards ---------------------------------------------------------------------------------
// The view names cards by their number in the deck. The names come from the
// game's card list when the server offers it, else from the log lines that
// pair numbers with names (your hand, the plays, the gains).
const deck = { byId: new Map(), catalog: false, asked: false, last: null };

function askCatalog() {
  if (deck.asked) return deck.asked;
  deck.asked = getJSON("/api/games/teratozoic/cards")
    .then((c) => {
      for (const x of c.cards || []) deck.byId.set(x.id, { ...fromName(x.id, x.name), ...x });
      deck.catalog = true;
      if (deck.last) render(...deck.last);
    })
    .catch(() => {});
  return deck.asked;
}

// Resolves once the card list has been asked for (names for the card numbers).
export function catalogReady() {
  return askCatalog();
}

function fromName(id, name) {
  const [colour, value, ...part] = name.split(" ");
  return { id, name, colour, value: Number(value), part: part.join(" "), ends: null };
}

function learnFromLog(log) {
  const put = (id, name) => {
    if (!deck.byId.has(id) && name) deck.byId.set(id, fromName(id, name.trim()));
  };
  for (const { event: e, text } of log || []) {
    let m;
    if (e.kind === "hand" && (m = /: (.*)$/.exec(text))) {
      const names = m[1].split(", ");
      if (names.length === e.cards.length) e.cards.forEach((id, i) => put(id, names[i]));
    } else if (e.kind === "grew" && (m = / plays (.*): -?\d+ points$/.exec(text))) {
      const names = m[1].split(", ");
      if (names.length === e.cards.length) e.cards.forEach((id, i) => put(id, names[i]));
    } else if (e.kind === "took" && (m = / gains (.*) from seat \d+'s play$/.exec(text))) put(e.card, m[1]);
    else if (e.kind === "kept" && (m = / keeps (.*)$/.exec(text))) put(e.card, m[1]);
    else if (e.kind === "held" && (m = / holds back (.*)$/.exec(text))) put(e.card, m[1]);
  }
}

// A card whose name has not come yet (the card list is on its way) is shown by its number.
function cardInfo(id) {
  return deck.byId.get(id) || { id, name: t("card #{n}", { n: id }), unknown: true, colour: "grey", value: "?", part: "", ends: null };
}

const COLOUR_NAME = { orange: N_("orange"), red: N_("red"), purple: N_("purple"), blue: N_("blue"), green: N_("green"), yellow: N_("yellow"), grey: N_("grey"), "three-colour": N_("three-colour") };
const SIDE_NAME = { N: N_("top"), S: N_("bottom"), E: N_("right"), W: N_("left") };

// The full text of a card (hover or long-press: js/help.js).
export function cardHelp(id) {
  const c = cardInfo(id);
  const lines = [cardName(c.name), t("{colour} · value {value}", { colour: t(COLOUR_NAME[c.colour] || c.colour), value: c.value })];
  if (c.ends) {
    const sides = endsOf(c, false).map(([side, off]) => t(SIDE_NAME[side]) + (off ? "*" : ""));
    lines.push(t("Ends (where it connects): {sides}", { sides: sides.join(", ") || t("none") }));
    if (c.ends.includes("+") || c.ends.includes("-")) lines.push(t("* off-centre: no other card can meet it, so it is always a loose end"));
  }
  if (c.doubler) lines.push(t("Doubles the cards of its colour in its monster, and that monster's bonus."));
  if (c.colour === "grey") lines.push(t("Nuclear waste: connects like any card, but a monster with it is never single-colour."));
  if (c.colour === "three-colour") lines.push(t("Three colours: a monster with it is never single-colour."));
  lines.push(t("A monster is cards joined where their ends meet; +1 if it is one colour with no loose ends."));
  return lines.join("\n");
}

function handCard(id, opts = {}) {
  const c = cardInfo(id);
  // The face prints the body part ("łokieć"), in the page's language.
  const el = card({ name: c.part ? cardName(c.part) : cardName(c.name), type: t(COLOUR_NAME[c.colour] || c.colour), value: c.value, family: c.ends ? t("ends {ends}", { ends: c.ends }) : undefined, note: c.doubler ? t("doubles its monster") : undefined, colour: COLOUR[c.colour] || "#5f6b7a", width: opts.width || 80, selected: opts.selected });
  el.setAttribute("data-help", cardHelp(id));
  return el;
}

// -- the grid ------------------------------------------------------------------------------------
const CELL = 58;

// "N E S W" with "+"/"-" offsets -> [[side, offset]], turned 180° if asked.
function endsOf(c, turned) {
  if (!c.ends) return [];
  const flip = { N: "S", S: "N", E: "W", W: "E" };
  return c.ends
    .split(/\s+/)
    .filter(Boolean)
    .map((e) => {
      let side = e[0];
      let off = e[1] === "+" ? 1 : e[1] === "-" ? -1 : 0;
      if (turned) {
        side = flip[side];
        off = -off;
      }
      return [side, off];
    });
}

// One card as a tile at (gx, gy) of an SVG: its value, its part and its ends.
function drawTile(g, info, turned, gx, gy) {
  const col = COLOUR[info.colour] || "#777";
  g.append(svg("title", {}, cardName(info.name) + (turned ? " " + t("(turned)") : "")));
  g.append(svg("rect", { x: gx + 1, y: gy + 1, width: CELL - 2, height: CELL - 2, rx: 6, fill: "#fffdf6", stroke: col, "stroke-width": 3 }));
  g.append(svg("text", { x: gx + CELL / 2, y: gy + 27, "text-anchor": "middle", "font-size": 18, "font-weight": "bold", fill: col }, String(info.value)));
  // The part in the page's language; a long one ("opancerzony kręgosłup") in smaller letters.
  const part = info.part ? cardName(info.part) : "";
  const partAttrs = { x: gx + CELL / 2, y: gy + 43, "text-anchor": "middle", "font-size": Math.max(6, Math.min(8.5, 102 / Math.max(part.length, 1))).toFixed(1), fill: "#333" };
  if (part.length > 17) Object.assign(partAttrs, { textLength: CELL - 6, lengthAdjust: "spacingAndGlyphs" }); // always fits
  g.append(svg("text", partAttrs, part));
  for (const [side, off] of endsOf(info, turned)) {
    // "+" is right of centre on N/S edges and above it on E/W edges.
    const q = off * (CELL / 4);
    const p = { N: [gx + CELL / 2 + q, gy + 1], S: [gx + CELL / 2 + q, gy + CELL - 1], W: [gx + 1, gy + CELL / 2 - q], E: [gx + CELL - 1, gy + CELL / 2 - q] }[side];
    g.append(svg("circle", { cx: p[0], cy: p[1], r: 5, fill: col, stroke: "#fff", "stroke-width": 1.5 }));
  }
}

// A lone tile as its own small SVG (the cards to place, the placed cards).
function tile(id, turned) {
  const info = cardInfo(id);
  const s = svg("svg", { width: CELL, height: CELL, viewBox: `0 0 ${CELL} ${CELL}`, class: "tz-tile", role: "img" });
  s.setAttribute("aria-label", cardName(info.name) + (turned ? " " + t("(turned)") : ""));
  const g = svg("g", { class: "tz-cell", "data-card": id, "data-help": cardHelp(id) });
  drawTile(g, info, turned, 0, 0);
  s.append(g);
  return s;
}

function buildGrid(build, label, take = null) {
  const cells = build.monsters.flatMap((m, k) => m.placements.map(([id, x, y, tu]) => ({ id, x, y, t: tu, k })));
  const box = h("div", { class: "tz-build", "data-score": build.score }, h("div", { class: "tz-build-head" }, label, " — ", h("strong", { class: "tz-score" }, tn("{n} point", "{n} points", build.score)), build.all_closed ? h("span", { class: "tz-badge" }, t("no loose ends: +1")) : ""));
  // Monsters side by side: each keeps its own coordinates.
  const row = h("div", { class: "tz-monsters" });
  build.monsters.forEach((m, k) => {
    const mine = cells.filter((c) => c.k === k);
    const xs = mine.map((c) => c.x);
    const ys = mine.map((c) => c.y);
    const x0 = Math.min(...xs);
    const y1 = Math.max(...ys);
    const w = (Math.max(...xs) - x0 + 1) * CELL + 8;
    const hh = (y1 - Math.min(...ys) + 1) * CELL + 8;
    const s = svg("svg", { width: w, height: hh, viewBox: `0 0 ${w} ${hh}`, class: "tz-grid", role: "img" });
    s.setAttribute("aria-label", m.closed ? tn("monster of {n} card, worth {value}, closed", "monster of {n} cards, worth {value}, closed", m.cards.length, { value: m.value }) : tn("monster of {n} card, worth {value}, with loose ends", "monster of {n} cards, worth {value}, with loose ends", m.cards.length, { value: m.value }));
    for (const c of mine) {
      const info = cardInfo(c.id);
      const gx = 4 + (c.x - x0) * CELL;
      const gy = 4 + (y1 - c.y) * CELL;
      const g = svg("g", { class: "tz-cell", "data-card": c.id, "data-help": cardHelp(c.id) });
      // The generation's winner takes a card by clicking it on the grid.
      const act = take && take(c.id);
      if (act) {
        g.classList.add("takeable");
        g.setAttribute("data-action", act);
        g.setAttribute("role", "button");
        on(g, "click", () => take.api.act(act)); // through on(): a kept cell gets the new render's handler
      }
      drawTile(g, info, c.t, gx, gy);
      s.append(g);
    }
    row.append(h("figure", { class: "tz-monster" + (m.closed ? " closed" : " open") }, s, h("figcaption", {}, m.closed ? t("{n} pts · closed", { n: m.value }) : t("{n} pts · loose ends", { n: m.value }))));
  });
  box.append(row);
  return box;
}

// -- the page -------------------------------------------------------------------------------------
function seatName(api, seat) {
  return api.seatLabel ? api.seatLabel(seat) : `seat ${seat}`;
}

function eraPanel(view) {
  const e = view.era;
  return h(
    "div",
    { class: "tz-era" },
    h("div", { class: "tz-era-name" }, cardName(e.name)),
    h(
      "div",
      { class: "tz-era-rules" },
      t("draw {m} mutations + {g} from your Gene Pool · play at least {min} · the winner gains {wp} from play + {wh} from hand · the others {oh} from hand", { m: e.mutations, g: e.gene_pool, min: e.min_play, wp: e.winner_play, wh: e.winner_hand, oh: e.others_hand }),
    ),
    h("div", { class: "muted" }, t("Generation {n} · phase {phase} · Mutations Deck {deck} · Mutations Deck Discard Pile {discard} · Eras to come: {eras}", { n: view.generation, phase: t(PHASE_NAME[view.phase] || view.phase), deck: view.mutations_deck, discard: view.mutations_discard, eras: view.eras_left.map(cardName).join(", ") || t("none — this is the last") })),
  );
}

function playersTable(view, api) {
  const rows = view.players.map((p) => {
    let state = p.eliminated ? t("eliminated") : p.competing ? t("competing") : view.phase === "over" ? "" : t("out of this generation");
    if (view.winner === p.seat) state = t("dominates this generation");
    if (p.final) state = tn("final: {n} card in monsters", "final: {n} cards in monsters", p.final.cards) + (p.final.exact === false ? " " + t("(not proven the largest)") : "");
    return h(
      "tr",
      { class: (p.seat === view.seat ? "mine " : "") + (view.winner === p.seat ? "winner" : ""), "data-seat": p.seat },
      h("td", {}, seatName(api, p.seat)),
      h("td", { class: "tz-pool" }, String(p.gene_pool)),
      h("td", {}, String(p.discard.length)),
      h("td", {}, String(p.hand_size)),
      h("td", {}, p.declared ? (p.held_count ? t("{n} held back", { n: p.held_count }) : t("all expressed")) : "—"),
      h("td", { class: "tz-score" }, p.score === null ? "" : String(p.score)),
      h("td", {}, state),
    );
  });
  const pool = (n) => h("th", {}, n);
  // The wrapper may scroll on a phone: focusable (and named) so a keyboard can scroll it.
  return h("div", { class: "tz-table-wrap", tabindex: "0", role: "region", "aria-label": t("players") }, h("table", { class: "scores tz-players" }, h("thead", {}, h("tr", {}, pool(t("player")), pool(t("Gene Pool")), pool(t("Gene Pool Discard Pile")), pool(t("hand")), pool(t("expression")), pool(t("play score")), pool(""))), h("tbody", {}, ...rows)));
}

const PHASE_NAME = { expression: N_("expression"), growth: N_("growth"), "breed-play": N_("breeding (the winner takes)"), "breed-hand": N_("breeding (keep from hand)"), over: N_("over") };

// -- the end, explained -------------------------------------------------------------------
// Why the game ended, by which rule, and how the scores and winners came
// about. Everything comes from the view and the log this seat was sent
// (the game_over, final_tie and eliminated events), so the replay viewer
// explains it too. A reason the game states itself (``reason`` on the
// game_over event or ``end_reason`` in the view) is shown first.
export function endPanel(view, state, api) {
  if (view.phase !== "over") return null;
  const events = (state.log || []).map((e) => e.event);
  const over = [...events].reverse().find((e) => e.kind === "game_over") || null;
  const replays = events.filter((e) => e.kind === "final_tie").length;
  const res = state.result || (over ? { scores: over.scores, winners: over.winners } : null);
  const name = (s) => seatName(api, s);
  const alive = view.players.filter((p) => !p.eliminated);
  const out = view.players.filter((p) => p.eliminated);
  const finalEra = !view.eras_left.length;
  const owned = (p) => p.gene_pool + p.discard.length + p.hand_size;
  const kind = alive.length <= 1 ? "eliminated" : alive.every((p) => owned(p) < 5) ? "everyone-below-five" : "final-era";
  const lines = [];
  const stated = (over && typeof over.reason === "string" && over.reason) || (typeof view.end_reason === "string" && view.end_reason) || "";
  if (stated) lines.push(h("p", { class: "tz-end-stated" }, stated));
  let why;
  let rule;
  if (kind === "final-era") {
    why = t("The {era} — the final Era — has run its course. In it no Gene Pool is reshuffled: a player whose Gene Pool runs out plays a last, shorter hand and then stops. Once one or fewer players could still play a generation, the game ended (generation {n}).", { era: cardName(view.era.name), n: view.generation });
    rule = t("Rulebook, Teratozoic Era: “once a player's Gene Pool is exhausted they cannot shuffle it and thus cannot compete in any more generations … when one or fewer players are able to compete, the game is over.”");
  } else if (kind === "eliminated") {
    why = finalEra ? t("Every other player was eliminated, so one or fewer players could compete and the game ended in generation {n}.", { n: view.generation }) : t("Every other player was eliminated, so one or fewer players could compete and the game ended in generation {n}, before the final Era.", { n: view.generation });
    rule = t("Rulebook, Mutation: “if a player ever has fewer than five cards in their entire Gene Pool (including their Gene Pool Discard Pile and hand), they lose the game.”");
  } else {
    why = t("After generation {n}, every player still in the game had fewer than five cards in their whole Gene Pool: ties put Gene Pool cards into play, and those not gained went to the Mutations discard pile. Such a player loses the game; since all of them would lose at once, nobody could compete any more, so the game ended here, in the {era}, and everyone was scored as they stood.", { n: view.generation, era: cardName(view.era.name) });
    rule = t("Rulebook, Mutation: “if a player ever has fewer than five cards in their entire Gene Pool … they lose the game.” What happens when everyone falls below five at once is our reading (RULES.md, Elimination).");
  }
  lines.push(h("p", { class: "tz-end-why" }, why), h("p", { class: "tz-end-rule muted" }, rule));
  lines.push(h("p", {}, t("Score: the cards in up to three of the largest single-colour monsters with no loose ends (one per colour) that each player can build from their whole Gene Pool. Face values do not count.")));
  const scores = res ? res.scores : view.players.map((p) => (p.final ? p.final.cards : 0));
  if (scores.length && scores.every((x) => Number(x) === 0)) lines.push(h("p", { class: "tz-end-zero" }, t("Nobody could build a single closed single-colour monster from their Gene Pool, so every score is 0.")));
  if (out.length) lines.push(h("p", {}, t("Eliminated players score 0 and cannot win: {names}.", { names: out.map((p) => name(p.seat)).join(", ") })));
  const winners = res ? res.winners : [];
  if (winners.length === 1) {
    const top = Math.max(...alive.map((p) => Number(scores[p.seat]) || 0));
    const tiedTop = alive.filter((p) => (Number(scores[p.seat]) || 0) === top).length;
    lines.push(h("p", { class: "tz-end-winner" }, tn("{name} wins with {n} card in monsters.", "{name} wins with {n} cards in monsters.", Number(scores[winners[0]]) || 0, { name: name(winners[0]) })));
    if (tiedTop > 1) lines.push(h("p", { class: "muted" }, replays ? tn("The tie was broken after {n} replay of the Teratozoic Era.", "The tie was broken after {n} replays of the Teratozoic Era.", replays) : t("The tie was broken by the most closed single-colour monsters left over (the rulebook's first tie-break).")));
  } else if (winners.length > 1) {
    lines.push(h("p", { class: "tz-end-winner" }, t("{names} share the win.", { names: winners.map(name).join(", ") })));
    lines.push(
      h(
        "p",
        { class: "muted" },
        replays
          ? tn("They were still tied after {n} replay of the Teratozoic Era (the rulebook: “If you still have a tie, play the Teratozoic Era again!”), the most this table allows.", "They were still tied after {n} replays of the Teratozoic Era (the rulebook: “If you still have a tie, play the Teratozoic Era again!”), the most this table allows.", replays)
          : t("They tie on cards and on leftover monsters. The rulebook's last tie-break is to play the Teratozoic Era again, but a player with fewer than five cards cannot play a generation (or this table allows no replay), so they share the win."),
      ),
    );
  }
  return h("div", { class: "tz-end", "data-end": kind }, h("h3", {}, t("Why the game ended")), ...lines);
}

function prompt(view, state) {
  if (!state.yourTurn) return null;
  return (
    {
      expression: t("Expression: drag (or click) cards to hold them back face down — the preview shows the solver's best build of what you express — then confirm. Play at least {n}.", { n: view.era.min_play }),
      growth: t("Growth: build your monsters — place your cards on the grid by hand (drag a card next to a placed one where their ends meet, or click the card, then the spot), or take the solver's best layout, or play them flat."),
      "breed-play": t("You dominate this generation: take a card from the plays (click one)."),
      "breed-hand": t("Breeding: keep cards from your hand for your Gene Pool (click one)."),
    }[view.phase] || null
  );
}

// -- Expression: plan what to hold back, see the solver's build live ---------------------
// The plan is local until "hold back … and express" sends it; cards already
// held on the server stay held. The preview asks the server's scoring tool
// (``bestiary score teratozoic``: {"cards": [names]} -> the best build) when
// it offers one.
const plan = { key: "", held: new Set() };
const scores = new Map(); // sorted names joined -> build | "none" (no scoring tool) | "wait"

let scoreTool = true; // false once the server says it has none

// The scoring tool answers in card names (as it was asked); the grids draw
// cards by id, so names go back to the ids of the cards that were sent.
function withIds(build, names) {
  const byName = new Map();
  for (const c of deck.byId.values()) byName.set(c.name.toLowerCase(), c.id);
  const id = (n) => (typeof n === "number" ? n : byName.get(String(n).toLowerCase()));
  if (!build || names.some((n) => id(n) === undefined)) return "none";
  return { ...build, monsters: build.monsters.map((m) => ({ ...m, cards: m.cards.map(id), placements: m.placements.map(([n, x, y, tu]) => [id(n), x, y, tu]) })) };
}

function previewOf(names) {
  const key = [...names].sort().join("|");
  if (!scoreTool) return "none";
  if (!scores.has(key)) {
    scores.set(key, "wait");
    fetch("/api/games/teratozoic/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ cards: names }) })
      .then((r) => {
        if (r.status === 404 || r.status === 405) scoreTool = false;
        return r.ok ? r.json() : Promise.reject(r);
      })
      .then((out) => scores.set(key, withIds(out.build, names)))
      .catch(() => scores.set(key, "none"))
      .finally(() => deck.last && render(...deck.last));
  }
  return scores.get(key);
}

function handPanel(view, state, api) {
  const legal = state.legal || [];
  const serverHeld = new Set(view.held_cards);
  const planning = view.phase === "expression" && legal.includes("express");
  const key = `${view.generation}:${view.hand.join(",")}`;
  if (plan.key !== key || !planning) {
    plan.key = key;
    plan.held = new Set();
  }
  for (const c of serverHeld) plan.held.delete(c);
  const maxHeld = view.hand.length - view.era.min_play;
  const heldNow = serverHeld.size + plan.held.size;
  const toExpress = view.hand.filter((c) => !serverHeld.has(c) && !plan.held.has(c));
  const canHold = (id) => legal.includes(`hold ${cardInfo(id).name}`) && heldNow < maxHeld;
  const toggle = (id) => {
    if (plan.held.has(id)) plan.held.delete(id);
    else if (canHold(id)) plan.held.add(id);
    render(...deck.last);
  };
  const cardButton = (id, where) => {
    const movable = planning && (where === "held" ? plan.held.has(id) : canHold(id));
    const verbHere = view.phase === "breed-hand" ? "keep" : null;
    const act = verbHere && legal.includes(`${verbHere} ${cardInfo(id).name}`) ? `${verbHere} ${cardInfo(id).name}` : null;
    const b = h(
      "button",
      {
        type: "button",
        class: "card-button tz-card" + (where === "held" && !plan.held.has(id) ? " fixed" : ""),
        "data-card": id,
        "data-action": !movable && act ? act : undefined,
        disabled: !(movable || act),
        draggable: movable ? "true" : undefined,
        title: movable ? (where === "held" ? t("click or drag back to express it") : t("click or drag to hold it back")) : act ? said(act) : cardName(cardInfo(id).name),
        onclick: () => (movable ? toggle(id) : act && api.act(act)),
        ondragstart: (e) => {
          dragStarted();
          e.dataTransfer.setData("text/plain", String(id));
        },
        ondragend: dragEnded,
      },
      handCard(id, { width: where === "held" ? 64 : 80 }),
    );
    return b;
  };
  const zone = (cls, name, ids, where) => {
    const drop = (e) => {
      e.preventDefault();
      const id = Number(e.dataTransfer.getData("text/plain"));
      if ((where === "held") !== plan.held.has(id)) toggle(id);
    };
    return h(
      "div",
      { class: `tz-zone ${cls}` + (planning ? " open" : ""), ondragover: (e) => planning && e.preventDefault(), ondrop: drop },
      h("div", { class: "tz-zone-name" }, name),
      h("div", { class: "cards" }, ...ids.map((id) => cardButton(id, where))),
    );
  };
  const heldIds = [...view.held_cards, ...plan.held];
  const box = h(
    "div",
    { class: "tz-hand" },
    h("h3", {}, t("Your hand ({n})", { n: view.hand.length })),
    h(
      "div",
      { class: "tz-zones" },
      zone("tz-expressed", view.phase === "expression" ? t("To express (play)") : t("In your hand"), view.phase === "expression" ? toExpress : view.hand, "hand"),
      view.phase === "expression" ? zone("tz-held", t("Held back (face down to the others) — at most {n}", { n: Math.max(0, maxHeld) }), heldIds, "held") : "",
    ),
  );
  if (planning) {
    const names = toExpress.map((c) => cardInfo(c).name);
    const preview = toExpress.every((c) => !cardInfo(c).unknown) ? previewOf(names) : "none";
    const holds = [...plan.held].map((c) => `hold ${cardInfo(c).name}`);
    box.append(
      h(
        "div",
        { class: "tz-plan" },
        h(
          "button",
          {
            type: "button",
            class: "tz-commit",
            // One action when nothing is held back; else the holds, then "express".
            "data-action": holds.length ? undefined : "express",
            onclick: () => {
              for (const a of holds) api.act(a);
              api.act("express");
              plan.held = new Set();
            },
          },
          holds.length ? t("Hold back {held} and express {n}", { held: holds.length, n: toExpress.length }) : t("Express all {n}", { n: toExpress.length }),
        ),
        preview === "wait" ? h("span", { class: "muted" }, (" " + t("scoring…"))) : "",
        preview === "none" ? h("span", { class: "muted" }, (" " + t("(no score preview from the server)"))) : "",
      ),
    );
    if (preview && typeof preview === "object") box.append(h("div", { class: "tz-preview" }, buildGrid(preview, t("If you express these {n}: the solver's best build", { n: toExpress.length }))));
  }
  box.append(h("p", { class: "muted" }, tn("Your Gene Pool: {n} card left to draw.", "Your Gene Pool: {n} cards left to draw.", view.my_gene_pool.length)));
  return box;
}

// A re-render in the middle of a drag would pull the card from under the
// pointer: updates wait until the drop (or the drag's end).
const drag = { on: false, card: null };
function dragStarted() {
  drag.on = true;
}
function dragEnded() {
  drag.on = false;
  if (deck.last) setTimeout(() => !drag.on && render(...deck.last), 0);
}

// -- Growth: placing the cards by hand -------------------------------------------------------
// The game takes a hand-made build one card at a time: `start <card>` lays a
// new monster, `attach <card> <side> of <placed card>` joins a card where its
// ends meet, `build placed` finishes. The page draws the placed cards (the
// view's `placing`: [card, x, y, turned], one monster per 100 columns of x)
// with a drop target on every free cell where a legal `attach` lands; the
// texts are built from the legal list, so only legal actions are ever sent.
const SIDES = ["N", "E", "S", "W"];
const STEP = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const MONSTER_GAP = 100;
const place = { key: "", card: null, turned: false };

// A layout's score as the game counts `build placed` (monsters are the cards
// joined where ends meet; cards not placed lie apart), asked of the server's
// scoring tool: {"placements": [[name, x, y, turned], ...]} -> the score. The
// rules live in the game package only. Asked once the layout has been still
// for a moment (debounced); "wait" until the answer is in, "none" on failure.
const LIVE_DELAY_MS = 120;
const layoutScores = new Map(); // request body -> score | "none"
const liveAsk = { body: "", timer: null };

function liveScoreOf(placements, ignoreColour) {
  if (!scoreTool) return "none";
  const body = JSON.stringify({ placements: placements.map(([id, x, y, tu]) => [cardInfo(id).name, x, y, Boolean(tu)]), doubling_ignores_colour: ignoreColour });
  if (layoutScores.has(body)) return layoutScores.get(body);
  if (liveAsk.body !== body) {
    clearTimeout(liveAsk.timer);
    liveAsk.body = body;
    liveAsk.timer = setTimeout(() => {
      fetch("/api/games/teratozoic/score", { method: "POST", headers: { "Content-Type": "application/json" }, body })
        .then((r) => {
          if (r.status === 404 || r.status === 405) scoreTool = false;
          return r.ok ? r.json() : Promise.reject(r);
        })
        .then((out) => layoutScores.set(body, out.score))
        .catch(() => layoutScores.set(body, "none"))
        .finally(() => {
          if (liveAsk.body === body) liveAsk.body = "";
          if (deck.last) render(...deck.last);
        });
    }, LIVE_DELAY_MS);
  }
  return "wait";
}

function tableOption(state, name) {
  let o = state.table && state.table.options;
  if (typeof o === "string") {
    try {
      o = JSON.parse(o);
    } catch {
      o = {};
    }
  }
  return Boolean(o && o[name]);
}

// What the legal list allows now: starts per card, targets per free cell.
function placements(view, legal) {
  const has = new Set(legal);
  const placed = view.placing || [];
  const done = new Set(placed.map((p) => p[0]));
  const played = view.hand.filter((c) => !view.held_cards.includes(c));
  const free = played.filter((c) => !done.has(c));
  const name = (id) => cardInfo(id).name;
  const handled = new Set(legal.filter((a) => a.startsWith("build ")));
  const starts = new Map(); // card -> [{turned, text}]
  for (const c of free) {
    for (const tu of [false, true]) {
      const text = `start ${name(c)}${tu ? " turned" : ""}`;
      if (!has.has(text)) continue;
      handled.add(text);
      starts.set(c, [...(starts.get(c) || []), { turned: tu, text }]);
    }
  }
  const occupied = new Set(placed.map(([, x, y]) => `${x},${y}`));
  const targets = new Map(); // "x,y" -> {x, y, opts: [{card, turned, text}]}
  for (const [anchor, x, y] of placed) {
    for (const side of SIDES) {
      const nx = x + STEP[side][0];
      const ny = y + STEP[side][1];
      if (occupied.has(`${nx},${ny}`)) continue;
      for (const c of free) {
        for (const tu of [false, true]) {
          const text = `attach ${name(c)} ${side} of ${name(anchor)}${tu ? " turned" : ""}`;
          if (!has.has(text)) continue;
          handled.add(text);
          const k = `${nx},${ny}`;
          if (!targets.has(k)) targets.set(k, { x: nx, y: ny, opts: [] });
          targets.get(k).opts.push({ card: c, turned: tu, text });
        }
      }
    }
  }
  return { placed, played, free, starts, targets, handled };
}

// The action for laying `card` with these options: the turn the toggle asks
// for when legal, else the one that fits.
function pick(opts, card) {
  const mine = opts.filter((o) => o.card === card);
  return (mine.find((o) => o.turned === place.turned) || mine[0] || {}).text || null;
}

function markFits(root, id) {
  for (const el of root.querySelectorAll(".tz-target, .tz-newmonster")) el.classList.toggle("fits", id !== null && el.dataset.fits.split(" ").includes(String(id)));
}

function dropSpot(cls, fits, opts, api, extra) {
  const sel = place.card;
  const act = sel !== null && fits.includes(sel) ? pick(opts, sel) : null;
  // The handlers go through h(): a redraw that keeps the spot moves them to it.
  const handlers = {
    onclick: () => act && api.act(act),
    onkeydown: (e) => act && (e.key === "Enter" || e.key === " ") && api.act(act),
    ondragover: (e) => {
      if (drag.card !== null && fits.includes(drag.card)) e.preventDefault();
    },
    ondrop: (e) => {
      e.preventDefault();
      const id = Number(e.dataTransfer.getData("text/plain"));
      const text = fits.includes(id) ? pick(opts, id) : null;
      drag.card = null;
      if (text) api.act(text);
    },
  };
  const el = h("div", { class: cls + (act ? " fits" : ""), "data-fits": fits.join(" "), "data-action": act || undefined, role: act ? "button" : undefined, tabindex: act ? "0" : undefined, title: act ? said(act) : fits.length ? t("drop a card here") : "", ...extra, ...handlers });
  if (cls === "tz-target") el.append(h("span", { class: "tz-target-mark" }, act ? (act.endsWith(" turned") ? t("here, turned") : t("here")) : "+"));
  return el;
}

function monsterBoard(p, api, ghost) {
  const spots = [...p.placed.map(([id, x, y, tu]) => ({ id, x, y, t: tu })), ...[...p.targets.values()].map((g) => ({ ...g, target: true }))];
  const byMonster = new Map();
  for (const c of spots) {
    const k = Math.round(c.x / MONSTER_GAP);
    byMonster.set(k, [...(byMonster.get(k) || []), c]);
  }
  const row = h("div", { class: "tz-monsters tz-placing" });
  for (const k of [...byMonster.keys()].sort((a, b) => a - b)) {
    const mine = byMonster.get(k);
    const x0 = Math.min(...mine.map((c) => c.x));
    const y1 = Math.max(...mine.map((c) => c.y));
    const grid = h("div", { class: "tz-place-grid", "data-monster": k });
    for (const c of mine) {
      const pos = { style: `grid-column: ${c.x - x0 + 1}; grid-row: ${y1 - c.y + 1}` };
      if (c.target) {
        const fits = [...new Set(c.opts.map((o) => o.card))];
        grid.append(dropSpot("tz-target", fits, c.opts, api, { ...pos, "data-x": c.x, "data-y": c.y }));
      } else grid.append(h("div", { class: "tz-placed", "data-card": c.id, ...pos }, tile(c.id, c.t)));
    }
    row.append(h("figure", { class: "tz-monster" }, grid));
  }
  const startOpts = [...p.starts.entries()].flatMap(([card, os]) => os.map((o) => ({ card, ...o })));
  row.append(dropSpot("tz-newmonster", [...p.starts.keys()], startOpts, api, {}));
  row.lastChild.append(p.placed.length ? t("new monster: drop a card here") : t("start your first monster: drop a card here"));
  if (ghost) row.append(ghost);
  return row;
}

function placingPanel(view, state, api) {
  const legal = state.legal || [];
  const key = `${view.generation}:${view.hand.join(",")}`;
  if (place.key !== key) Object.assign(place, { key, card: null, turned: false });
  const p = placements(view, legal);
  if (place.card !== null && !p.free.includes(place.card)) place.card = null;
  const playable = (c) => p.starts.has(c) || [...p.targets.values()].some((g) => g.opts.some((o) => o.card === c));
  const anyTurn = [...p.handled].some((a) => a.endsWith(" turned"));

  // The cards still to place, drawn as tiles (turned when the toggle is on).
  const tray = h(
    "div",
    { class: "tz-tray" },
    ...p.free.map((c) => {
      const ok = playable(c);
      return h(
        "button",
        {
          type: "button",
          class: "card-button tz-tocard" + (place.card === c ? " selected" : ""),
          "data-card": c,
          "aria-pressed": String(place.card === c),
          disabled: !ok,
          draggable: ok ? "true" : undefined,
          title: ok ? t("drag onto the grid, or click, then click a spot") : t("fits nowhere: it will lie apart"),
          onclick: () => {
            place.card = place.card === c ? null : c;
            render(...deck.last);
          },
          ondragstart: (e) => {
            dragStarted();
            drag.card = c;
            e.dataTransfer.setData("text/plain", String(c));
            markFits(e.target.closest(".tz-placing-panel"), c);
          },
          ondragend: () => {
            drag.card = null;
            dragEnded();
          },
        },
        tile(c, place.turned),
        h("span", { class: "tz-tocard-name" }, cardName(cardInfo(c).name)),
      );
    }),
  );
  const turn = anyTurn
    ? h(
        "button",
        {
          type: "button",
          class: "tz-turn" + (place.turned ? " on" : ""),
          "aria-pressed": String(place.turned),
          onclick: () => {
            place.turned = !place.turned;
            render(...deck.last);
          },
        },
        place.turned ? t("↻ turned 180°: on") : t("↻ turn 180°: off"),
      )
    : "";

  // The live score of `build placed` now, beside the solver's best.
  const names = p.played.map((c) => cardInfo(c).name);
  const known = p.played.every((c) => !cardInfo(c).unknown);
  const best = known ? previewOf(names) : "none";
  let live = null;
  if (known) {
    const apart = p.played.filter((c) => !p.placed.some((q) => q[0] === c)).map((c, k) => [c, -MONSTER_GAP * (k + 1), 0, 0]);
    live = liveScoreOf([...p.placed, ...apart], tableOption(state, "doubling_ignores_colour"));
  }
  const scoreLine = h(
    "div",
    { class: "tz-place-score" },
    t("Your layout:") + " ",
    live === null
      ? h("span", { class: "muted" }, t("(the live score needs the card list)"))
      : typeof live === "number"
        ? h("strong", { class: "tz-live", "data-score": live }, tn("{n} point", "{n} points", live))
        : h("span", { class: "tz-live muted", "aria-busy": String(live === "wait") }, live === "wait" ? "…" : "—"),
    h("span", { class: "muted" }, (" " + t("if built now (cards not placed lie apart)") + " · ")),
    t("the solver's best:") + " ",
    best && typeof best === "object" ? h("strong", { class: "tz-hint", "data-score": best.score }, tn("{n} point", "{n} points", best.score)) : h("span", { class: "muted" }, best === "wait" ? t("scoring…") : "—"),
  );
  const builds = ["build placed", "build best", "build flat"].filter((a) => legal.includes(a));
  const label = { "build placed": t("Build as placed"), "build best": t("Build the solver's best"), "build flat": t("Play them flat (unconnected)") };
  const placeActs = legal.filter((a) => p.handled.has(a) && !a.startsWith("build "));
  return h(
    "div",
    { class: "tz-placing-panel" },
    h("h3", {}, t("Build your monsters")),
    scoreLine,
    h("div", { class: "tz-tray-row" }, h("span", { class: "tz-zone-name" }, p.free.length ? t("To place:") : t("Every card is placed.")), tray, turn),
    monsterBoard(p, api, null),
    h("div", { class: "tz-build-buttons" }, ...builds.map((a) => h("button", { type: "button", class: "action" + (a === "build placed" ? " tz-commit" : ""), "data-action": a, onclick: () => api.act(a) }, label[a]))),
    best && typeof best === "object" ? h("details", { class: "tz-hint-grid" }, h("summary", {}, t("the solver's layout")), buildGrid(best, t("The solver's best build"))) : "",
    placeActs.length
      ? h(
          "details",
          { class: "tz-all-places" },
          h("summary", {}, t("every placement as a button ({n})", { n: placeActs.length })),
          actionGroups(placeActs, [
            [N_("Start"), (a) => a.startsWith("start ")],
            [N_("Attach"), (a) => a.startsWith("attach ")],
          ], api),
        )
      : "",
  );
}

export function render(root, state, api) {
  if (drag.on) {
    deck.last = [root, state, api];
    return;
  }
  askCatalog();
  deck.last = [root, state, api];
  learnFromLog(state.log);
  const view = state.view;
  const legal = state.legal || [];
  const verb = { expression: "hold", "breed-play": "take", "breed-hand": "keep" }[view.phase] || "";
  const parts = [statusLine(state), endPanel(view, state, api), eraPanel(view), playersTable(view, api)].filter(Boolean);
  const ask = prompt(view, state);
  if (ask) parts.push(h("p", { class: "tz-prompt" }, ask));
  // During Growth the build panel offers the build and placing actions itself.
  const building = view.phase === "growth" && view.hand && view.placing && !view.my_choice && (legal.includes("build best") || view.placing.length);
  const panel = building ? placingPanel(view, state, api) : null;
  const inPanel = new Set(building ? [...panel.querySelectorAll("[data-action]")].map((e) => e.dataset.action) : []);
  parts.push(actionGroups(legal.filter((a) => !inPanel.has(a)), GROUPS, api));

  if (panel) parts.push(panel);
  else if (view.hand && (view.hand.length || view.phase !== "over")) parts.push(handPanel(view, state, api));

  // The generation's plays: what each competing player put down, on a grid.
  const builds = view.players.filter((p) => p.build);
  if (builds.length) {
    const box = h("div", { class: "tz-builds" }, h("h3", {}, t("The monsters of this generation")));
    for (const p of builds) {
      const label = p.seat === view.seat ? (BUILT_AS[view.my_choice] ? t(BUILT_AS[view.my_choice]) : t("Your monsters ({how})", { how: view.my_choice || t("built") })) : seatName(api, p.seat);
      let take = null;
      if (verb === "take") {
        take = (id) => (legal.includes(`take ${cardInfo(id).name}`) ? `take ${cardInfo(id).name}` : null);
        take.api = api;
      }
      box.append(buildGrid(p.build, label, take));
    }
    parts.push(box);
  }
  if (view.phase === "breed-hand" && view.taken.length) parts.push(h("p", { class: "muted" }, t("Taken by the winner: {cards}", { cards: view.taken.map((c) => cardName(cardInfo(c).name)).join(", ") })));

  // The end: each Gene Pool scored as monsters.
  const finals = view.players.filter((p) => p.final);
  if (finals.length) {
    parts.push(
      h(
        "div",
        { class: "tz-final" },
        h("h3", {}, t("Final Gene Pools")),
        ...finals.map((p) =>
          h(
            "p",
            {},
            h("strong", {}, seatName(api, p.seat)),
            ": " + tn("{n} card in monsters", "{n} cards in monsters", p.final.cards),
            p.final.monsters && Object.keys(p.final.monsters).length ? h("span", { class: "muted" }, ` (${Object.entries(p.final.monsters).map(([k, v]) => t(COLOUR_NAME[k] || k) + " " + v).join(", ")})`) : "",
            // The solver ran out of its search budget: say so, never pass it off as proven.
            p.final.exact === false ? h("span", { class: "tz-inexact", title: t("the search stopped before proving this is the largest") }, (" — " + t("not proven the largest possible (search budget ran out)"))) : "",
          ),
        ),
      ),
    );
  }
  // In place: a redraw keeps the buttons a person may be pressing (morph.js).
  morph(root, [h("div", { class: "tz-page" }, ...parts)]);
}
