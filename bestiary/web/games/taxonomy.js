// The taxonomy table: the hand grouped by collecting key, every player's
// tabled sets, the discard pile, the claim prompt, the rock-paper-scissors
// duel, honest peeks and the round's scoring breakdown. The keys of the view
// are documented on TaxonomyState in bestiary/games/taxonomy/rules.py.
// Everything drawn comes from this seat's view and legal actions, so what a
// seat may not know (who may claim a discard: view.py) never reaches the page;
// a seat that is not asked about a discard sees the table wait between turns.
import { actionButtons, statusLine } from "../js/generic.js";
import { card } from "../js/cards.js";
import { morph } from "../js/morph.js";

// Translation: js/i18n.js sets globalThis.t; until it has loaded, the
// English source text with its {name} placeholders filled.
const fill = (s, p) => String(s).replace(/\{(\w+)\}/g, (_, k) => (p && k in p ? p[k] : "{" + k + "}"));
const t = (s, p) => (globalThis.t ? globalThis.t(s, p) : fill(s, p));
const tn = (one, many, n, p) => (globalThis.tn ? globalThis.tn(one, many, n, { n, ...p }) : fill(n === 1 ? one : many, { n, ...p }));
const N_ = (s) => s; // marks a message for the catalogue; translated where it is shown
// The phases in words (the view's phase is a protocol word).
const PHASE_NAME = { discard: N_("draw and discard"), claim: N_("claiming a discard"), duel: N_("duel"), attack: N_("attack"), impatient: N_("an impatient draw"), declare: N_("declaring the win"), over: N_("game over") };

const RPS = { rock: N_("rock"), paper: N_("paper"), scissors: N_("scissors ✂") };

// Why a round ended and the rows of its scoring: the view has them in the
// engine's English words (scoring.py); these say them as the terminal does
// (games/taxonomy/describe.py: reason_label, rule_text), in the same phrases.
const REASON = { "the stock ran out": N_("the stock ran out"), "a winning hand": N_("a winning hand") };
// The sets the rules make, in the page's language (describe.py: key_label); every
// other key is a type or a Beastman's family, a proper name shown as written.
const RULE_KEYS = { Orphans: N_("Orphans"), "Beastman orphans": N_("Beastman orphans"), Cheerful: N_("Cheerful") };
const keyText = (key) => (Object.hasOwn(RULE_KEYS, key) ? t(RULE_KEYS[key]) : String(key));
const PATTERN = { "two sets of 4": N_("two sets of 4"), "a set of 5 and a set of 3": N_("a set of 5 and a set of 3") };

function peekStillOnTop(v) {
  const peek = v.peek || {};
  const cards = peek.cards || [];
  if (!Number.isInteger(peek.stock_then) || !Number.isInteger(v.stock)) return cards;
  return cards.slice(Math.max(peek.stock_then - v.stock, 0));
}

function claimsText(text) {
  const m = /^(no claims|1 claim|(\d+) claims)$/.exec(text);
  if (!m) return null;
  const n = text === "no claims" ? 0 : text === "1 claim" ? 1 : Number(m[2]);
  return n === 0 ? t("no claims") : tn("{n} claim", "{n} claims", n);
}

function ruleText(rule) {
  let m = /^(two sets of 4|a set of 5 and a set of 3), (.+)$/.exec(rule);
  let claims = m && claimsText(m[2]);
  if (claims) return t("{pattern}, {claims}", { pattern: t(PATTERN[m[1]]), claims });
  if (rule === "a set of 8, concealed (no claims)") return t("a set of 8, concealed (no claims)");
  m = /^a set of 8, exposed \((.+)\)$/.exec(rule);
  claims = m && claimsText(m[1]);
  if (claims) return t("a set of 8, exposed ({claims})", { claims });
  m = /^set of (\d) (.+) \(a key of (\d+) cards\)(, scored as a set of 4)?$/.exec(rule);
  if (m) {
    const n = Number(m[3]);
    if (m[4]) return tn("set of 5 {key} (a key of {n} card), scored as a set of 4", "set of 5 {key} (a key of {n} cards), scored as a set of 4", n, { key: keyText(m[2]) });
    return tn("set of {size} {key} (a key of {n} card)", "set of {size} {key} (a key of {n} cards)", n, { size: m[1], key: keyText(m[2]) });
  }
  if ((m = /^set of 3 (.+) \(the 3 of a 5\+3\)$/.exec(rule))) return t("set of 3 {key} (the 3 of a 5+3)", { key: keyText(m[1]) });
  if ((m = /^7 orphans and one other monster \((.+)\)$/.exec(rule))) return t("7 orphans and one other monster ({key})", { key: keyText(m[1]) });
  if ((m = /^a set of 8 orphans \((.+)\)$/.exec(rule))) return t("a set of 8 orphans ({key})", { key: keyText(m[1]) });
  if ((m = /^set of 4 (.+)$/.exec(rule))) return t("set of 4 {key}", { key: keyText(m[1]) });
  return rule;
}

