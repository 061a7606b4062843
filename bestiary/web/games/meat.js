// M.E.A.T.'s table page: the draft row, both sides' three lanes (face down
// during Tactics, revealed after), vitality, Telestarion, your hand, the
// instant stack and the battle summaries. Placing a creature: drag it from
// your hand onto a lane, or click it and then the lane (the grouped buttons
// below do the same).
import { getJSON, h, pageStyle } from "../js/api.js";
import { card, colourOf, svg } from "../js/cards.js";
import { statusLine } from "../js/generic.js";

pageStyle("meat", import.meta.url); // its stylesheet sits next to it

// The legal actions as buttons in named groups; an aimed action ("resolve X
// @ s1 front") sits in a row of its own card, one button per target.
function actionGroups(legal, groups, api) {
  const box = h("div", { class: "actions meat-actions", role: "group", "aria-label": "your legal actions" });
  const rest = new Set(legal);
  const button = (a, text) => h("button", { type: "button", class: "action", "data-action": a, onclick: () => api.act(a) }, text);
  for (const [name, test] of [...groups, ["Other", () => true]]) {
    const acts = [...rest].filter(test);
    if (!acts.length) continue;
    acts.forEach((a) => rest.delete(a));
    const plain = acts.filter((a) => !a.includes(" @ "));
    const aimed = new Map();
    for (const a of acts.filter((x) => x.includes(" @ "))) {
      const [what] = a.split(" @ ");
      if (!aimed.has(what)) aimed.set(what, []);
      aimed.get(what).push(a);
    }
    const row = h("div", { class: "action-group", "data-group": name }, h("span", { class: "verb" }, name), ...plain.map((a) => button(a, a)));
    for (const [what, list] of aimed) {
      row.append(h("span", { class: "meat-aim" }, h("span", { class: "meat-aim-what" }, `${what} →`), ...list.map((a) => button(a, targetLabel(api, a.slice(what.length))))));
    }
    box.append(row);
  }
  return box;
}

// -- the card list -----------------------------------------------------------------------
// Hands and the draft row hold card names only. When the server offers the
// game's card list (``bestiary cards meat`` as JSON), cards show their
// cost, attack, defence and text; otherwise the name alone.
const catalog = { cards: null, asked: false, last: null };
function askCatalog() {
  if (catalog.asked) return;
  catalog.asked = true;
  getJSON("/api/games/meat/cards")
    .then((c) => {
      const by = new Map();
      for (const x of c.creatures || []) by.set(x.name, { ...x, type: "creature" });
      for (const x of c.destiny || []) by.set(x.name, x);
      catalog.cards = by;
      if (catalog.last) render(...catalog.last);
    })
    .catch(() => {}); // no card list: names only
}

const LANES = ["left", "front", "right"];
const GROUPS = [
  ["Leader", (a) => a.startsWith("leader ")],
  ["Draft", (a) => a.startsWith("draft ")],
  ["Place a creature", (a) => a.startsWith("place ")],
  ["Set a destiny card", (a) => a.startsWith("set ")],
  ["Instants", (a) => a.startsWith("cast ")],
  ["Resolve", (a) => a.startsWith("resolve ")],
  ["Abilities", (a) => a.startsWith("ability ")],
  ["Hand limit", (a) => a.startsWith("discard ")],
  ["Done", (a) => a === "done" || a === "pass"],
];

function seatName(api, seat) {
  return api.seatLabel ? api.seatLabel(seat) : `seat ${seat}`;
}

// " @ s1 front" -> "seat 1's front creature"
function targetLabel(api, text) {
  const m = / @ s(\d+) (left|front|right)$/.exec(text);
  if (!m) return text;
  const seat = Number(m[1]);
  const you = api.seat === seat ? "your" : `${seatName(api, seat)}'s`;
  return `${you} ${m[2]}`;
}

