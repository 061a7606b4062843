// M.E.A.T.'s table page: the draft row, both sides' three lanes (face down
// during Tactics, revealed after), vitality, Telestarion, your hand, the
// instant stack and the battle summaries. Placing a creature: drag it from
// your hand onto a lane, or click it and then the lane (the grouped buttons
// below do the same).
import { getJSON, h, pageStyle } from "../js/api.js";
import { card, cardNoun, colourOf, svg } from "../js/cards.js";
import { actionLabel, statusLine } from "../js/generic.js";
import { morph } from "../js/morph.js";

pageStyle("meat", import.meta.url); // its stylesheet sits next to it

// Translation: js/i18n.js sets globalThis.t (and tn for plurals); until it
// has loaded, the English source text with its {name} placeholders filled.
const fill = (s, p) => String(s).replace(/\{(\w+)\}/g, (_, k) => (p && k in p ? p[k] : "{" + k + "}"));
const t = (s, p) => (globalThis.t ? globalThis.t(s, p) : fill(s, p));
const N_ = (s) => s; // marks a message for the catalogue; translated where it is shown
// A log entry's line in the page's language (the server sends both; "text" is English).
const lineOf = (e) => (e.texts && globalThis.lang && e.texts[globalThis.lang()]) || e.text;
// A card's or a leader's text in the page's language (the card list sends each language).
const textOf = (c) => (c.texts && globalThis.lang && c.texts[globalThis.lang()]) || c.text;
// The cards are named in Polish, the original game's language (cards.toml);
// their English name ("en") is shown beside it on a page in any other language.
const CARD_LANGUAGE = "pl";
const otherName = (c) => (c && c.en && c.en !== c.name && !(globalThis.lang && globalThis.lang() === CARD_LANGUAGE) ? c.en : "");

// The legal actions as buttons in named groups; an aimed action ("resolve X
// @ s1 front") sits in a row of its own card, one button per target.
function actionGroups(legal, groups, api, view, state) {
  const box = h("div", { class: "actions meat-actions", role: "group", "aria-label": t("your legal actions") });
  const rest = new Set(legal);
  const button = (a, text) => h("button", { type: "button", class: "action", "data-action": a, onclick: () => api.act(a) }, text);
  // The server's label says it in the page's language with the card declined
  // ("połóż Bobra na pozycji: lewa flanka"); the page's own words otherwise.
  const said = (a) => {
    const label = actionLabel(state, a);
    return label !== a ? label : labelOf(a);
  };
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
    const row = h("div", { class: "action-group", "data-group": name }, h("span", { class: "verb" }, t(name)), ...plain.map((a) => button(a, said(a))));
    for (const [what, list] of aimed) {
      row.append(h("span", { class: "meat-aim" }, h("span", { class: "meat-aim-what" }, `${labelOf(what)} →`), ...list.map((a) => button(a, targetLabel(api, a.slice(what.length), view)))));
    }
    box.append(row);
  }
  return box;
}

// -- the card list -----------------------------------------------------------------------
// Hands and the draft row hold card names only. When the server offers the
// game's card list (``bestiary cards meat`` as JSON), cards show their
// cost, attack, defence and text; otherwise the name alone.
const catalog = { cards: null, leaders: null, asked: false, last: null };
function askCatalog() {
  if (catalog.asked) return;
  catalog.asked = true;
  getJSON("/api/games/meat/cards")
    .then((c) => {
      const by = new Map();
      for (const x of c.creatures || []) by.set(x.name, { ...x, type: "creature" });
      for (const x of c.destiny || []) by.set(x.name, x);
      catalog.cards = by;
      catalog.leaders = new Map((c.leaders || []).map((x) => [x.name, x]));
      if (catalog.last) render(...catalog.last);
    })
    .catch(() => {}); // no card list: names only
}

