// Monster Maker's table page: every player's corridor track (out to the
// treasure room and back), the monster in front of each, the battles' dice,
// your hand as cards, the treasures (others' hidden until OPEN or used) and
// the legal actions grouped by what they do.
import { getJSON, h, pageStyle, postJSON } from "../js/api.js";
import { card, cardName, cardNoun, svg } from "../js/cards.js";
import { actionLabel, statusLine } from "../js/generic.js";
import { morph } from "../js/morph.js";

pageStyle("monster-maker", import.meta.url); // its stylesheet sits next to it

// Translation: js/i18n.js sets globalThis.t (and tn for plurals); until it
// has loaded, the English source text with its {name} placeholders filled.
const fill = (s, p) => String(s).replace(/\{(\w+)\}/g, (_, k) => (p && k in p ? p[k] : "{" + k + "}"));
const t = (s, p) => (globalThis.t ? globalThis.t(s, p) : fill(s, p));
const N_ = (s) => s; // marks a message for the catalogue; translated where it is shown
const tn = (one, many, n, p) => (globalThis.tn ? globalThis.tn(one, many, n, { n, ...p }) : fill(n === 1 ? one : many, { n, ...p }));

// The last ``n`` log entries that ``test`` accepts, oldest first.
function recentEvents(state, test, n) {
  return (state.log || []).filter(test).slice(-n);
}

// Colours of the card kinds (the banner of each card).
const KIND_COLOUR = {
  corridor: "#7a5230",
  monster: "#b3261e",
  character: "#2f6fb5",
  spell: "#8a4fb0",
  detour: "#3f8f4a",
  trap: "#222222",
  card: "#5f6b7a",
};

// The card kinds' names as the page shows them (translated).
const KIND_NAME = { corridor: N_("corridor"), monster: N_("monster"), character: N_("character"), spell: N_("spell"), detour: N_("detour"), trap: N_("trap"), card: N_("card") };
const MTYPE_NAME = { human: N_("human"), undead: N_("undead"), general: N_("general") };

// The legal actions in groups by what they do (the game's text forms,
// actions.py), each group with its card kind, so a newcomer reads "play a
// corridor: Corridor 10, Corridor 20" instead of nineteen loose buttons.
// ``key`` (data-group) stays English: the tests and the CSS use it.
function actionPanel(legal, view, api) {
  const box = h("div", { class: "actions mm-actions", role: "group", "aria-label": t("your legal actions") });
  const rest = new Set(legal);
  const take = (test) => {
    const out = [...rest].filter(test);
    out.forEach((a) => rest.delete(a));
    return out;
  };
  const info = new Map((view.hand_cards || []).map((c) => [c.name, c]));
  // A card by its name in the page's language with what it is worth, "Wojownik (2D+1)";
  // a sentence may decline it ("walcz Wojownikiem (2D+1)": cardNoun).
  const strength = (name) => {
    const c = info.get(name);
    if (!c) return cardNoun(name);
    if (c.kind === "corridor") return cardNoun(name, ` (${c.value}p)`);
    if (c.kind === "monster") return cardNoun(name, ` (${c.value})`);
    return cardNoun(name, c.strength ? ` (${c.strength})` : "");
  };
  const who = (s) => seatName(api, Number(s));
  const button = (a, text, cls = "action") => h("button", { type: "button", class: cls, "data-action": a, title: last ? actionLabel(last[1], a) : a, onclick: () => ((selected = null), api.act(a)) }, text);
  const group = (key, title, hint, ...content) => {
    const items = content.flat().filter(Boolean);
    if (!items.length) return;
    box.append(h("div", { class: "action-group", "data-group": key }, h("span", { class: "verb" }, title), hint ? h("span", { class: "mm-hint" }, hint) : null, ...items));
  };
  // "cast Sleep by Fighter" -> rows "Sleep →" [by Fighter] [by Elf]
  const aimed = (acts, re, head, label) => {
    const by = new Map();
    for (const a of acts) {
      const m = re.exec(a);
      const k = m ? m[1] : a;
      if (!by.has(k)) by.set(k, []);
      by.get(k).push([a, m]);
    }
    return [...by].map(([k, list]) => h("span", { class: "mm-aim" }, h("span", { class: "mm-aim-what" }, head(k)), ...list.map(([a, m]) => button(a, m ? label(m) : a))));
  };
  group("Corridor", t("Walk on"), t("play a corridor card"), take((a) => a.startsWith("play ")).map((a) => button(a, String(strength(a.slice(5))))));
  const places = take((a) => a.startsWith("place "));
  group("Monster", t("Block an opponent"), t("put a monster in front of their corridor"), aimed(places, /^place (.+) before seat (\d+)$/, (k) => `${String(strength(k))} →`, (m) => t("before {name}", { name: who(m[2]) })));
  group(
    "Battle",
    t("Battle"),
    t("add characters, spells and weapons, then roll"),
    take((a) => a.startsWith("dispel with ")).map((a) => button(a, t("dispel with {card}", { card: cardNoun(a.slice(12)) }))),
    take((a) => a.startsWith("fight with ")).map((a) => withOdds(button(a, t("fight with {card}", { card: strength(a.slice(11)) })), view, a.slice(11))),
    aimed(take((a) => a.startsWith("cast ")), /^cast (.+) by (.+)$/, (k) => t("cast {spell} →", { spell: strength(k) }), (m) => t("by {card}", { card: cardNoun(m[2]) })),
    aimed(take((a) => a.startsWith("wield ")), /^wield (.+) by (.+)$/, (k) => t("wield {treasure} →", { treasure: cardNoun(k) }), (m) => t("by {card}", { card: cardNoun(m[2]) })),
    take((a) => a === "roll").map((a) => withOdds(button(a, t("roll the dice"), "action mm-roll"), view, null)),
  );
  group("Detour", t("Detour"), t("go around the monster (both cards are discarded)"), take((a) => a === "detour").map((a) => button(a, t("detour"))));
  group(
    "Trap",
    t("Trap"),
    t("lose cards, or a Thief avoids it"),
    take((a) => a.startsWith("avoid trap with ")).map((a) => button(a, t("avoid it with {card}", { card: cardNoun(a.slice(16)) }))),
    take((a) => a.startsWith("lose ")).map((a) => button(a, t("lose {card}", { card: cardNoun(a.slice(5)) }))),
  );
  group(
    "Secret door",
    t("Secret door"),
    t("a Thief or a Dwarf opens it: two more treasures"),
    take((a) => a.startsWith("open door with ")).map((a) => button(a, t("open it with {card}", { card: cardNoun(a.slice(15)) }))),
    take((a) => a === "leave door").map((a) => button(a, t("leave it"))),
  );
  group(
    "After the battle",
    t("After the battle"),
    null,
    take((a) => a.startsWith("heal ")).map((a) => button(a, t("heal {card}", { card: cardNoun(a.slice(5)) }))),
    take((a) => a.startsWith("send monster to seat ")).map((a) => button(a, t("send the monster to {name}", { name: who(a.slice(21)) }))),
  );
  group(
    "End the turn",
    t("End the turn"),
    null,
    take((a) => a === "pass").map((a) => button(a, t("pass"))),
    take((a) => a === "end turn").map((a) => button(a, t("end turn"))),
  );
  group("Discard", t("Discard a card"), view.phase === "discard" ? null : t("with 8 cards you must play or discard one before your turn ends"), take((a) => a.startsWith("discard ")).map((a) => button(a, cardName(a.slice(8)), "action small")));
  group("Other", t("Other"), null, [...rest].map((a) => button(a, a)));
  return box;
}

