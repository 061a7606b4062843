// Monster Maker's table page: every player's corridor track (out to the
// treasure room and back), the monster in front of each, the battles' dice,
// your hand as cards, the treasures (others' hidden until OPEN or used) and
// the legal actions grouped by what they do.
import { getJSON, h, pageStyle } from "../js/api.js";
import { card, svg } from "../js/cards.js";
import { statusLine } from "../js/generic.js";

pageStyle("monster-maker", import.meta.url); // its stylesheet sits next to it

// The legal actions as buttons, in named groups (first group that matches).
function actionGroups(legal, groups, api, { label = (a) => a } = {}) {
  const box = h("div", { class: "actions mm-actions", role: "group", "aria-label": "your legal actions" });
  const rest = new Set(legal);
  for (const [name, test] of [...groups, ["Other", () => true]]) {
    const acts = [...rest].filter(test);
    if (!acts.length) continue;
    acts.forEach((a) => rest.delete(a));
    box.append(h("div", { class: "action-group", "data-group": name }, h("span", { class: "verb" }, name), ...acts.map((a) => h("button", { type: "button", class: "action", "data-action": a, onclick: () => api.act(a) }, label(a)))));
  }
  return box;
}

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

// The action groups, in the order a turn goes; a kind is the action's
// leading words (the game's text forms, actions.py).
const GROUPS = [
  ["Corridor", (a) => a.startsWith("play ")],
  ["Monster", (a) => a.startsWith("place ") || a.startsWith("send monster")],
  ["Battle", (a) => /^(fight with|cast|wield|roll$|dispel with)/.test(a)],
  ["Trap", (a) => a.startsWith("lose ") || a.startsWith("avoid trap")],
  ["Secret door", (a) => a.startsWith("open door") || a === "leave door"],
  ["Detour", (a) => a === "detour"],
  ["After the battle", (a) => a.startsWith("heal ")],
  ["End the turn", (a) => a.startsWith("discard ") || a === "pass" || a === "end turn"],
];

// The card list, when the server offers it (``bestiary cards monster-maker``
// as JSON): card kinds and abilities, treasure effects. It is the *default*
// rules' list, so strengths never come from it: the match's view says what
// each card rolls under the rules in force (the Sleep errata).
const catalog = { deck: null, treasures: null, asked: null };
export function askCatalog() {
  if (catalog.asked) return catalog.asked;
  catalog.asked = getJSON("/api/games/monster-maker/cards")
    .then((c) => {
      catalog.deck = new Map((c.deck || []).map((x) => [x.name, x]));
      catalog.treasures = new Map((c.treasures || []).map((x) => [x.name, x]));
      if (last) render(...last);
    })
    .catch(() => {});
  return catalog.asked;
}

function treasureNote(name) {
  const t = catalog.treasures && catalog.treasures.get(name);
  if (!t) return "";
  const bits = [`gold ${t.gold}`];
  if (t.return_penalty) bits.push(`road back +${t.return_penalty}p`);
  if (t.battle_penalty) bits.push(`battles back −${t.battle_penalty}`);
  if (t.weapon_bonus) bits.push(`+${t.weapon_bonus} to ${t.weapon_users.join("/")}`);
  if (t.dispels_undead) bits.push("dispels undead");
  return bits.join(", ");
}