const LANES = ["left", "front", "right"];
const LANE_NAME = { left: N_("left flank"), front: N_("front"), right: N_("right flank") };
const KEYWORD_HELP = {
  REFLEX: N_("REFLEX: strikes first; a creature it kills deals no damage"),
  TOXIN: N_("TOXIN: any damage it deals kills"),
  CLEAVE: N_("CLEAVE: also hits the enemy creatures beside its target"),
  CHALLENGE: N_("CHALLENGE: takes the damage aimed at the friendly creatures beside it"),
  REVEAL: N_("REVEAL: its ability fires when it is turned face up"),
  FUSION: N_("FUSION: equipment attached to any creature, which gains its stats and text"),
  INSTANT: N_("INSTANT: cast from your hand in the Tactics, Activation or Battle windows"),
  "♦": N_("♦N: an ability used once a round, paying N Telestarion"),
};
// The keywords as the manual names them (REFLEKS, TOKSYNA, CIĘCIE, WYZWANIE).
const KEYWORD_NAME = { REFLEX: N_("REFLEX"), TOXIN: N_("TOXIN"), CLEAVE: N_("CLEAVE"), CHALLENGE: N_("CHALLENGE") };
const DSTATUS = { "face down": N_("face down"), paid: N_("paid"), armed: N_("armed"), unpaid: N_("unpaid") };
const PHASE_NAME = { leaders: N_("leaders"), draft: N_("draft"), "hand limit": N_("hand limit"), tactics: N_("tactics"), instants: N_("instants"), activation: N_("activation"), responses: N_("responses"), paying: N_("paying"), battle: N_("battle"), summary: N_("summary"), over: N_("over") };
const RARITY = { common: N_("common"), rare: N_("rare"), epic: N_("epic"), mythic: N_("mythic") };
// A destiny card's kind, on its banner and in its help.
const KIND_NAME = { spell: N_("spell"), instant: N_("instant spell"), equipment: N_("equipment") };
const kindOf = (c) => t(KIND_NAME[c.instant ? "instant" : c.type === "spell" ? "spell" : "equipment"]);
// The INSTANT window open now: after the Tactics or before the battle (as the log says).
const WINDOW_NAME = { tactics: N_("after the Tactics"), battle: N_("before the battle") };

// The full text of a card (hover or long-press: js/help.js), from the card list.
function cardHelp(name) {
  const c = catalog.cards && catalog.cards.get(name);
  if (!c) return name;
  const lines = [otherName(c) ? `${name} (${otherName(c)})` : name];
  if (c.type === "creature") lines.push(t("Creature · {faction} · {rarity} · cost {cost} · attack {attack} · defence {defence}", { faction: c.faction, rarity: t(RARITY[c.rarity] || c.rarity), cost: c.cost, attack: c.attack, defence: c.defence }));
  else lines.push(t("{kind} · {rarity} · cost {cost}", { kind: kindOf(c), rarity: t(RARITY[c.rarity] || c.rarity), cost: c.cost }) + (c.attack || c.defence ? " · " + t("attack {attack} · defence {defence}", { attack: c.attack, defence: c.defence }) : ""));
  if (c.text) lines.push(textOf(c));
  for (const [k, v] of Object.entries(KEYWORD_HELP)) if (c.text && c.text.toUpperCase().includes(k)) lines.push("• " + t(v));
  return lines.join("\n");
}
const GROUPS = [
  [N_("Leader"), (a) => a.startsWith("leader ")],
  [N_("Draft"), (a) => a.startsWith("draft ")],
  [N_("Place a creature"), (a) => a.startsWith("place ")],
  [N_("Set a destiny card"), (a) => a.startsWith("set ")],
  [N_("Instants"), (a) => a.startsWith("cast ")],
  [N_("Resolve"), (a) => a.startsWith("resolve ")],
  [N_("Abilities"), (a) => a.startsWith("ability ")],
  [N_("Hand limit"), (a) => a.startsWith("discard ")],
  [N_("Pay"), (a) => a.startsWith("pay ")],
  [N_("Done"), (a) => a === "done" || a === "pass"],
];