// The card list, when the server offers it (``bestiary cards monster-maker``
// as JSON): card kinds and abilities, treasure effects. It is the *default*
// rules' list, so strengths never come from it: the match's view says what
// each card rolls under the rules in force (the Sleep errata).
const catalog = { deck: null, treasures: null, prizes: null, asked: null };
export function askCatalog() {
  if (catalog.asked) return catalog.asked;
  catalog.asked = getJSON("/api/games/monster-maker/cards")
    .then((c) => {
      catalog.prizes = new Map((c.prizes || []).map((x) => [x.name, x]));
      catalog.deck = new Map((c.deck || []).map((x) => [x.name, x]));
      catalog.treasures = new Map((c.treasures || []).map((x) => [x.name, x]));
      if (last) render(...last);
    })
    .catch(() => {});
  return catalog.asked;
}

function treasureNote(name) {
  const tr = catalog.treasures && catalog.treasures.get(name);
  if (!tr) return "";
  const bits = [goldText(tr.gold)];
  if (tr.return_penalty) bits.push(t("road back +{n}p", { n: tr.return_penalty }));
  if (tr.battle_penalty) bits.push(t("battles back −{n}", { n: tr.battle_penalty }));
  if (tr.weapon_bonus) bits.push(t("+{n} to {who}", { n: tr.weapon_bonus, who: tr.weapon_users.map(cardName).join("/") }));
  if (tr.dispels_undead) bits.push(t("dispels undead"));
  return bits.join(", ");
}

// A card of the view's ``hand_cards`` (name, kind, value, strength as the
// rules in force roll it, type, abilities) as the page draws it.
export function handCard(c) {
  const note = abilityNote(c.abilities);
  if (c.kind === "corridor") return { name: c.name, kind: c.kind, value: c.value, mark: `${c.value}p` };
  if (c.kind === "monster") return { name: c.name, kind: c.kind, value: c.value, mtype: c.type, mark: t("strength {n}", { n: c.value }) };
  if (c.strength) return { name: c.name, kind: c.kind, dice: c.strength, mark: t("strength {n}", { n: c.strength }), note };
  return { name: c.name, kind: c.kind, note };
}