// What each nature does (the rulebook's list), for the card help.
const NATURE_HELP = {
  aggressive: N_("aggressive: when discarded it may be sent at a player, who loses a turn if they lose rock-paper-scissors"),
  cheerful: N_("cheerful: discard one and every cheerful card in your hand goes too; cheerful cards form a set of any types"),
  mean: N_("mean: when discarded you also discard a random card"),
  honest: N_("honest: when drawn, look at the top 3 cards of the stock (taken from a player: see their hand)"),
  impatient: N_("impatient: when drawn, draw another card at once"),
  proud: N_("proud: when discarded, every card of its type goes too, and you may never collect that type again"),
  loyal: N_("loyal: when it is discarded, nobody may take it into their set"),
  miscellaneous: N_("miscellaneous: its nature is rolled (2d20-4) when it matters"),
};

// What this seat must decide now, in the page's language (the view's
// "prompt" is the engine's English, for logs and bots).
function promptOf(v) {
  if (v.seat === null || v.seat === undefined || !(v.to_act || []).includes(v.seat)) return "";
  const c = v.claim || {};
  switch (v.phase) {
    case "discard":
      return t("Your turn: discard a card — or table a card you drew, or declare the win when your hand wins.");
    case "claim":
      if (!c.card) break;
      if (c.to_keep) return tn("Choose {n} card to keep in hand; the other three are laid with {card}.", "Choose {n} cards to keep in hand; the other three are laid with {card}.", Number(c.to_keep), { card: c.card.name });
      return c.keys && c.keys.length ? t("Claim {card}, or pass.", { card: c.card.name }) : t("You cannot claim {card}: pass.", { card: c.card.name });
    case "duel":
      return t("Rock, paper or scissors?");
    case "attack":
      if (v.attack && v.attack.card) return t("Send {card} at a player, or not.", { card: v.attack.card.name });
      break;
    case "impatient":
      return t("An impatient monster: draw another card, or stop.");
    case "declare":
      return t("Your hand wins: declare it, or play on.");
  }
  return v.prompt || "";
}

function cardHelp(c) {
  const lines = [c.name, t("type {type} · family {family}", { type: c.type, family: c.family || c.type })];
  if (c.keys && c.keys.length) lines.push(t("collected as: {keys}", { keys: c.keys.map(keyText).join(", ") }));
  for (const n of c.natures || []) lines.push("• " + (NATURE_HELP[n] ? t(NATURE_HELP[n]) : n));
  if (!(c.natures || []).length) lines.push(t("no nature that changes the game"));
  return lines.join("\n");
}

function svgCard(c, extra = {}) {
  const el = card({
    name: c.name,
    type: c.type,
    family: c.family && c.family !== c.type ? c.family : "",
    nature: natureMark(c.natures || []),
    note: natureNames(c.natures || []),
    value: c.roll,
    width: extra.width || 88,
    selected: extra.selected,
  });
  el.setAttribute("data-help", cardHelp(c));
  return el;
}

// A nature's mark on a card: a symbol, not a cut-off word ("agg+" read as
// nothing to a newcomer); its name in full is written under the card's
// picture and its effect is in the card's help (hover, focus or long-press).
const NATURE_ICON = {
  aggressive: "⚔",
  cheerful: "☀",
  mean: "✂",
  honest: "⚖",
  impatient: "⌛",
  proud: "♛",
  loyal: "♥",
  miscellaneous: "⚄",
};
function natureMark(natures) {
  if (!natures.length) return null;
  return natures.slice(0, 2).map((n) => NATURE_ICON[n] || "?").join("");
}