// A card of the view's ``hand_cards`` (name, kind, value, strength as the
// rules in force roll it, type, abilities) as the page draws it.
export function handCard(c) {
  const note = (c.abilities || []).join(" ").replaceAll("_", " ") || undefined;
  if (c.kind === "corridor") return { name: c.name, kind: c.kind, value: c.value, mark: `${c.value}p` };
  if (c.kind === "monster") return { name: c.name, kind: c.kind, value: c.value, mtype: c.type, mark: `strength ${c.value}` };
  if (c.strength) return { name: c.name, kind: c.kind, dice: c.strength, mark: `strength ${c.strength}`, note };
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
    if (kind === "monster") return { name: known.name, kind, value: v, mtype: known.type, mark: `strength ${v}` };
    if (kind === "character" || kind === "spell") {
      const dice = m ? m[2] : String(v);
      return { name: known.name, kind, dice, mark: `strength ${dice}`, note: known.abilities.join(" ").replaceAll("_", " ") };
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
  if (p) return { name, kind: "monster", value: Number(p[1]), mtype: p[2], mark: `strength ${p[1]}` };
  // Characters roll dice plus a bonus ("2D+5"); spells are plain dice or a
  // fixed number ("4D", "10") — unless the legal actions say otherwise.
  const spell = spells.has(name) || !/^\d+D\+\d+$/.test(inner);
  return { name, kind: spell ? "spell" : "character", dice: inner, mark: `strength ${inner}` };
}

function cardOf(c, opts = {}) {
  const title = c.kind === "monster" ? `monster · ${c.mtype}` : c.kind;
  return card({
    name: c.name,
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

// The legal actions that use the hand card ``name`` (as the card played or
// as the caster / wielder).
function actionsFor(name, legal) {
  const uses = [`play ${name}`, `fight with ${name}`, `lose ${name}`, `discard ${name}`, `heal ${name}`, `dispel with ${name}`, `open door with ${name}`, `avoid trap with ${name}`];
  return legal.filter((a) => uses.includes(a) || a.startsWith(`place ${name} before seat `) || a.startsWith(`cast ${name} by `) || a.endsWith(` by ${name}`));
}

let selected = null; // a hand card whose several actions are on show
let last = null; // the latest render's arguments, to redraw on a selection

function seatName(api, seat) {
  return api.seatLabel ? api.seatLabel(seat) : `seat ${seat}`;
}

// -- the corridor track ---------------------------------------------------------
const TRACK_W = 600;

function track(p, view) {
  const room = view.treasure_room;
  const target = p.return_target || room;
  const span = Math.max(room, target, p.distance_out, p.distance_back) || 1;
  const x = (d) => 34 + (d / span) * (TRACK_W - 110);
  const s = svg("svg", { viewBox: `0 0 ${TRACK_W} 74`, width: TRACK_W, height: 74, class: "mm-track", role: "img" });
  const where = p.status === "outward" ? `${p.distance_out}/${room}p in` : p.status === "returning" ? `back ${p.distance_back}/${target}p` : p.status;
  s.setAttribute("aria-label", `corridor track: ${where}`);
  // The out leg: the entrance on the left, the treasure room on the right.
  s.append(svg("text", { x: 4, y: 22, "font-size": 10, fill: "#6b6878" }, "out"));
  s.append(svg("rect", { x: x(0), y: 12, width: x(room) - x(0), height: 14, fill: "#eee8d8", stroke: "#ccc2a8", rx: 3 }));
  let d = 0;
  p.corridors_out.forEach((len, i) => {
    s.append(svg("rect", { x: x(d), y: 12, width: Math.max(2, x(d + len) - x(d)), height: 14, fill: i % 2 ? "#a0774c" : "#7a5230", stroke: "#fff", "stroke-width": 1, class: "mm-corridor" }));
    if (x(d + len) - x(d) > 16) s.append(svg("text", { x: (x(d) + x(d + len)) / 2, y: 23, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, String(len)));
    d += len;
  });
  s.append(svg("rect", { x: x(room) - 3, y: 6, width: 6, height: 26, fill: "#e9b949", stroke: "#7a5a10" }));
  s.append(svg("text", { x: x(room), y: 44, "text-anchor": "middle", "font-size": 9, fill: "#7a5a10" }, `treasure room ${room}p`));
  // The road back, drawn under it from the entrance's side.
  if (p.status !== "outward" || p.corridors_back.length) {
    s.append(svg("text", { x: 4, y: 64, "font-size": 10, fill: "#6b6878" }, "back"));
    s.append(svg("rect", { x: x(0), y: 54, width: x(target) - x(0), height: 14, fill: "#e3ecf5", stroke: "#b4c4d6", rx: 3 }));
    let b = 0;
    p.corridors_back.forEach((len, i) => {
      s.append(svg("rect", { x: x(b), y: 54, width: Math.max(2, x(b + len) - x(b)), height: 14, fill: i % 2 ? "#4f7fb0" : "#2f5f90", stroke: "#fff", class: "mm-corridor" }));
      if (x(b + len) - x(b) > 16) s.append(svg("text", { x: (x(b) + x(b + len)) / 2, y: 65, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, String(len)));
      b += len;
    });
    s.append(svg("text", { x: x(target) + 4, y: 65, "font-size": 9, fill: "#2f5f90" }, `home ${target}p`));
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

function treasureChip(name, hidden, note) {
  const more = hidden ? "" : treasureNote(name);
  return h("span", { class: "mm-treasure" + (hidden ? " hidden" : ""), title: [note, more].filter(Boolean).join(" — ") }, hidden ? "? treasure" : `◆ ${name}`);
}

function playerRow(p, view, api, turn) {
  const mine = p.seat === view.seat;
  const badges = [h("span", { class: `mm-status ${p.status}` }, p.status)];
  if (turn) badges.push(h("span", { class: "mm-turn" }, "to play"));
  if (p.secret_door_waiting) badges.push(h("span", { class: "mm-badge" }, "secret door"));
  if (p.battle_penalty) badges.push(h("span", { class: "mm-badge bad" }, `battles −${p.battle_penalty}`));
  const distance =
    p.status === "outward"
      ? `${p.distance_out} / ${view.treasure_room}p in`
      : p.status === "returning"
        ? `back ${p.distance_back} / ${p.return_target}p (reached ${p.distance_out}p)`
        : p.status === "home"
          ? `home (${p.distance_out}p in)`
          : "died in the dungeon";
  const treasures = [
    ...p.open_treasures.map((t) => treasureChip(t, false, "OPEN or used: everyone sees it")),
    ...Array.from({ length: p.hidden_treasures }, () => treasureChip("", true, "hidden until OPEN or used")),
  ];
  // Dice-valued treasures show what they rolled (rolled once and kept).
  const rolled = new Map((p.rolled || []).map(([t, g]) => [t, g]));
  const banked = [...p.banked.map((t) => h("span", { class: "mm-gold" + (p.worthless.includes(t) ? " worthless" : "") }, rolled.has(t) ? `${t} (${rolled.get(t)})` : t)), ...p.prizes.map((t) => h("span", { class: "mm-gold prize" }, `prize ${t}`))];
  const place = selected && `place ${selected} before seat ${p.seat}`;
  const placeHere = place && last && last[1].legal.includes(place) ? h("button", { type: "button", class: "small mm-place", "data-action": place, onclick: () => ((selected = null), api.act(place)) }, `place the ${selected} here`) : null;
  return h(
    "div",
    { class: "mm-player" + (mine ? " mine" : "") + (turn ? " turn" : "") + (placeHere ? " target" : ""), "data-seat": p.seat },
    h("div", { class: "mm-who" }, h("strong", {}, seatName(api, p.seat)), mine ? " (you)" : "", " ", ...badges, placeHere ? " " : "", placeHere),
    h("div", { class: "mm-row" }, track(p, view), h("div", { class: "mm-distance" }, distance)),
    h(
      "div",
      { class: "mm-row mm-details" },
      p.monster
        ? h("span", { class: "mm-monster", "data-monster": p.monster }, `⚔ ${p.monster} (strength ${p.monster_strength}) in the way`)
        : h("span", { class: "muted" }, "no monster in the way"),
      h("span", { class: "mm-hand-size" }, `hand: ${p.hand_size} card${p.hand_size === 1 ? "" : "s"}`),
      treasures.length ? h("span", { class: "mm-treasures" }, ...treasures) : null,
      banked.length ? h("span", { class: "mm-banked" }, "gold: ", ...banked) : null,
      p.dungeon_wins ? h("span", { class: "mm-badge" }, `${p.dungeon_wins} dungeon${p.dungeon_wins > 1 ? "s" : ""} won`) : null,
    ),
  );
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
      h("strong", {}, r.card),
      r.roll !== undefined ? [" ", r.dice, " → ", die(r.roll)] : "",
      r.spell ? [" + ", r.spell, r.spell_dice ? ` ${r.spell_dice}` : "", " → ", die(r.spell_roll !== undefined ? r.spell_roll : r.strength)] : "",
      r.weapon ? ` + ${r.weapon}` : "",
      ` = ${r.strength}`,
    ),
  );
  return h(
    "div",
    { class: "mm-battle-result " + (d.won ? "won" : "lost") },
    h("div", {}, `${seatName(api, d.seat)} ${d.won ? "beats" : "loses to"} `, h("strong", {}, `${d.monster} (${d.monster_strength})`), `: total `, die(d.total), d.penalty ? ` (−${d.penalty} princess)` : ""),
    h("ul", { class: "mm-party" }, ...party),
  );
}

function battlePanel(view, state, api) {
  const out = [];
  const me = view.players[view.turn];
  if (view.battle.length) {
    const monster = me && me.monster ? `${me.monster} (strength ${me.monster_strength})` : "the monster";
    out.push(
      h(
        "div",
        { class: "mm-battle" },
        h("h3", {}, `Battle: ${seatName(api, view.turn)} against ${monster}`),
        h(
          "div",
          { class: "cards" },
          ...view.battle.map((b) =>
            h("div", { class: "mm-fighter" }, h("strong", {}, b.card), b.spell ? h("div", {}, `casts ${b.spell}`) : "", b.weapon ? h("div", {}, `wields ${b.weapon}`) : ""),
          ),
        ),
      ),
    );
  }
  const battles = recentEvents(state, (e) => e.event.kind === "battle", 3);
  if (battles.length) out.push(h("div", { class: "mm-dice" }, h("h3", {}, "Dice of the last battles"), ...battles.reverse().map((e) => battleResult(e, api))));
  return out;
}

// -- the prompt ------------------------------------------------------------------------
function prompt(view, state, api) {
  if (!state.yourTurn) return null;
  const me = view.players[view.seat];
  switch (view.phase) {
    case "trap":
      return `TRAP! Lose ${view.to_lose} more card${view.to_lose === 1 ? "" : "s"} — or avoid it with a character who can.`;
    case "battle":
      return `Battle against ${me.monster} (strength ${me.monster_strength}): add characters, cast spells, wield weapons, then roll.`;
    case "door":
      return "The Secret Door is open: send a character through it, or leave it.";
    case "discard":
      return "The dispel was your action and you hold too many cards: discard one.";
    case "after":
      return view.charmed ? `You charmed the ${view.charmed}: send it before another player, or end your turn.` : "The battle is over: heal a fallen character, or end your turn.";
    default:
      return me && me.monster
        ? `A ${me.monster} (strength ${me.monster_strength}) blocks your way: fight it, dispel it, detour around it — or play on someone else.`
        : "Your turn: play a corridor, place a monster before an opponent, discard or pass.";
  }
}

// The result as the rules in force count it (gold, or single-dungeon wins),
// with each seat's breakdown: every treasure and prize, dice as rolled.
export function finalPanel(view, api) {
  const f = view.final;
  const byWins = view.victory === "dungeons";
  const line = (g, s) => {
    const detail = (f.detail && f.detail[s]) || [];
    const worth = detail.map(([name, gold]) => `${name} (${gold})`).join(", ");
    const head = byWins ? `${seatName(api, s)}: ${f.scores[s]} dungeon${f.scores[s] === 1 ? "" : "s"} won, ${g} gold` : `${seatName(api, s)}: ${g} gold`;
    return h("li", {}, head, worth ? h("span", { class: "muted" }, ` (${worth})`) : "");
  };
  return h("div", { class: "mm-final" }, h("h3", {}, `Game over (${f.reason})`), h("ol", { start: 0 }, ...f.gold.map(line)));
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
      h("strong", {}, `Dungeon ${view.dungeon}`),
      ` · treasure room at ${view.treasure_room}p · draw pile ${view.draw_pile} · treasures ${view.treasure_pile} · prizes ${view.prize_pile} · discard ${view.discard_pile.length}`,
      view.endgame ? h("span", { class: "mm-badge bad" }, "ENDGAME: no more draws") : "",
    ),
  );
  parts.push(head);
  if (view.traps_in_draw_pile_at) parts.push(h("p", { class: "muted" }, `Traps in the draw pile at ${view.traps_in_draw_pile_at.join(", ") || "—"} from the top.`));

  const ask = prompt(view, state, api);
  if (ask) parts.push(h("p", { class: "mm-prompt" }, ask));
  if (view.trap && !state.yourTurn) parts.push(h("p", { class: "mm-prompt bad" }, `${seatName(api, view.turn)} fell into a trap: ${view.to_lose} more card${view.to_lose === 1 ? "" : "s"} to lose.`));
  parts.push(actionGroups(legal, GROUPS, api, { label: (a) => a.replace(/before seat (\d+)$/, (_, s) => `before ${seatName(api, Number(s))}`).replace(/to seat (\d+)$/, (_, s) => `to ${seatName(api, Number(s))}`) }));

  parts.push(h("div", { class: "mm-tracks" }, h("h3", {}, "The corridors"), ...view.players.map((p) => playerRow(p, view, api, !view.final && p.seat === view.turn))));
  parts.push(...battlePanel(view, state, api));

  if (view.hand) {
    const cards = view.hand_cards ? view.hand_cards.map(handCard) : (view.hand_labels || view.hand).map((l) => parseLabel(l, spells));
    const choices = selected ? actionsFor(selected, legal) : [];
    parts.push(
      h(
        "div",
        { class: "mm-hand" },
        h("h3", {}, `Your hand (${cards.length})`, h("span", { class: "muted" }, " — click a card to use it")),
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
                disabled: !acts.length,
                title: direct || (acts.length ? `${acts.length} ways to use it` : c.name),
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
          ? h("div", { class: "action-group mm-choices" }, h("span", { class: "verb" }, `${selected}:`), ...choices.map((a) => h("button", { type: "button", class: "action", "data-action": a, onclick: () => ((selected = null), api.act(a)) }, a.replace(/before seat (\d+)$/, (_, s) => `before ${seatName(api, Number(s))}`))))
          : null,
      ),
    );
    const mine = view.players[view.seat];
    parts.push(
      h(
        "div",
        { class: "mm-mine" },
        h("h3", {}, "Your treasures"),
        view.my_treasures.length
          ? h("div", {}, ...view.my_treasures.map((t) => treasureChip(t, false, mine.open_treasures.includes(t) ? "everyone sees it" : "only you see it")), h("span", { class: "muted" }, ` (${mine.hidden_treasures} hidden from the others)`))
          : h("p", { class: "muted" }, "none yet"),
      ),
    );
  }
  if (view.fallen && view.fallen.length) parts.push(h("p", { class: "muted" }, `Fallen this battle: ${view.fallen.join(", ")}`));
  if (view.final) {
    parts.push(finalPanel(view, api));
  }
  root.replaceChildren(h("div", { class: "mm-page" }, ...parts));
}