// A hand label is "Name (10p)" (corridor), "Name (16, human)" (monster),
// "Name (3D+3)" (character or spell) or "Name" (detour, trap). The legal
// actions tell spells from characters when a battle offers them. (Older
// views without ``hand_cards``.) The label's strength is the rules in force;
// the catalog only adds kinds and abilities.
export function parseLabel(label, spells) {
  const m = /^(.*) \(([^()]*)\)$/.exec(label);
  const known = catalog.deck && catalog.deck.get(m ? m[1] : label);
  if (known) {
    const v = known.value;
    const kind = known.kind;
    if (kind === "corridor") return { name: known.name, kind, value: v, mark: `${v}p` };
    if (kind === "monster") return { name: known.name, kind, value: v, mtype: known.type, mark: t("strength {n}", { n: v }) };
    if (kind === "character" || kind === "spell") {
      const dice = m ? m[2] : String(v);
      return { name: known.name, kind, dice, mark: t("strength {n}", { n: dice }), note: abilityNote(known.abilities) };
    }
    return { name: known.name, kind };
  }
  if (!m) {
    const low = label.toLowerCase();
    return { name: label, kind: low.includes("trap") ? "trap" : low.includes("detour") ? "detour" : "card" };
  }
  const [, name, inner] = m;
  let p = /^(\d+)p$/.exec(inner);
  if (p) return { name, kind: "corridor", value: Number(p[1]), mark: `${p[1]}p` };
  p = /^(\d+), (.+)$/.exec(inner);
  if (p) return { name, kind: "monster", value: Number(p[1]), mtype: p[2], mark: t("strength {n}", { n: p[1] }) };
  // Characters roll dice plus a bonus ("2D+5"); spells are plain dice or a
  // fixed number ("4D", "10") — unless the legal actions say otherwise.
  const spell = spells.has(name) || !/^\d+D\+\d+$/.test(inner);
  return { name, kind: spell ? "spell" : "character", dice: inner, mark: t("strength {n}", { n: inner }) };
}

function cardOf(c, opts = {}) {
  const kind = t(KIND_NAME[c.kind] || c.kind);
  const title = c.kind === "monster" && c.mtype ? kind + " · " + t(MTYPE_NAME[c.mtype] || c.mtype) : kind;
  return card({
    name: cardName(c.name), // the page's language; the aria-label says it too
    type: title,
    value: c.value,
    nature: c.dice,
    family: c.mark,
    note: c.note || undefined,
    colour: KIND_COLOUR[c.kind] || KIND_COLOUR.card,
    width: opts.width || 88,
    selected: opts.selected,
  });
}

// A card on the table (the monster in a battle, its fighters): drawn small,
// its text on hover, focus or a long-press (js/help.js).
function tableCard(c, cls = "") {
  const el = cardOf(c, { width: 64 });
  el.setAttribute("data-help", cardHelp(c));
  el.setAttribute("tabindex", "0");
  if (cls) el.classList.add(cls);
  el.setAttribute("data-key", c.name); // a card that joins is a new element: it plays its arrival once
  return el;
}

// The legal actions that use the hand card ``name`` (as the card played or
// as the caster / wielder).
function actionsFor(name, legal) {
  const uses = [`play ${name}`, `fight with ${name}`, `lose ${name}`, `discard ${name}`, `heal ${name}`, `dispel with ${name}`, `open door with ${name}`, `avoid trap with ${name}`];
  return legal.filter((a) => uses.includes(a) || a.startsWith(`place ${name} before seat `) || a.startsWith(`cast ${name} by `) || a.endsWith(` by ${name}`));
}

// A selected card's move as the server labels it ("zagraj Korytarz 10"); without
// labels, its text form with the seat named.
function choiceLabel(state, a, api) {
  const said = actionLabel(state, a);
  return said !== a ? said : a.replace(/before seat (\d+)$/, (_, s) => t("before {name}", { name: seatName(api, Number(s)) }));
}

let selected = null; // a hand card whose several actions are on show
let last = null; // the latest render's arguments, to redraw on a selection

function seatName(api, seat) {
  return api.seatLabel ? api.seatLabel(seat) : `seat ${seat}`;
}

// A card's abilities in short, under its picture (the card's help says them in full).
const ABILITY_NAME = {
  casts: N_("casts spells"),
  charms: N_("charms"),
  avoids_traps: N_("avoids traps"),
  opens_doors: N_("opens doors"),
  dispels_undead: N_("dispels undead"),
  heals: N_("heals"),
  human_only: N_("human only"),
  charm: N_("charm"),
};
function abilityNote(abilities) {
  return (abilities || []).map((a) => (ABILITY_NAME[a] ? t(ABILITY_NAME[a]) : a.replaceAll("_", " "))).join(", ") || undefined;
}

// -- card help (js/help.js shows an element's data-help on hover or tap) -----------------
const ABILITY_HELP = {
  casts: N_("can cast a spell in a battle"),
  charms: N_("a Charm it casts can send a beaten human monster on to another player"),
  avoids_traps: N_("avoids a trap (discard it with the trap)"),
  opens_doors: N_("opens a Secret Door (two more treasures)"),
  dispels_undead: N_("dispels an undead monster outright (both cards are discarded)"),
  heals: N_("after a battle, trade it for a character used this turn (\"Heal\")"),
  human_only: N_("works only on human monsters"),
  charm: N_("a Magic-User or Elf who wins with it may send the monster to another player"),
};
const TYPE_HELP = {
  human: N_("human type: Sleep and Charm work on it"),
  undead: N_("undead: a Cleric, the Holy Coffin or the Sacred Goblet dispels it"),
  general: N_("no spell type: only strength beats it"),
};