function stats(svgEl, attack, defence, damage) {
  if (attack !== undefined && attack !== null) {
    svgEl.append(svg("circle", { cx: 16, cy: 126, r: 10, fill: "#b3261e" }));
    svgEl.append(svg("text", { x: 16, y: 130.5, "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: "#fff" }, String(attack)));
  }
  if (defence !== undefined && defence !== null) {
    svgEl.append(svg("path", { d: "M40 117 L56 117 L56 128 L48 136 L40 128 Z", fill: "#2f5f90" }));
    svgEl.append(svg("text", { x: 48, y: 130, "text-anchor": "middle", "font-size": 11, "font-weight": "bold", fill: "#fff" }, String(defence)));
  }
  if (damage) {
    svgEl.append(svg("rect", { x: 60, y: 52, width: 36, height: 14, rx: 3, fill: "#b3261e" }));
    svgEl.append(svg("text", { x: 78, y: 62.5, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, `−${damage} dmg`));
  }
  return svgEl;
}

// A card by name (hand, draft row, stack): whatever the card list knows.
function namedCard(name, opts = {}) {
  const c = catalog.cards && catalog.cards.get(name);
  const el = card({
    name,
    type: c ? (c.type === "creature" ? c.faction : c.instant ? `${c.type} · instant` : c.type) : "",
    family: c ? c.en : undefined,
    cost: c ? c.cost : undefined,
    colour: c ? colourOf(c.faction || c.type) : "#5f6b7a",
    width: opts.width || 84,
    selected: opts.selected,
  });
  if (c && c.type === "creature") stats(el, c.attack, c.defence, 0);
  if (c && c.text) el.querySelector("title").textContent += ` — ${c.text}`;
  return el;
}

// A creature on the battlefield as its owner (or everyone, once up) sees it.
function creatureCard(cr) {
  if (!cr.card) return card({ faceDown: true, width: 84 });
  const el = card({ name: cr.card, type: cr.faction, family: cr.keywords.length ? cr.keywords.join(" ") : cr.en, colour: colourOf(cr.faction), width: 84 });
  stats(el, cr.attack, cr.defence - cr.damage, cr.damage);
  if (!cr.face_up) {
    el.classList.add("meat-hidden");
    el.append(svg("rect", { x: 2, y: 84, width: 96, height: 14, fill: "#2d2a4aCC" }));
    el.append(svg("text", { x: 50, y: 94.5, "text-anchor": "middle", "font-size": 9, fill: "#e9b949" }, "FACE DOWN"));
  }
  return el;
}

// -- the page ------------------------------------------------------------------------------
let selected = null; // a hand card picked for placement (click, then a lane)

function vitalityBar(view, team, api) {
  const v = view.vitality[team];
  const max = Math.max(view.vitality_start, v, 1);
  const pct = Math.max(0, Math.min(100, (100 * v) / max));
  const seats = view.teams[team];
  return h(
    "div",
    { class: "meat-team" + (team === view.team ? " mine" : ""), "data-team": team },
    h("div", { class: "meat-team-name" }, h("strong", {}, team === view.team ? "Your side" : view.team === null ? `Team ${team}` : "The other side"), " · ", seats.map((s) => seatName(api, s)).join(", ")),
    h("div", { class: "meat-vit", title: `vitality ${v} of ${view.vitality_start}` }, h("div", { class: "meat-vit-fill", style: `width: ${pct}%` }), h("span", { class: "meat-vit-text" }, `vitality ${v} / ${view.vitality_start}`)),
    h(
      "div",
      { class: "meat-seat-info" },
      ...seats.map((s) =>
        h(
          "span",
          { class: "meat-seat", "data-seat": s },
          h("strong", {}, seatName(api, s)),
          view.leaders[s] ? ` · leader ${view.leaders[s]}` : "",
          " · ",
          h("span", { class: "meat-tel", title: "Telestarion (ounces)" }, `Telestarion ${view.telestarion[s]}`),
          ` · hand ${view.hand_sizes[s]}`,
          view.passed[s] && ["activation", "responses", "instants"].includes(view.phase) ? h("span", { class: "meat-badge" }, "passed") : "",
        ),
      ),
    ),
  );
}

function sideRow(view, row, state, api) {
  const mine = view.team !== null && (row.seat & 1) === view.team;
  const pending = view.tactics[String(row.seat)];
  const legal = state.legal || [];
  const lanes = LANES.map((lane, x) => {
    const cr = row.creatures[x];
    let content;
    if (cr) content = creatureCard(cr);
    else if (pending && pending.creatures[x]) {
      content = namedCard(pending.creatures[x]);
      content.classList.add("meat-planned");
    } else content = h("div", { class: "meat-empty" }, "empty");
    const slot = h("div", { class: "meat-lane", "data-lane": lane, "data-seat": row.seat }, h("div", { class: "meat-lane-name" }, lane), content);
    // My lanes accept the picked (or dragged) creature.
    if (row.seat === view.seat) {
      const act = selected && `place ${selected} ${lane}`;
      if (act && legal.includes(act)) {
        slot.classList.add("meat-drop");
        slot.append(h("button", { type: "button", class: "small meat-place", "data-action": act, onclick: () => ((selected = null), api.act(act)) }, `place here`));
      }
      slot.addEventListener("dragover", (e) => {
        const name = e.dataTransfer.types.includes("text/plain") ? true : false;
        if (name) e.preventDefault();
      });
      slot.addEventListener("drop", (e) => {
        e.preventDefault();
        const a = `place ${e.dataTransfer.getData("text/plain")} ${lane}`;
        if (legal.includes(a)) {
          selected = null;
          api.act(a);
        }
      });
    }
    return slot;
  });
  const destiny = row.destiny.map((d) => h("span", { class: `meat-destiny ${d.status.replace(" ", "-")}` }, d.card ? `${d.card}` : "?", h("small", {}, ` ${d.status}`)));
  if (pending) for (const d of pending.destiny) destiny.push(h("span", { class: "meat-destiny planned" }, d, h("small", {}, " planned")));
  return h(
    "div",
    { class: "meat-side" + (mine ? " mine" : ""), "data-seat": row.seat },
    h("div", { class: "meat-side-name" }, seatName(api, row.seat), row.seat === view.seat ? " (you)" : ""),
    h("div", { class: "meat-lanes" }, ...lanes),
    h("div", { class: "meat-destinies" }, h("span", { class: "muted" }, "destiny: "), destiny.length ? destiny : h("span", { class: "muted" }, "none")),
  );
}

function battlefield(view, state, api) {
  // The other side on top, yours at the bottom (facing each other).
  const rows = [...view.field].sort((a, b) => ((a.seat & 1) === view.team) - ((b.seat & 1) === view.team) || a.seat - b.seat);
  return h("div", { class: "meat-field" }, h("h3", {}, "The battlefield"), ...rows.map((r) => sideRow(view, r, state, api)));
}

function stackPanel(view, api) {
  if (!view.stack.length) return null;
  const items = [...view.stack].reverse().map((s, i) => {
    const target = s.target_card ? `answers ${s.target_card}` : s.target >= 0 ? `→ ${seatName(api, Math.floor(s.target / 3))}, ${LANES[s.target % 3]}` : "";
    return h("li", { class: i === 0 ? "top" : "" }, h("strong", {}, s.card), ` by ${seatName(api, s.seat)} `, target, i === 0 ? h("span", { class: "meat-badge" }, "resolves first") : "");
  });
  return h("div", { class: "meat-stack" }, h("h3", {}, "The instant stack (top first)"), h("ol", {}, ...items));
}

function summaries(state, api) {
  const sums = (state.log || []).filter((e) => e.event.kind === "summary").slice(-2);
  if (!sums.length) return null;
  return h(
    "div",
    { class: "meat-summaries" },
    h("h3", {}, "Battle summaries"),
    ...sums.reverse().map((e) => h("p", {}, e.text, " ", ...(e.event.dice || []).map((d) => h("span", { class: "meat-die" }, String(d))))),
  );
}

function handPanel(view, state, api) {
  const hand = view.hands[String(view.seat)];
  if (!hand) return null;
  const legal = state.legal || [];
  const cards = hand.map((name) => {
    const placeable = legal.some((a) => a.startsWith(`place ${name} `));
    const single = legal.filter((a) => a === `set ${name}` || a === `discard ${name}`);
    const el = h(
      "button",
      {
        type: "button",
        class: "card-button meat-card" + (placeable || single.length ? " usable" : ""),
        "data-card": name,
        "data-action": !placeable && single.length === 1 ? single[0] : undefined,
        draggable: placeable ? "true" : undefined,
        disabled: !(placeable || single.length),
        title: placeable ? "drag onto a lane, or click then pick a lane" : single.length ? single[0] : name,
        onclick: () => {
          if (placeable) {
            selected = selected === name ? null : name;
            render(...catalog.last);
          } else if (single.length === 1) api.act(single[0]);
        },
        ondragstart: (e) => {
          dragStarted();
          e.dataTransfer.setData("text/plain", name);
        },
        ondragend: dragEnded,
      },
      namedCard(name, { selected: selected === name }),
    );
    return el;
  });
  return h("div", { class: "meat-hand" }, h("h3", {}, `Your hand (${hand.length})`), h("div", { class: "cards" }, ...cards));
}

function draftPanel(view, state, api) {
  if (!view.draft_row.length) return null;
  const legal = state.legal || [];
  return h(
    "div",
    { class: "meat-draft" },
    h("h3", {}, `The draft row — order: ${view.draft_order.map((s) => seatName(api, s)).join(", ")}`),
    h(
      "div",
      { class: "cards" },
      ...view.draft_row.map((name) => {
        const act = `draft ${name}`;
        const ok = legal.includes(act);
        return h("button", { type: "button", class: "card-button meat-card", "data-action": ok ? act : undefined, disabled: !ok, title: act, onclick: () => api.act(act) }, namedCard(name));
      }),
    ),
  );
}

function prompt(view, state) {
  if (!state.yourTurn) return null;
  return (
    {
      leaders: "Choose your leader.",
      draft: "Draft a creature from the row (it costs Telestarion).",
      "hand limit": "Too many cards: discard down to the hand limit.",
      tactics: "Tactics: place your creatures face down in the three lanes (drag or click a card, then a lane), set destiny cards, then done.",
      instants: "A window for instants: cast one, or pass.",
      activation: "Activation: resolve your destiny cards and creature abilities, or pass.",
      responses: "A spell is on the stack: answer it with an instant, or pass.",
    }[view.phase] || null
  );
}

// A re-render in the middle of a drag would pull the card from under the
// pointer: updates wait until the drop (or the drag's end).
const drag = { on: false };
function dragStarted() {
  drag.on = true;
}
function dragEnded() {
  drag.on = false;
  if (catalog.last) setTimeout(() => !drag.on && render(...catalog.last), 0);
}

export function render(root, state, api) {
  if (drag.on) {
    catalog.last = [root, state, api];
    return;
  }
  askCatalog();
  catalog.last = [root, state, api];
  const view = state.view;
  const legal = state.legal || [];
  if (selected && !legal.some((a) => a.startsWith(`place ${selected} `))) selected = null;
  const teams = view.team === null ? [0, 1] : [view.team ^ 1, view.team];
  const ask = prompt(view, state);
  const parts = [
    statusLine(state),
    h("p", { class: "meat-round" }, h("strong", {}, `Round ${view.round}`), ` · phase: ${view.phase}`, view.window ? ` (${view.window})` : "", ` · decks: ${view.decks.creature} creatures, ${view.decks.destiny} destiny`, view.winner_team !== null ? h("span", { class: "meat-badge win" }, `team ${view.winner_team} wins`) : ""),
    h("div", { class: "meat-teams" }, ...teams.map((t) => vitalityBar(view, t, api))),
    ask ? h("p", { class: "meat-prompt" }, ask) : null,
    actionGroups(legal, GROUPS, api),
    stackPanel(view, api),
    draftPanel(view, state, api),
    battlefield(view, state, api),
    handPanel(view, state, api),
    summaries(state, api),
    h("p", { class: "muted meat-drafted" }, "Drafted this round: ", view.drafted.map((d, s) => `${seatName(api, s)}: ${d.join(", ") || "—"}`).join(" · ")),
  ];
  root.replaceChildren(h("div", { class: "meat-page" }, ...parts.filter(Boolean)));
}