// A button's text: the action in words (the card names stay as the data
// gives them); a leader's button also says what the leader does.
function labelOf(a) {
  let m;
  if ((m = /^leader (.+)$/.exec(a))) {
    const l = catalog.leaders && catalog.leaders.get(m[1]);
    return l ? `${m[1]} — ${textOf(l)}` : m[1];
  }
  // A creature's ability is named by the lane it stands in (before its target).
  if ((m = /^ability (left|front|right)$/.exec(a))) return t("use the ♦ ability of your creature on the {lane}", { lane: t(LANE_NAME[m[1]]) });
  if ((m = /^(draft|place|set|cast|resolve|ability|discard|pay) (.+)$/.exec(a))) {
    const verb = { draft: N_("draft {card}"), place: N_("place {card}"), set: N_("set {card}"), cast: N_("cast {card}"), resolve: N_("resolve {card}"), ability: N_("use {card}'s ability"), discard: N_("discard {card}"), pay: N_("pay for {card}") }[m[1]];
    return t(verb, { card: cardNoun(m[2]) });
  }
  if (a === "done") return t("done");
  if (a === "pass") return t("pass");
  return a;
}

function seatName(api, seat) {
  return api.seatLabel ? api.seatLabel(seat) : `seat ${seat}`;
}

// A lane by whose it is, from the viewer's seat: "your left flank", "their
// right flank" (the seat across), else "Ala's front". Whole phrases per lane:
// in Polish the adjective agrees with the lane ("twoja flanka", "twój front").
const YOUR_LANE = { left: N_("your left flank"), front: N_("your front"), right: N_("your right flank") };
const THEIR_LANE = { left: N_("their left flank"), front: N_("their front"), right: N_("their right flank") };
// ``short``: a lane's label under a row that already names its seat.
function laneOf(view, api, seat, lane, short = false) {
  if (view && seat === view.seat) return t(YOUR_LANE[lane]);
  if (view && view.team !== null && view.team !== undefined && (seat & 1) !== view.team) {
    // Only the seat across from me is "their" (2v2, 3v3: the others are named).
    if (view.seat === null || view.seat === undefined || seat === (view.seat ^ 1)) return t(THEIR_LANE[lane]);
  }
  return short ? t(LANE_NAME[lane]) : t("{name}'s {lane}", { name: seatName(api, seat), lane: t(LANE_NAME[lane]) });
}

// A slot as a target: the creature on it and whose lane it is, as the log
// names it ("Nekromutant (seat 1's right flank)").
function slotLabel(view, api, seat, lane) {
  const place = laneOf(view, api, seat, lane);
  const row = view && (view.field || []).find((r) => r.seat === seat);
  const cr = row && row.creatures[LANES.indexOf(lane)];
  if (!cr) return place;
  if (!cr.card) return t("a face-down creature ({place})", { place });
  return t("{card} ({place})", { card: cr.card, place });
}

// " @ s1 front" -> "Rekrut (seat 1's front)"
function targetLabel(api, text, view) {
  const m = / @ s(\d+) (left|front|right)$/.exec(text);
  if (!m) return text;
  return slotLabel(view, api, Number(m[1]), m[2]);
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
    type: c ? (c.type === "creature" ? c.faction : kindOf(c)) : "",
    family: otherName(c) || undefined,
    cost: c ? c.cost : undefined,
    colour: c ? colourOf(c.faction || c.type) : "#5f6b7a",
    width: opts.width || 84,
    selected: opts.selected,
  });
  // The numbers it will fight with: its owner's leader's faction bonus counted
  // (render.py _stats; issue 29: the hand showed the printed ones).
  const lead = opts.leader && catalog.leaders && catalog.leaders.get(opts.leader);
  const boost = lead && lead.boost && c && c.faction === lead.boost[0] ? lead.boost : null;
  if (c && c.type === "creature") stats(el, c.attack + (boost ? boost[1] : 0), c.defence + (boost ? boost[2] : 0), 0);
  if (c && c.text) el.querySelector("title").textContent += ` — ${textOf(c)}`;
  if (boost) el.querySelector("title").textContent += " — " + t("{attack}/{defence} (leader {bonus})", { attack: c.attack + boost[1], defence: c.defence + boost[2], bonus: `${boost[1] >= 0 ? "+" : ""}${boost[1]}/${boost[2] >= 0 ? "+" : ""}${boost[2]}` });
  el.setAttribute("data-help", cardHelp(name));
  return el;
}