// The full text of a hand card, for the hover/tap help.
export function cardHelp(c) {
  const lines = [cardName(c.name)];
  if (c.kind === "corridor") lines.push(t("Corridor, {n}p long. Play it to walk on: out to the treasure room, then back exactly as far.", { n: c.value }));
  else if (c.kind === "monster") {
    lines.push(t("Monster, strength {n}. Place it in front of an opponent's corridor: they must roll {n} or more with characters to pass.", { n: c.value }));
    if (TYPE_HELP[c.mtype]) lines.push(t(TYPE_HELP[c.mtype]));
  } else if (c.kind === "character") lines.push(t("Character: rolls {dice} in a battle. Add several to beat a monster together.", { dice: c.dice }));
  else if (c.kind === "spell") lines.push(t("Spell: adds {dice} when a character casts it in a battle (one spell per character).", { dice: c.dice }));
  else if (c.kind === "detour") lines.push(t("Detour: go around the monster in your way; the monster, the detour and your last corridor are discarded."));
  else if (c.kind === "trap") lines.push(t("Trap: whoever draws it loses three cards, unless a Thief avoids it."));
  const known = catalog.deck && catalog.deck.get(c.name);
  for (const a of (known && known.abilities) || []) if (ABILITY_HELP[a]) lines.push("• " + t(ABILITY_HELP[a]));
  return lines.join("\n");
}

function treasureHelp(name) {
  const tr = catalog.treasures && catalog.treasures.get(name);
  if (!tr) return cardName(name);
  const lines = [cardName(name), goldText(tr.gold)];
  if (tr.open) lines.push(t("OPEN: shown to everyone as soon as it is drawn."));
  if (tr.return_penalty) lines.push(t("The road back is {n}p longer.", { n: tr.return_penalty }));
  if (tr.battle_penalty) lines.push(t("Battles on the road back are at −{n}.", { n: tr.battle_penalty }));
  if (tr.weapon_bonus) lines.push(t("Weapon on the road back: +{n} to a {who}; not used up.", { n: tr.weapon_bonus, who: tr.weapon_users.map(cardName).join("/") }));
  if (tr.dispels_undead) lines.push(t("Dispels an undead monster, and you keep it."));
  if (tr.special === "secret_door") lines.push(t("A Thief or a Dwarf opens it: two more treasures."));
  return lines.join("\n");
}

// "150" -> "150 gold"; dice ("3Dx20") are rolled once, at the end.
function goldText(gold) {
  if (gold === undefined || gold === null) return "";
  return /^\d+$/.test(String(gold)) ? t("{gold} gold", { gold }) : t("{gold} gold (rolled at the end)", { gold });
}

// A prize card's gold: "Prize 200" -> "200 gold".
function prizeText(name) {
  const p = catalog.prizes && catalog.prizes.get(name);
  const m = /(\d+)/.exec(name);
  const gold = p ? p.gold : m ? m[1] : null;
  return gold === null ? cardName(name) : t("prize: {gold} gold", { gold });
}

// -- the corridor track ---------------------------------------------------------
const TRACK_W = 600;