// A nature's name in the page's language: the head of its translated help
// ("loyal: …" / "lojalna: …"), so the name and its explanation never disagree.
function natureNames(natures) {
  return natures.map((n) => (NATURE_HELP[n] ? t(NATURE_HELP[n]).split(":")[0] : n)).join(", ");
}

export function render(root, state, api) {
  const { h } = api;
  const v = state.view;
  const legal = new Set(state.legal || []);
  const used = new Set(); // legal actions this page already offers
  const label = (seat) => api.seatLabel(seat);

  // A control that submits a legal action: data-action marks it for tests too.
  const actButton = (text, content, cls = "action") => {
    used.add(text);
    return h("button", { type: "button", class: cls, "data-action": text, onclick: () => api.act(text) }, content);
  };

  const parts = [statusLine(state)];
  const asked = promptOf(v);
  if (asked) parts.push(h("p", { class: "prompt" }, asked));

  // -- the round at a glance -------------------------------------------------------
  parts.push(
    h(
      "div",
      { class: "tx-summary" },
      h("span", {}, t("Round {n} of {rounds}", { n: v.round, rounds: v.rounds })),
      h("span", {}, t("phase: {phase}", { phase: t(PHASE_NAME[v.phase] || v.phase) })),
      !state.over && !(v.to_act || []).length ? h("span", { class: "muted" }, t("the table waits…")) : "",
      v.turn >= 0 && !state.over ? h("span", {}, t("turn: {name}", { name: label(v.turn) })) : "",
      h("span", {}, t("dealer: {name}", { name: label(v.dealer) })),
      h("span", {}, t("stock: {n}", { n: v.stock })),
    ),
  );
  parts.push(
    h(
      "table",
      { class: "tx-players" },
      h("thead", {}, h("tr", {}, ...[N_("player"), N_("score"), N_("hand"), N_("claims"), N_("skips"), N_("banned types")].map((x) => h("th", {}, t(x))))),
      h(
        "tbody",
        {},
        ...v.hand_counts.map((n, s) =>
          h(
            "tr",
            { class: [s === v.turn ? "turn" : "", s === state.seat ? "me" : ""].join(" ").trim() },
            h("td", {}, label(s)),
            h("td", {}, String(v.scores[s])),
            h("td", {}, String(n)),
            h("td", {}, String(v.claims[s])),
            h("td", {}, String(v.skips[s])),
            h("td", { class: "bans" }, (v.bans[s] || []).join(", ") || "—"),
          ),
        ),
      ),
    ),
  );

  // -- decisions that interrupt the turn --------------------------------------------
  if (v.claim) {
    const claims = [...legal].filter((a) => a.startsWith("claim "));
    // The claimer chooses the set: with more than three cards of the key, pick
    // the ones to keep in hand; the other three go down with the claimed card.
    const keeps = [...legal].filter((a) => a.startsWith("keep "));
    const byName = new Map((v.hand || []).map((c) => [c.name, c]));
    parts.push(
      h(
        "div",
        { class: "tx-box tx-claim" },
        h("h3", {}, t("Claim {card}, discarded by {name}?", { card: v.claim.card.name, name: label(v.claim.discarder) })),
        h("div", { class: "cards" }, svgCard(v.claim.card)),
        claims.length || legal.has("pass") ? h("div", { class: "action-group" }, ...claims.map((a) => actButton(a, t("claim as {key}", { key: keyText(a.slice(6)) }))), legal.has("pass") ? actButton("pass", t("pass")) : "") : "",
        keeps.length
          ? h(
              "div",
              {},
              h("p", {}, t("Claiming as {key}: choose {n} card(s) to keep in hand; the other three are laid.", { key: keyText(v.claim.key), n: v.claim.to_keep })),
              h("div", { class: "cards" }, ...keeps.map((a) => {
                const c = byName.get(a.slice(5));
                const b = actButton(a, c ? svgCard(c, { width: 70 }) : a.slice(5), "card-button");
                b.title = a;
                return b;
              })),
            )
          : "",
        v.claim.decided ? h("p", { class: "muted" }, t("You have decided; waiting for the others.")) : "",
      ),
    );
  }
  if (v.duel) {
    const d = v.duel;
    const choices = ["rock", "paper", "scissors"].filter((x) => legal.has(`rps ${x}`));
    parts.push(
      h(
        "div",
        { class: "tx-box tx-duel" },
        h("h3", {}, t("Duel: {attacker} attacks {target} with {card}", { attacker: label(d.attacker), target: label(d.target), card: d.card.name })),
        h("div", { class: "cards" }, svgCard(d.card)),
        d.ties ? h("p", {}, t("ties so far: {n}", { n: d.ties })) : "",
        choices.length ? h("div", { class: "action-group rps" }, ...choices.map((x) => actButton(`rps ${x}`, t(RPS[x])))) : "",
        d.your_choice ? h("p", {}, t("You chose {choice}; waiting for your opponent.", { choice: t(RPS[d.your_choice] || d.your_choice) })) : "",
      ),
    );
  }
  if (v.attack) {
    const targets = [...legal].filter((a) => a.startsWith("attack "));
    parts.push(
      h(
        "div",
        { class: "tx-box tx-attack" },
        h("h3", {}, t("{card} is aggressive: send it at a player?", { card: v.attack.card.name })),
        h("div", { class: "cards" }, svgCard(v.attack.card)),
        h("div", { class: "action-group" }, ...targets.map((a) => actButton(a, t("attack {name}", { name: label(Number(a.split(" ")[1])) }))), legal.has("no attack") ? actButton("no attack", t("no attack")) : ""),
      ),
    );
  }
  const quick = ["draw", "stop", "win"].filter((a) => legal.has(a));
  if (v.phase === "declare" && legal.has("pass")) quick.push("pass");
  if (quick.length) {
    const names = { draw: N_("draw another card"), stop: N_("stop drawing"), win: N_("declare the win!"), pass: N_("play on") };
    parts.push(h("div", { class: "tx-box" }, h("div", { class: "action-group" }, ...quick.map((a) => actButton(a, names[a] ? t(names[a]) : a, a === "win" ? "action win" : "action")))));
  }

  // -- the hand, grouped by collecting key --------------------------------------------
  if (v.hand) {
    const groups = new Map();
    for (const c of v.hand) {
      const key = (c.keys && c.keys[0]) || "orphan";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(c);
    }
    const drawn = new Set(v.drawn || []);
    const rows = [...groups.entries()]
      .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
      .map(([key, cards]) =>
        h(
          "div",
          { class: "tx-group" },
          h("div", { class: "tx-key" }, h("strong", {}, keyText(key)), ` ${cards.length}`, v.key_sizes && v.key_sizes[key] ? h("span", { class: "muted" }, (" " + t("of {n} in the deck", { n: v.key_sizes[key] }))) : "", (v.orphan_keys || []).includes(key) ? h("span", { class: "muted" }, (" " + t("(orphan)"))) : ""),
          h(
            "div",
            { class: "cards" },
            ...cards.map((c) => {
              const discard = `discard ${c.name}`;
              const table = `table ${c.name}`;
              const picture = svgCard(c, { selected: drawn.has(c.name) });
              const cell = h("div", { class: "tx-card" });
              if (legal.has(discard)) {
                const b = actButton(discard, picture, "card-button");
                b.title = t("discard {card}", { card: c.name });
                cell.append(b);
              } else cell.append(picture);
              if (legal.has(table)) cell.append(actButton(table, t("table it"), "action small"));
              return cell;
            }),
          ),
        ),
      );
    parts.push(h("h3", {}, t("Your hand ({n})", { n: v.hand.length }) + (legal.size && [...legal].some((a) => a.startsWith("discard ")) ? (" — " + t("click a card to discard it")) : "")), h("div", { class: "tx-hand" }, ...rows));
  }

  // -- honest peeks ---------------------------------------------------------------
  // Only the peeked cards still on top of the stock, as the terminal shows them
  // (render.py peek_left: each draw since the peek took the first), and none
  // once the game is over.
  const peekLeft = peekStillOnTop(v);
  if (peekLeft.length && v.phase !== "over") {
    parts.push(h("div", { class: "tx-box tx-peek" }, h("h3", {}, t("Your honest peek at the top of the stock (top first)")), h("div", { class: "cards" }, ...peekLeft.map((c) => svgCard(c, { width: 70 })))));
  }
  const seen = Object.entries(v.seen_hands || {});
  if (seen.length) {
    parts.push(
      h(
        "div",
        { class: "tx-box tx-peek" },
        h("h3", {}, t("Hands you saw through an honest monster")),
        ...seen.map(([s, cards]) => h("div", {}, h("p", {}, label(Number(s))), h("div", { class: "cards" }, ...cards.map((c) => svgCard(c, { width: 60 }))))),
      ),
    );
  }

  // -- the table: sets, discard pile, set-aside cards -------------------------------------
  const tables = v.tables.map((sets, s) =>
    sets.length || (v.set_aside[s] || []).length
      ? h(
          "div",
          { class: "tx-table" },
          h("h4", {}, label(s)),
          ...sets.map((set) => h("div", { class: "tx-set" }, h("span", { class: "tx-key" }, keyText(set.key)), h("div", { class: "cards" }, ...set.cards.map((c) => svgCard(c, { width: 60 }))))),
          (v.set_aside[s] || []).length ? h("div", { class: "tx-set" }, h("span", { class: "tx-key" }, t("set aside")), h("div", { class: "cards" }, ...v.set_aside[s].map((c) => svgCard(c, { width: 60 })))) : "",
        )
      : "",
  );
  parts.push(
    h("h3", {}, t("On the table")),
    h(
      "div",
      { class: "tx-tables" },
      h(
        "div",
        { class: "tx-table tx-discards" },
        h("h4", {}, t("Discard pile ({n})", { n: v.discards.length })),
        v.discard_top ? svgCard(v.discard_top, { width: 80 }) : h("p", { class: "muted" }, t("empty")),
        v.discards.length > 1 ? h("details", {}, h("summary", {}, t("all discards")), h("p", { class: "small" }, v.discards.map((c) => c.name).join(", "))) : "",
      ),
      ...tables,
    ),
  );

  // -- scoring -------------------------------------------------------------------------
  if (v.round_results && v.round_results.length) {
    // The last round's scoring while it is news: at the end, or in the next round's
    // first go-round (render.py fresh_result); the table above keeps every round.
    const last = v.result || (v.turns || 0) <= (v.players || 0) ? v.last_round : null;
    parts.push(
      h("h3", {}, t("Rounds")),
      h(
        "table",
        { class: "tx-rounds" },
        h("thead", {}, h("tr", {}, ...[N_("round"), N_("winner"), N_("pattern"), N_("points"), N_("why")].map((x) => h("th", {}, t(x))))),
        h(
          "tbody",
          {},
          ...v.round_results.map((r) =>
            h("tr", {}, h("td", {}, String(r.round)), h("td", {}, r.winner === null ? t("nobody") : label(r.winner)), h("td", {}, r.pattern || "—"), h("td", {}, String(r.points)), h("td", {}, r.reason ? t(REASON[r.reason] || r.reason) : "")),
          ),
        ),
      ),
    );
    if (last && last.breakdown && last.breakdown.length) {
      parts.push(
        h(
          "div",
          { class: "tx-box tx-breakdown" },
          h("h3", {}, t("Round {n} scoring: {name} — {pattern} for {points} points", { n: last.round, name: last.winner === null ? t("nobody") : label(last.winner), pattern: last.pattern, points: last.points })),
          h("table", {}, h("tbody", {}, ...last.breakdown.map((b) => h("tr", {}, h("td", {}, ruleText(b.rule)), h("td", { class: "num" }, String(b.points)))))),
          ...(last.sets || []).map((s) => h("p", { class: "small" }, `${keyText(s.key)}: ${s.cards.join(", ")} (${s.points})`)),
        ),
      );
    }
  }

  // Anything legal the page did not offer above (a rule added later) stays playable.
  const rest = (state.legal || []).filter((a) => !used.has(a));
  if (rest.length) {
    const typed = root.querySelector(".actions > input.filter"); // kept by the morph
    parts.splice(2, 0, actionButtons({ ...state, legal: rest }, api, typed ? typed.value : ""));
  }

  // In place: a redraw keeps the buttons a person may be pressing (morph.js).
  morph(root, parts);
}