// A creature on the battlefield as its owner (or everyone, once up) sees it.
function creatureCard(cr) {
  if (!cr.card) {
    const down = card({ faceDown: true, width: 84 });
    down.setAttribute("data-help", t("A face-down creature: turned up in Activation."));
    return down;
  }
  const el = card({ name: cr.card, type: cr.faction, family: cr.keywords.length ? cr.keywords.map((k) => t(KEYWORD_NAME[k] || k)).join(" ") : otherName({ name: cr.card, en: cr.en }) || undefined, colour: colourOf(cr.faction), width: 84 });
  el.setAttribute("tabindex", "0"); // a keyboard reaches its text too (js/help.js)
  // A new key makes morph() draw a new element, so its arrival (or a hit: more
  // damage) plays its short animation once (meat.css).
  el.setAttribute("data-key", `${cr.card}:${cr.damage}:${cr.face_up ? 1 : 0}`);
  if (cr.damage) el.classList.add("meat-struck");
  stats(el, cr.attack, cr.defence - cr.damage, cr.damage);
  // Keywords it has now (printed or granted by a card), each with what it does.
  const base = cardHelp(cr.card);
  const granted = (cr.keywords || []).filter((k) => KEYWORD_HELP[k] && !base.includes(t(KEYWORD_HELP[k]))).map((k) => "\n• " + t(KEYWORD_HELP[k])).join("");
  el.setAttribute("data-help", base + granted + "\n" + t("Now: attack {attack}, defence {defence} (damage {damage})", { attack: cr.attack, defence: cr.defence - cr.damage, damage: cr.damage }) + (cr.equipment && cr.equipment.length ? "\n" + t("Equipment: {cards}", { cards: cr.equipment.join(", ") }) : ""));
  if (!cr.face_up) {
    el.classList.add("meat-hidden");
    el.append(svg("rect", { x: 2, y: 84, width: 96, height: 14, fill: "#2d2a4aCC" }));
    el.append(svg("text", { x: 50, y: 94.5, "text-anchor": "middle", "font-size": 9, fill: "#e9b949" }, t("FACE DOWN")));
  }
  return el;
}

// -- the page ------------------------------------------------------------------------------
let selected = null; // a hand card picked for placement (click, then a lane)

function leaderHelp(name) {
  const l = catalog.leaders && catalog.leaders.get(name);
  return l ? `${name}${otherName(l) ? ` (${otherName(l)})` : ""}\n${textOf(l)}` : name;
}

// The cards a seat of my team has laid face down in Tactics are still in its
// hand in the view (until everyone is done); the page shows them in the lanes
// and the destiny row only, so "Your hand" lists what is really left.
function pendingOf(view, seat) {
  const p = view.tactics && view.tactics[String(seat)];
  return p ? [...p.creatures.filter(Boolean), ...p.destiny] : [];
}