function track(p, view) {
  const room = view.treasure_room;
  const target = p.return_target || room;
  const span = Math.max(room, target, p.distance_out, p.distance_back) || 1;
  const x = (d) => 34 + (d / span) * (TRACK_W - 110);
  const s = svg("svg", { viewBox: `0 0 ${TRACK_W} 74`, width: TRACK_W, height: 74, class: "mm-track", role: "img" });
  s.setAttribute("aria-label", t("corridor track: {where}", { where: distanceText(p, view) }));
  // The out leg: the entrance on the left, the treasure room on the right.
  s.append(svg("text", { x: 4, y: 22, "font-size": 10, fill: "#6b6878" }, t("out")));
  s.append(svg("rect", { x: x(0), y: 12, width: x(room) - x(0), height: 14, fill: "#eee8d8", stroke: "#ccc2a8", rx: 3 }));
  let d = 0;
  p.corridors_out.forEach((len, i) => {
    s.append(svg("rect", { x: x(d), y: 12, width: Math.max(2, x(d + len) - x(d)), height: 14, fill: i % 2 ? "#a0774c" : "#7a5230", stroke: "#fff", "stroke-width": 1, class: "mm-corridor" }));
    if (x(d + len) - x(d) > 16) s.append(svg("text", { x: (x(d) + x(d + len)) / 2, y: 23, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, String(len)));
    d += len;
  });
  s.append(svg("rect", { x: x(room) - 3, y: 6, width: 6, height: 26, fill: "#e9b949", stroke: "#7a5a10" }));
  s.append(svg("text", { x: x(room), y: 44, "text-anchor": "middle", "font-size": 9, fill: "#7a5a10" }, t("treasure room {n}p", { n: room })));
  // The road back, drawn under it from the entrance's side.
  if (p.status !== "outward" || p.corridors_back.length) {
    s.append(svg("text", { x: 4, y: 64, "font-size": 10, fill: "#6b6878" }, t("back")));
    s.append(svg("rect", { x: x(0), y: 54, width: x(target) - x(0), height: 14, fill: "#e3ecf5", stroke: "#b4c4d6", rx: 3 }));
    let b = 0;
    p.corridors_back.forEach((len, i) => {
      s.append(svg("rect", { x: x(b), y: 54, width: Math.max(2, x(b + len) - x(b)), height: 14, fill: i % 2 ? "#4f7fb0" : "#2f5f90", stroke: "#fff", class: "mm-corridor" }));
      if (x(b + len) - x(b) > 16) s.append(svg("text", { x: (x(b) + x(b + len)) / 2, y: 65, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, String(len)));
      b += len;
    });
    s.append(svg("text", { x: x(target) + 4, y: 65, "font-size": 9, fill: "#2f5f90" }, t("home {n}p", { n: target })));
  }
  // The monster stands in front of the last corridor played.
  if (p.monster) {
    const back = p.status !== "outward" && p.corridors_back.length;
    const mx = back ? x(p.distance_back) : x(p.distance_out);
    const my = back ? 54 : 12;
    s.append(svg("polygon", { points: `${mx + 2},${my + 7} ${mx + 14},${my - 4} ${mx + 14},${my + 18}`, fill: "#b3261e", class: "mm-monster-mark" }));
  }
  return s;
}

function distanceText(p, view) {
  if (p.status === "outward") return t("{d} / {room}p in", { d: p.distance_out, room: view.treasure_room });
  if (p.status === "returning") return t("back {d} / {target}p (reached {out}p)", { d: p.distance_back, target: p.return_target, out: p.distance_out });
  if (p.status === "home") return t("home ({out}p in)", { out: p.distance_out });
  return t("died in the dungeon");
}

const STATUS = { outward: N_("outward"), returning: N_("returning"), home: N_("home"), dead: N_("dead") };

function treasureChip(name, hidden, note) {
  const help = hidden ? t("A treasure card: hidden until it is OPEN or used.") : treasureHelp(name);
  return h("span", { class: "mm-treasure" + (hidden ? " hidden" : ""), title: [note, hidden ? "" : treasureNote(name)].filter(Boolean).join(" — "), "data-help": help, tabindex: "0" }, hidden ? t("? treasure") : `◆ ${cardName(name)}`);
}

// Treasures banked at home, with their gold (dice rolled once, at the end),
// and prizes: "Ring 150 gold", "prize: 200 gold".
function bankedChips(p) {
  const rolled = new Map((p.rolled || []).map(([tr, g]) => [tr, g]));
  const gold = (tr) => {
    if (rolled.has(tr)) return t("{gold} gold", { gold: rolled.get(tr) });
    const c = catalog.treasures && catalog.treasures.get(tr);
    return c ? goldText(c.gold) : "";
  };
  return [
    ...p.banked.map((tr) => h("span", { class: "mm-gold" + (p.worthless.includes(tr) ? " worthless" : ""), "data-help": treasureHelp(tr), tabindex: "0" }, [cardName(tr), gold(tr)].filter(Boolean).join(" · "))),
    ...p.prizes.map((pr) => h("span", { class: "mm-gold prize" }, prizeText(pr))),
  ];
}

function playerRow(p, view, api, turn) {
  const mine = p.seat === view.seat;
  const badges = [h("span", { class: `mm-status ${p.status}` }, t(STATUS[p.status] || p.status))];
  if (turn) badges.push(h("span", { class: "mm-turn" }, t("to play")));
  if (p.secret_door_waiting) badges.push(h("span", { class: "mm-badge" }, t("secret door")));
  if (p.battle_penalty) badges.push(h("span", { class: "mm-badge bad" }, t("battles −{n}", { n: p.battle_penalty })));
  const treasures = [
    ...p.open_treasures.map((tr) => treasureChip(tr, false, t("OPEN or used: everyone sees it"))),
    ...Array.from({ length: p.hidden_treasures }, () => treasureChip("", true, t("hidden until OPEN or used"))),
  ];
  const banked = bankedChips(p);
  const place = selected && `place ${selected} before seat ${p.seat}`;
  const placeHere = place && last && last[1].legal.includes(place) ? h("button", { type: "button", class: "small mm-place", "data-action": place, onclick: () => ((selected = null), api.act(place)) }, t("place the {card} here", { card: cardNoun(selected) })) : null;
  return h(
    "div",
    { class: "mm-player" + (mine ? " mine" : "") + (turn ? " turn" : "") + (placeHere ? " target" : ""), "data-seat": p.seat },
    h("div", { class: "mm-who" }, h("strong", {}, seatName(api, p.seat)), mine ? (" " + t("(you)")) : "", " ", ...badges, placeHere ? " " : "", placeHere),
    h("div", { class: "mm-row" }, track(p, view), h("div", { class: "mm-distance" }, distanceText(p, view))),
    h(
      "div",
      { class: "mm-row mm-details" },
      p.monster
        ? h("span", { class: "mm-monster", "data-monster": p.monster, tabindex: "0", "data-help": cardHelp({ name: p.monster, kind: "monster", value: p.monster_strength }) }, t("⚔ {monster} (strength {n}) in the way", { monster: cardName(p.monster), n: p.monster_strength }))
        : h("span", { class: "muted" }, t("no monster in the way")),
      h("span", { class: "mm-hand-size" }, tn("hand: {n} card", "hand: {n} cards", p.hand_size)),
      treasures.length ? h("span", { class: "mm-treasures" }, t("carries:"), " ", ...treasures) : null,
      banked.length ? h("span", { class: "mm-banked" }, t("banked:"), " ", ...banked) : null,
      p.dungeon_wins ? h("span", { class: "mm-badge" }, tn("{n} dungeon won", "{n} dungeons won", p.dungeon_wins)) : null,
    ),
  );
}

// Your treasures, carried and banked, with their gold: one place that says
// everything you own (the row above shows what the others see of it).
// A treasure you carry as a small card: its gold (a number, or dice rolled
// at the end) under the name, its text on hover or press.
function treasureCard(name, note, worthless = false) {
  const c = catalog.treasures && catalog.treasures.get(name);
  const el = card({
    name: cardName(name),
    type: t("treasure"),
    // A Statue of Goddess whose die showed 4-6 is worth nothing, not "400 gold".
    family: worthless ? t("worthless") : c ? goldText(c.gold) : undefined,
    note,
    colour: "#c08a1e",
    width: 72,
  });
  el.setAttribute("data-help", treasureHelp(name));
  el.setAttribute("tabindex", "0");
  el.setAttribute("data-key", name);
  el.classList.add("mm-treasure-card");
  return el;
}

function treasuresPanel(view) {
  const mine = view.players[view.seat];
  const carried = view.my_treasures.map((tr) => treasureCard(tr, mine.open_treasures.includes(tr) ? t("everyone sees it") : t("only you see it"), (mine.worthless || []).includes(tr)));
  const banked = bankedChips(mine);
  const parts = [h("h3", {}, t("Your treasures"))];
  if (carried.length) parts.push(h("p", { class: "mm-carried" }, t("Carried (gold once you are home):"), " ", ...carried, h("span", { class: "muted" }, (" " + tn("({n} hidden from the others)", "({n} hidden from the others)", mine.hidden_treasures)))));
  if (banked.length) parts.push(h("p", { class: "mm-banked-mine" }, t("Banked:"), " ", ...banked));
  if (!carried.length && !banked.length) {
    const hint = mine.status === "outward" ? t("none yet — reach the treasure room ({n}p) to draw one", { n: view.treasure_room }) : t("none");
    parts.push(h("p", { class: "muted" }, hint));
  }
  return h("div", { class: "mm-mine" }, ...parts);
}

// -- the odds of a battle ----------------------------------------------------------------
// The same "Dwarf 2D+5 vs Kobold 7: 72% to win" as the terminal
// (render.battle_odds): both ask the game's scoring tool (``bestiary score``,
// here POST /api/games/monster-maker/score) with the same payload, and it
// computes the exact chance with the engine's own battle rules
// (battle.win_chance: every die, spell, weapon and the princess's penalty).
// Nothing is re-derived in JS, so the two can never disagree. The payload
// holds only what this seat sees: the party on the table and, when the
// battle is this seat's own, the treasures it carries.
const odds = new Map(); // payload JSON -> the tool's "battle" answer (null: asked, or none)

function battlePayload(view, extra) {
  const fighter = view.players && view.players[view.turn];
  if (!fighter || !fighter.monster) return null;
  const party = (view.battle || []).map((m) => ({ character: m.card, spell: m.spell || null, weapon: m.weapon || null }));
  if (extra) party.push({ character: extra, spell: null, weapon: null });
  if (!party.length) return null;
  const carried = view.seat === view.turn ? view.my_treasures || [] : [];
  return { treasures: carried, battle: { monster: fighter.monster, party, road_back: fighter.status === "returning" } };
}

// The battle's odds (with ``extra`` joining it), or null until the tool has answered.
function battleOdds(view, extra) {
  const payload = battlePayload(view, extra);
  if (!payload) return null;
  const key = JSON.stringify(payload);
  if (odds.has(key)) return odds.get(key);
  if (odds.size > 200) odds.clear(); // a long game: keep only what is asked again
  odds.set(key, null);
  postJSON("/api/games/monster-maker/score", payload)
    .then((r) => {
      odds.set(key, r && r.battle ? r.battle : null);
      if (last) render(...last);
    })
    .catch(() => {}); // no tool (or an odd party): the odds are left unsaid, as in the terminal
  return null;
}

// The terminal's line: each member's dice, the princess's penalty, the monster, the chance.
function oddsLine(got) {
  let dice = got.party.map((m) => `${cardName(m.character)} ${m.dice}` + (m.spell ? ` + ${cardName(m.spell)} ${m.spell_dice}` : "")).join(" + ");
  if (got.penalty) dice = t("{dice} −{n} (princess)", { dice, n: got.penalty });
  return t("{dice} vs {monster} {strength}: {chance}% to win", { dice, monster: cardNoun(got.monster), strength: got.monster_strength, chance: Math.round(got.win * 100) });
}

// A fight or roll button with its odds: the chance on the button, the whole line in its title.
function withOdds(button, view, extra) {
  const got = battleOdds(view, extra);
  if (got) {
    button.append(h("span", { class: "mm-odds-chance" }, " · " + t("{chance}% to win", { chance: Math.round(got.win * 100) })));
    button.setAttribute("title", oddsLine(got));
  }
  return button;
}

// -- battles and dice -----------------------------------------------------------------
function die(text) {
  return h("span", { class: "mm-die" }, text);
}

function battleResult(ev, api) {
  const d = ev.event;
  const party = d.party.map((r) =>
    h(
      "li",
      {},
      h("strong", {}, cardName(r.card)),
      r.roll !== undefined ? [" ", r.dice, " → ", die(r.roll)] : "",
      r.spell ? [" + ", cardName(r.spell), r.spell_dice ? ` ${r.spell_dice}` : "", " → ", die(r.spell_roll !== undefined ? r.spell_roll : r.strength)] : "",
      r.weapon ? ` + ${cardName(r.weapon)}` : "",
      ` = ${r.strength}`,
    ),
  );
  const head = d.won ? t("{name} beats {monster} ({n}): total", { name: seatName(api, d.seat), monster: cardNoun(d.monster), n: d.monster_strength }) : t("{name} loses to {monster} ({n}): total", { name: seatName(api, d.seat), monster: cardNoun(d.monster), n: d.monster_strength });
  return h(
    "div",
    { class: "mm-battle-result " + (d.won ? "won" : "lost") },
    h("div", {}, head, " ", die(d.total), d.penalty ? (" " + t("(−{n} princess)", { n: d.penalty })) : ""),
    h("ul", { class: "mm-party" }, ...party),
  );
}

function battlePanel(view, state, api) {
  const out = [];
  const me = view.players[view.turn];
  if (view.battle.length) {
    const monster = me && me.monster ? t("{monster} (strength {n})", { monster: cardNoun(me.monster), n: me.monster_strength }) : t("the monster");
    out.push(
      h(
        "div",
        { class: "mm-battle" },
        h("h3", {}, t("Battle: {name} against {monster}", { name: seatName(api, view.turn), monster })),
        (() => {
          const got = battleOdds(view, null);
          return got ? h("p", { class: "mm-odds" }, t("Odds: {odds}", { odds: oddsLine(got) })) : "";
        })(),
        h(
          "div",
          { class: "cards mm-battle-cards" },
          me && me.monster ? tableCard({ ...parseLabel(me.monster, new Set()), kind: "monster", value: me.monster_strength, mark: t("strength {n}", { n: me.monster_strength }) }, "mm-foe") : "",
          h("span", { class: "mm-versus", "aria-hidden": "true" }, "⚔"),
          ...view.battle.map((b) =>
            h("div", { class: "mm-fighter" }, tableCard(parseLabel(b.card, new Set())), b.spell ? h("div", {}, t("casts {spell}", { spell: cardNoun(b.spell) })) : "", b.weapon ? h("div", {}, t("wields {weapon}", { weapon: cardName(b.weapon) })) : ""),
          ),
        ),
      ),
    );
  }
  const battles = recentEvents(state, (e) => e.event.kind === "battle", 3);
  if (battles.length) out.push(h("div", { class: "mm-dice" }, h("h3", {}, t("Dice of the last battles")), ...battles.reverse().map((e) => battleResult(e, api))));
  return out;
}

// -- the prompt ------------------------------------------------------------------------
function prompt(view, state) {
  if (!state.yourTurn) return null;
  const me = view.players[view.seat];
  switch (view.phase) {
    case "trap":
      return tn("TRAP! Lose {n} more card — or avoid it with a character who can.", "TRAP! Lose {n} more cards — or avoid it with a character who can.", view.to_lose);
    case "battle":
      return t("Battle against {monster} (strength {n}): add characters, cast spells, wield weapons, then roll.", { monster: cardNoun(me.monster), n: me.monster_strength });
    case "door":
      return t("The Secret Door is open: send a character through it, or leave it.");
    case "discard":
      return t("The dispel was your action and you hold too many cards: discard one.");
    case "after":
      return view.charmed ? t("You charmed the {monster}: send it before another player, or end your turn.", { monster: cardName(view.charmed) }) : t("The battle is over: heal a fallen character, or end your turn.");
    default:
      return me && me.monster
        ? t("A {monster} (strength {n}) blocks your way: fight it, dispel it, detour around it — or play on someone else.", { monster: cardNoun(me.monster), n: me.monster_strength })
        : t("Your turn: play a corridor, place a monster before an opponent, discard or pass.");
  }
}

// The result as the rules in force count it (gold, or single-dungeon wins),
// best first and numbered from 1, with each seat's breakdown: every treasure
// and prize, dice as rolled.
export function finalPanel(view, api, result) {
  const f = view.final;
  const byWins = view.victory === "dungeons";
  const winners = new Set((result && result.winners) || []);
  const line = (s) => {
    const g = f.gold[s];
    const detail = (f.detail && f.detail[s]) || [];
    const worth = detail.map(([name, gold]) => `${cardName(name)} (${gold})`).join(", ");
    const head = byWins ? seatName(api, s) + ": " + tn("{n} dungeon won", "{n} dungeons won", f.scores[s]) + ", " + t("{gold} gold", { gold: g }) : seatName(api, s) + ": " + t("{gold} gold", { gold: g });
    return h("li", { class: winners.has(s) ? "winner" : "" }, head, winners.has(s) ? (" ★ " + t("winner")) : "", worth ? h("span", { class: "muted" }, ` (${worth})`) : "");
  };
  const order = f.gold.map((_, s) => s).sort((a, b) => (byWins ? (f.scores[b] || 0) - (f.scores[a] || 0) : 0) || f.gold[b] - f.gold[a] || a - b);
  const m = /^(\d+) dungeons? played$/.exec(f.reason || "");
  const reason = m ? tn("{n} dungeon played", "{n} dungeons played", Number(m[1])) : f.reason;
  return h(
    "div",
    { class: "mm-final" },
    h("h3", {}, t("Game over ({reason})", { reason })),
    h("p", { class: "muted" }, byWins ? t("The most dungeons won wins; gold breaks no tie.") : t("The most gold wins: treasures brought home, plus the prize of the first one home in each dungeon.")),
    h("ol", {}, ...order.map(line)),
  );
}

export function render(root, state, api) {
  last = [root, state, api];
  askCatalog();
  const view = state.view;
  const legal = state.legal || [];
  if (selected && !actionsFor(selected, legal).length) selected = null;
  const spells = new Set(legal.map((a) => /^cast (.+) by /.exec(a)).filter(Boolean).map((m) => m[1]));
  const parts = [];

  const head = h(
    "div",
    { class: "mm-head" },
    statusLine(state),
    h(
      "p",
      { class: "mm-dungeon" },
      h("strong", {}, t("Dungeon {n}", { n: view.dungeon })),
      " · ",
      t("treasure room at {n}p · draw pile {draw} · treasures {treasures} · prizes {prizes} · discard {discard}", { n: view.treasure_room, draw: view.draw_pile, treasures: view.treasure_pile, prizes: view.prize_pile, discard: view.discard_pile.length }),
      view.endgame ? h("span", { class: "mm-badge bad" }, t("ENDGAME: no more draws")) : "",
    ),
  );
  parts.push(head);
  if (view.traps_in_draw_pile_at) parts.push(h("p", { class: "muted" }, t("Traps in the draw pile at {where} from the top.", { where: view.traps_in_draw_pile_at.join(", ") || "—" })));

  const ask = prompt(view, state);
  if (ask) parts.push(h("p", { class: "mm-prompt" }, ask));
  if (view.trap && !state.yourTurn) parts.push(h("p", { class: "mm-prompt bad" }, tn("{name} fell into a trap: {n} more card to lose.", "{name} fell into a trap: {n} more cards to lose.", view.to_lose, { name: seatName(api, view.turn) })));
  parts.push(actionPanel(legal, view, api));

  parts.push(h("div", { class: "mm-tracks" }, h("h3", {}, t("The corridors")), ...view.players.map((p) => playerRow(p, view, api, !view.final && p.seat === view.turn))));
  parts.push(...battlePanel(view, state, api));

  if (view.hand) {
    const cards = view.hand_cards ? view.hand_cards.map(handCard) : (view.hand_labels || view.hand).map((l) => parseLabel(l, spells));
    const choices = selected ? actionsFor(selected, legal) : [];
    parts.push(
      h(
        "div",
        { class: "mm-hand" },
        h("h3", {}, tn("Your hand ({n} card)", "Your hand ({n} cards)", cards.length), h("span", { class: "muted" }, (" — " + t("click a card to use it; hover or long-press it to read it")))),
        h(
          "div",
          { class: "cards" },
          ...cards.map((c) => {
            const acts = actionsFor(c.name, legal);
            // A click does the card's one main use (discarding is the
            // fallback); with several uses it shows them.
            const main = acts.filter((a) => !a.startsWith("discard "));
            const direct = main.length === 1 ? main[0] : main.length === 0 && acts.length === 1 ? acts[0] : null;
            return h(
              "button",
              {
                type: "button",
                class: "card-button mm-card" + (acts.length ? " usable" : ""),
                "data-card": c.name,
                "data-kind": c.kind,
                "data-action": direct || undefined,
                "data-help": cardHelp(c),
                disabled: !acts.length,
                title: direct ? actionLabel(state, direct) : acts.length ? tn("{n} way to use it", "{n} ways to use it", acts.length) : cardName(c.name),
                onclick: () => {
                  if (direct) {
                    selected = null;
                    api.act(direct);
                  } else {
                    selected = selected === c.name ? null : c.name;
                    render(...last);
                  }
                },
              },
              cardOf(c, { selected: selected === c.name }),
            );
          }),
        ),
        choices.length
          ? h("div", { class: "action-group mm-choices" }, h("span", { class: "verb" }, `${cardName(selected)}:`), ...choices.map((a) => h("button", { type: "button", class: "action", "data-action": a, onclick: () => ((selected = null), api.act(a)) }, choiceLabel(state, a, api))))
          : null,
      ),
    );
    parts.push(treasuresPanel(view));
  }
  if (view.fallen && view.fallen.length) parts.push(h("p", { class: "muted" }, t("Fallen this battle: {cards}", { cards: view.fallen.map(cardName).join(", ") })));
  if (view.final) {
    parts.push(finalPanel(view, api, state.result));
  }
  // In place: a redraw keeps the buttons a person may be pressing (morph.js).
  morph(root, [h("div", { class: "mm-page" }, ...parts)]);
}