function handLeft(view, seat) {
  const hand = view.hands && view.hands[String(seat)];
  if (!hand) return null;
  const out = [...hand];
  for (const name of pendingOf(view, seat)) {
    const i = out.indexOf(name);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

function handCount(view, seat) {
  const left = handLeft(view, seat);
  return left ? left.length : view.hand_sizes[seat];
}

// Leader choice: each leader as a card-like button with what it does.
function leaderPanel(view, state, api) {
  const acts = (state.legal || []).filter((a) => a.startsWith("leader "));
  if (!acts.length) return null;
  return h(
    "div",
    { class: "meat-leaders", "data-group": "Leader" },
    h("h3", {}, t("Choose your leader: a passive ability for the whole game")),
    h(
      "div",
      { class: "meat-leader-list" },
      ...acts.map((a) => {
        const name = a.slice(7);
        const l = catalog.leaders && catalog.leaders.get(name);
        return h(
          "button",
          { type: "button", class: "meat-leader-card", "data-action": a, "data-help": leaderHelp(name), onclick: () => api.act(a) },
          h("strong", {}, name),
          otherName(l) ? h("span", { class: "muted" }, ` (${otherName(l)})`) : "",
          h("span", { class: "meat-leader-text" }, l ? textOf(l) : t("(its text comes with the card list)")),
        );
      }),
    ),
  );
}

function vitalityBar(view, team, api) {
  const v = view.vitality[team];
  const max = Math.max(view.vitality_start, v, 1);
  const pct = Math.max(0, Math.min(100, (100 * v) / max));
  const seats = view.teams[team];
  return h(
    "div",
    { class: "meat-team" + (team === view.team ? " mine" : ""), "data-team": team },
    h("div", { class: "meat-team-name" }, h("strong", {}, team === view.team ? t("Your side") : view.team === null ? t("Team {n}", { n: team }) : t("The other side")), " · ", seats.map((s) => seatName(api, s)).join(", ")),
    h("div", { class: "meat-vit", title: t("vitality {v} of {max}", { v, max: view.vitality_start }) }, h("div", { class: "meat-vit-fill", style: `width: ${pct}%` }), h("span", { class: "meat-vit-text" }, t("vitality {v} / {max}", { v, max: view.vitality_start }))),
    h(
      "div",
      { class: "meat-seat-info" },
      ...seats.map((s) =>
        h(
          "span",
          { class: "meat-seat", "data-seat": s },
          h("strong", {}, seatName(api, s)),
          view.leaders[s] ? [" · ", h("span", { class: "meat-leader", "data-help": leaderHelp(view.leaders[s]), tabindex: "0" }, t("leader {name}", { name: view.leaders[s] }))] : "",
          " · ",
          h("span", { class: "meat-tel", title: t("Telestarion (ounces)") }, t("Telestarion {n}", { n: view.telestarion[s] })),
          " · ",
          t("hand {n}", { n: handCount(view, s) }),
          view.passed[s] && ["activation", "responses", "instants"].includes(view.phase) ? h("span", { class: "meat-badge" }, t("passed")) : "",
        ),
      ),
    ),
  );
}

// ``mirrored``: the row of a seat across the table, drawn right to left so
// that each of its creatures stands over the one it fights (effects.opposite:
// seat s's lane x fights seat s^1's lane 2-x; "your left flank fights their
// right flank").
function sideRow(view, row, state, api, mirrored = false) {
  const mine = view.team !== null && (row.seat & 1) === view.team;
  const pending = view.tactics[String(row.seat)];
  const legal = state.legal || [];
  const lanes = (mirrored ? [...LANES].reverse() : LANES).map((lane) => {
    const x = LANES.indexOf(lane);
    const cr = row.creatures[x];
    let content;
    if (cr) content = creatureCard(cr);
    else if (pending && pending.creatures[x]) {
      content = namedCard(pending.creatures[x]);
      content.classList.add("meat-planned");
    } else content = h("div", { class: "meat-empty" }, t("empty"));
    // My lanes accept the picked (or dragged) creature. The drop handlers
    // go through h() so a redraw that keeps the lane moves them to it.
    const mineHere = row.seat === view.seat;
    const drops = mineHere
      ? {
          ondragover: (e) => {
            if (e.dataTransfer.types.includes("text/plain")) e.preventDefault();
          },
          ondrop: (e) => {
            e.preventDefault();
            const a = `place ${e.dataTransfer.getData("text/plain")} ${lane}`;
            if (legal.includes(a)) {
              selected = null;
              api.act(a);
            }
          },
        }
      : {};
    const slot = h("div", { class: "meat-lane", "data-lane": lane, "data-seat": row.seat, ...drops }, h("div", { class: "meat-lane-name" }, laneOf(view, api, row.seat, lane, true)), content);
    if (mineHere) {
      const act = selected && `place ${selected} ${lane}`;
      if (act && legal.includes(act)) {
        slot.classList.add("meat-drop");
        slot.append(h("button", { type: "button", class: "small meat-place", "data-action": act, onclick: () => ((selected = null), api.act(act)) }, t("place here")));
      }
    }
    return slot;
  });
  // Destiny cards as small cards (face down until turned up), their state under each.
  const destinyCard = (name, status, label) => {
    const el = name ? namedCard(name, { width: 64 }) : card({ faceDown: true, width: 64 });
    if (!name) el.setAttribute("data-help", t("A face-down destiny card."));
    return h("span", { class: `meat-destiny ${status}`, "data-card": name || undefined, "data-help": el.getAttribute("data-help"), tabindex: "0" }, el, h("small", {}, label));
  };
  const destiny = row.destiny.map((d) => destinyCard(d.card, d.status.replace(" ", "-"), t(DSTATUS[d.status] || d.status)));
  if (pending) for (const d of pending.destiny) destiny.push(destinyCard(d, "planned", t("planned")));
  return h(
    "div",
    { class: "meat-side" + (mine ? " mine" : "") + (mirrored ? " across" : ""), "data-seat": row.seat },
    h("div", { class: "meat-side-name" }, seatName(api, row.seat), row.seat === view.seat ? (" " + t("(you)")) : ""),
    h("div", { class: "meat-lanes" }, ...lanes),
    h("div", { class: "meat-destinies" }, h("span", { class: "muted" }, t("destiny:") + " "), destiny.length ? destiny : h("span", { class: "muted" }, t("none"))),
  );
}

// The battlefield as the players sit: each seat faces one seat of the other
// side across the table (seats s and s^1; rulebook: "each of them has one
// opponent opposite"). One block per facing pair, the other side's row on
// top and mirrored, so every creature is drawn in the column of the one it
// fights; the viewer's own pair first.
function battlefield(view, state, api) {
  const near = view.team === null || view.team === undefined ? 0 : view.team; // spectators: team 0 below
  const bySeat = new Map(view.field.map((r) => [r.seat, r]));
  const pairs = [];
  for (let s = 0; s < view.field.length; s += 2) {
    const below = (s & 1) === near ? s : s ^ 1;
    if (bySeat.has(below) && bySeat.has(below ^ 1)) pairs.push([below ^ 1, below]);
  }
  pairs.sort((a, b) => (b.includes(view.seat) ? 1 : 0) - (a.includes(view.seat) ? 1 : 0));
  return h(
    "div",
    { class: "meat-field" },
    h("h3", {}, t("The battlefield"), " ", h("span", { class: "muted meat-field-hint" }, t("each creature fights the one drawn across from it"))),
    h(
      "div",
      { class: "meat-pairs" },
      ...pairs.map(([top, bottom]) => h("div", { class: "meat-pair", "data-seats": `${top} ${bottom}` }, sideRow(view, bySeat.get(top), state, api, true), sideRow(view, bySeat.get(bottom), state, api, false))),
    ),
  );
}

function stackPanel(view, api) {
  if (!view.stack.length) return null;
  const items = [...view.stack].reverse().map((s, i) => {
    const target = s.target_card ? t("answers {card}", { card: cardNoun(s.target_card) }) : s.target >= 0 ? "→ " + slotLabel(view, api, Math.floor(s.target / 3), LANES[s.target % 3]) : "";
    return h("li", { class: i === 0 ? "top" : "", "data-help": cardHelp(s.card), tabindex: "0" }, namedCard(s.card, { width: 52 }), h("span", { class: "meat-stack-text" }, h("strong", {}, s.card), (" " + t("by {name}", { name: seatName(api, s.seat) }) + " "), target, i === 0 ? h("span", { class: "meat-badge" }, t("resolves first")) : ""));
  });
  return h("div", { class: "meat-stack" }, h("h3", {}, t("The instant stack (top first)")), h("ol", {}, ...items));
}

function summaries(state, api) {
  const sums = (state.log || []).filter((e) => e.event.kind === "summary").slice(-2);
  if (!sums.length) return null;
  return h(
    "div",
    { class: "meat-summaries" },
    h("h3", {}, t("Battle summaries")),
    ...sums.reverse().map((e) => h("p", {}, lineOf(e), " ", ...(e.event.dice || []).map((d) => h("span", { class: "meat-die" }, String(d))))),
  );
}

function handPanel(view, state, api) {
  const hand = handLeft(view, view.seat);
  if (!hand) return null;
  const laid = pendingOf(view, view.seat).length;
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
        title: placeable ? t("drag onto a lane, or click then pick a lane") : single.length ? single[0] : name,
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
      namedCard(name, { selected: selected === name, leader: view.leaders && view.leaders[view.seat] }),
    );
    return el;
  });
  return h(
    "div",
    { class: "meat-hand" },
    h("h3", {}, t("Your hand ({n})", { n: hand.length }), laid ? h("span", { class: "muted" }, (" — " + t("{n} laid face down this Tactics phase", { n: laid }))) : ""),
    h("div", { class: "cards" }, ...cards),
  );
}

function draftPanel(view, state, api) {
  if (!view.draft_row.length) return null;
  const legal = state.legal || [];
  return h(
    "div",
    { class: "meat-draft" },
    h("h3", {}, t("The draft row — order: {order}", { order: view.draft_order.map((s) => seatName(api, s)).join(", ") })),
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
      leaders: t("Choose your leader: each one helps you for the whole game (read them below)."),
      draft: t("Draft a creature from the row (it costs Telestarion)."),
      "hand limit": t("Too many cards: discard down to the hand limit."),
      tactics: t("Tactics: place your creatures face down in the three lanes (drag or click a card, then a lane), set destiny cards, then done."),
      instants: t("A window for instants: cast one, or pass."),
      activation: t("Activation: resolve your destiny cards and creature abilities, or pass."),
      responses: t("A spell is on the stack: answer it with an instant, or pass."),
      paying: t("You cannot pay for every destiny card: choose which to pay for."),
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
    h("p", { class: "meat-round" }, h("strong", {}, t("Round {n}", { n: view.round })), " · ", t("phase: {phase}", { phase: t(PHASE_NAME[view.phase] || view.phase) }), view.window ? ` (${t(WINDOW_NAME[view.window] || view.window)})` : "", " · ", t("decks: {creatures} creatures, {destiny} destiny", { creatures: view.decks.creature, destiny: view.decks.destiny }), view.winner_team !== null ? h("span", { class: "meat-badge win" }, view.winner_team === view.team ? t("your side wins") : view.team === null ? t("team {n} wins", { n: view.winner_team }) : t("the other side wins")) : ""),
    h("div", { class: "meat-teams" }, ...teams.map((t) => vitalityBar(view, t, api))),
    ask ? h("p", { class: "meat-prompt" }, ask) : null,
    leaderPanel(view, state, api),
    actionGroups(legal.filter((a) => !a.startsWith("leader ")), GROUPS, api, view, state),
    stackPanel(view, api),
    draftPanel(view, state, api),
    battlefield(view, state, api),
    handPanel(view, state, api),
    summaries(state, api),
    h("p", { class: "muted meat-drafted" }, t("Drafted this round:") + " ", view.drafted.map((d, s) => `${seatName(api, s)}: ${d.join(", ") || "—"}`).join(" · ")),
  ];
  // In place: a redraw keeps the buttons a person may be pressing (morph.js).
  morph(root, [h("div", { class: "meat-page" }, ...parts.filter(Boolean))]);
}
