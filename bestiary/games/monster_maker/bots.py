"""The ``heuristic`` Monster Maker bot: races, blocks the leader, fights on good
odds (exact dice probabilities), and plays the road back to land exactly.

It sees only its seat's view and legal moves (through the agent context).

Tuning options (agent spec ``heuristic:name=value,...``), each defaulting to
the plain bot's play, which stays the yardstick:

- ``fight_odds`` (0.6): start a battle when the best party wins this often;
  ``enough`` (0.85): stop adding cards to a battle at these odds;
  ``detour_odds`` (0.75): detour around a monster beaten less often than this;
  ``sure_win`` (0.95): fight a big monster (18+) only at these odds;
  ``shed_odds`` (0.3): with a card to discard anyway, fight at these odds.
- ``block_margin`` (0.25) and ``block_lead`` (0.6): place a monster before the
  leader when its progress (0 to 1: out, then back) is this far ahead of ours,
  or ahead of ours at all once it is this far along. ``block_margin=0`` blocks
  any leader ahead of us (a negative margin also one a little behind).
- ``road`` (``common``): how the road back is walked. ``common`` plays the
  longest corridor after which the hand lands the rest or the rest is a common
  length (10p-40p) or 50p+, else waits. ``plan`` plays the corridor after
  which the hand plus one draw, or two (worth half), most likely lands the
  rest, by the deck's make-up; ``count`` the same with the odds of the
  corridors out of sight (the deck less the hand and every corridor on the
  table). Both wait instead when the best corridor leaves the landing less
  likely than ``keep`` (0.7) times the chance of landing without playing.
- ``worth`` (``length``): which card goes when one must (8 cards, a trap).
  ``length`` values every corridor up to the rest of the road back alike;
  ``plan`` only those the landing needs (without one it lands less likely,
  as ``road=plan`` reckons it: the others go first); ``hand`` also halves the
  worth of a character with three as strong beside it in hand.
- ``heal`` (``always``): "Heal" exchanges a Cleric for a fallen character;
  ``stronger`` does it only for a character worth more than the Cleric (not
  for a Magic-User, 2D+2 against the Cleric's 2D+3).
- ``doomed`` (``walk``): with no draw left for it and a hand that cannot take
  it home, ``block`` lays no more corridors and places its monsters before
  the others instead (before any of them, not only a leader ahead of it).
- ``draws`` (``deck``): ``left`` makes ``road=plan`` count on only the draws
  the pile still holds for this seat (the pile shared among the players still
  below: none, one, or two and more), and ``doomed`` look ahead the same way.
- ``target_gold`` (0): which opponent a monster goes before: the furthest
  along, plus this times its gold in sight (banked, prizes, treasures carried
  home) per 1,000.
- ``hold`` (0): keep the strongest monster in hand until a leader is this far
  along (0 to 1: out, then back) — the one about to get home and draw the
  prize; a second monster may go before a leader earlier, the weakest first.
- ``block_lead`` changes no move when ``block_margin`` is 0 or less (any
  leader ahead is blocked then).

The strongest measured in seat-rotated games against the plain bot (``TUNED``
in value.py): ``road=plan,block_margin=0,worth=hand,heal=stronger,
doomed=block,draws=left,hold=0.75`` — 38.4% of 2,000 four-seat games, one
against three plain (RULES.md, "The heuristic bot"; the options' tests:
``tests/games/monster_maker/test_bot_options.py``).
"""

from __future__ import annotations

from typing import Any

from bestiary.agents.context import AgentContext, option_choice, option_flag, option_number
from bestiary.engine import Rng

from . import battle
from .actions import Move
from .battle import Member
from .cards import CardSet, Strength, load_cardset
from .road import reachable
from .ruleset import MonsterMakerRules
from .view import PARTIAL_FIELDS

# Corridor lengths the draw pile is rich in: a road-back remainder of one of
# these is likely to be drawn before the endgame.
COMMON = (10, 20, 30, 40)
FIGHT_ODDS = 0.6  # start a battle when the best party wins this often
ENOUGH = 0.85  # stop adding cards to a battle at these odds
DETOUR_ODDS = 0.75  # detour around a monster the best party beats less often than this
BIG_MONSTER = 18  # a monster this strong costs many characters: detour unless ...
SURE_WIN = 0.95  # ... the odds are this good (then the fight is worth its cards)


BLOCK_MARGIN = 0.25  # block a leader this far ahead of us (progress 0..1) ...
BLOCK_LEAD = 0.6  # ... or any leader ahead of us once this far along
SHED_ODDS = 0.3  # must discard anyway: a battle this likely to win costs no more

# How the road back is walked: ``common`` (play the longest corridor whose
# remainder the hand lands or is a common length), ``plan`` (the corridor whose
# remainder the hand plus one or two draws most likely lands).
# ``count``: ``plan`` with the draw odds of the corridors not in sight (the
# deck's make-up less the hand and every corridor on the table).
ROADS = ("common", "plan", "count")
# What a corridor in hand is worth on the road back when a card must go:
# ``length`` (any corridor not longer than the rest) or ``plan`` (only one
# the landing needs: without it the road back lands less likely).
# ``hand``: ``plan``, and a character beyond the three strongest in hand is
# worth half (a party seldom needs more; a Detour or a corridor may).
WORTHS = ("length", "plan", "hand")
# After a battle, which fallen character a Cleric is exchanged for ("Heal"):
# ``always`` (the strongest fallen one, even one weaker than the Cleric) or
# ``stronger`` (only one worth more than the Cleric given for it).
HEALS = ("always", "stronger")
# A player who cannot get home any more (no draws left, and the hand cannot
# land the road back or reach the treasure room and back): ``walk`` plays its
# corridors as ever, ``block`` lays none and places its monsters before the
# others instead (its own corridors bring it nothing; theirs take gold home).
DOOMED = ("walk", "block")
# How many draws ``road=plan`` counts on: ``deck`` (always one or two), or
# ``left`` (the draws this seat still gets before the draw pile runs out: the
# pile shared among the players still in the dungeon, none in the endgame).
DRAWS = ("deck", "left")
CARRIED = 150  # target_gold: a treasure carried, in gold, once home
PARTY = 3  # worth=hand: characters in hand at full worth
KEEP = 0.7  # plan: play a corridor unless it leaves a landing this much less likely
TWO_DRAWS = 0.5  # plan: a landing that needs two draws is worth this much of one


def _odds_option(name: str, value: str | float) -> float:
    return option_number(name, value, 0.0, 1.0)


# Battle odds by rules, party, monster and penalty, shared by every cached bot
# of the process (``odds_cache``): a simulation's games meet the same parties
# again and again. The odds are a function of these alone (the card set and
# strengths follow from the rules), so a bot reads the same numbers as its own
# ``battle.win_chance`` would give.
_SHARED_ODDS: dict[tuple[MonsterMakerRules, tuple[tuple[Member, ...], int, int]], float] = {}
_SHARED_MAX = 50_000  # about 500 bytes each: some 25 MB at most


def _shared_odds(
    cs: CardSet,
    rules: MonsterMakerRules,
    table: tuple[Strength | None, ...],
    key: tuple[tuple[Member, ...], int, int],
) -> float:
    odds = _SHARED_ODDS.get((rules, key))
    if odds is None:
        if len(_SHARED_ODDS) >= _SHARED_MAX:
            _SHARED_ODDS.clear()
        party, need, penalty = key
        # ``battle.win_chance``, the party's total added up as it adds it
        # (member by member, from the shared totals of its first members).
        odds = 0.0
        if party:
            odds = battle.chance(battle.penalised(_totals(cs, rules, table, party), penalty), need)
        _SHARED_ODDS[(rules, key)] = odds
    return odds


# A party's total before any penalty (``battle.total_distribution``'s sum),
# by rules and party, and each member's, shared like the odds: the odds of a
# party against other monsters and penalties, and of parties with the same
# first members, add up the same numbers.
_SHARED_TOTALS: dict[tuple[MonsterMakerRules, tuple[Member, ...]], battle.Distribution] = {}
_SHARED_MEMBERS: dict[tuple[MonsterMakerRules, Member], battle.Distribution] = {}
_TOTALS_MAX = 10_000  # about 4 kB each (some 60 totals): 40 MB at most


def _totals(
    cs: CardSet,
    rules: MonsterMakerRules,
    table: tuple[Strength | None, ...],
    party: tuple[Member, ...],
) -> battle.Distribution:
    """The distribution of the party's total before the penalty, exactly as
    ``battle.total_distribution`` adds it up (read only: shared)."""
    if not party:
        return {0: 1.0}
    got = _SHARED_TOTALS.get((rules, party))
    if got is None:
        if len(_SHARED_TOTALS) >= _TOTALS_MAX:
            _SHARED_TOTALS.clear()
            _SHARED_MEMBERS.clear()
        m = party[-1]
        member = _SHARED_MEMBERS.get((rules, m))
        if member is None:
            member = _SHARED_MEMBERS[(rules, m)] = battle.member_distribution(cs, rules, table, m)
        got = battle.add(_totals(cs, rules, table, party[:-1]), member)
        _SHARED_TOTALS[(rules, party)] = got
    return got


class HeuristicAgent:
    """Two options that change no move, both on by default (issue 31: a whole
    simulation spent half its time on battle odds and a fifth on the view):
    ``odds_cache`` remembers every battle's exact odds and every card's mean
    strength for the match (the same party, monster and penalty always has the
    same odds); ``lite`` reads only the entries of the seat's view it uses
    (``view.PARTIAL_FIELDS``, built without the rest: ``State.partial_view``).
    Together a search playout takes about a third of the time and a whole
    heuristic game about 0.7 of it; ``odds_cache=0,lite=0`` is the old path
    (``tests/sim/test_same_games.py`` checks the moves are the same). With
    ``odds_cache`` the odds are also shared by every bot of the process under
    the same rules (``_shared_odds``). The tuning options (battle odds,
    blocking, the road back) are described in the module docstring; their
    defaults play as the plain bot."""

    def __init__(
        self,
        seed: int = 0,
        fight_odds: str | float = FIGHT_ODDS,
        odds_cache: bool | str = True,
        lite: bool | str = True,
        detour_odds: str | float = DETOUR_ODDS,
        enough: str | float = ENOUGH,
        block_margin: str | float = BLOCK_MARGIN,
        block_lead: str | float = BLOCK_LEAD,
        shed_odds: str | float = SHED_ODDS,
        sure_win: str | float = SURE_WIN,
        road: str = "common",
        keep: str | float = KEEP,
        worth: str = "length",
        heal: str = "always",
        doomed: str = "walk",
        draws: str = "deck",
        target_gold: str | float = 0.0,
        hold: str | float = 0.0,
    ) -> None:
        self.rng = Rng(seed)
        self.fight_odds = _odds_option("fight_odds", fight_odds)
        self.detour_odds = _odds_option("detour_odds", detour_odds)
        self.enough = _odds_option("enough", enough)
        self.block_margin = option_number("block_margin", block_margin, -1.0, 1.0)
        self.block_lead = option_number("block_lead", block_lead, 0.0, 1.0)
        self.shed_odds = _odds_option("shed_odds", shed_odds)
        self.sure_win = _odds_option("sure_win", sure_win)
        self.road = option_choice("road", road, ROADS)
        self.keep = option_number("keep", keep, 0.0, 10.0)
        self.worth = option_choice("worth", worth, WORTHS)
        self.heal = option_choice("heal", heal, HEALS)
        self.doomed = option_choice("doomed", doomed, DOOMED)
        self.draws = option_choice("draws", draws, DRAWS)
        self.target_gold = option_number("target_gold", target_gold, 0.0, 10.0)
        self.hold = option_number("hold", hold, 0.0, 1.0)
        self.odds_cache = option_flag("odds_cache", odds_cache)
        self.lite = option_flag("lite", lite)
        self._odds: dict[tuple[tuple[Member, ...], int, int], float] = {}
        self._means: dict[int, float] = {}
        self._draws: list[tuple[int, float]] | None = None
        # The card set and strengths of the match, loaded once per match (per
        # rules object), not at every decision.
        self._rules: MonsterMakerRules | None = None
        self._cs: CardSet | None = None
        self._strength: tuple[Strength | None, ...] = ()
        self._treasures: tuple[CardSet, dict[str, int]] | None = None
        self._card_index: tuple[CardSet, dict[str, int]] | None = None

    def _cards(self, rules: MonsterMakerRules) -> tuple[CardSet, tuple[Strength | None, ...]]:
        if self._cs is None or rules is not self._rules:
            self._rules = rules
            self._odds, self._means, self._draws = {}, {}, None
            self._cs = load_cardset(rules.cards, rules.treasures, rules.prizes)
            self._strength = battle.strengths(self._cs, rules)
        return self._cs, self._strength

    def _cindex(self, cs: CardSet) -> dict[str, int]:
        """Card name (as the view writes it) -> index, as ``cs.by_name`` finds
        it, once per card set (read only)."""
        if self._card_index is None or self._card_index[0] is not cs:
            index = {c.name: cs.by_name[c.name.casefold()].index for c in cs.cards}
            self._card_index = (cs, index)
        return self._card_index[1]

    def _tindex(self, cs: CardSet) -> dict[str, int]:
        """Treasure name -> index, once per card set (read only)."""
        if self._treasures is None or self._treasures[0] is not cs:
            self._treasures = (cs, {t.name: t.index for t in cs.treasures})
        return self._treasures[1]

    def _view(self, ctx: AgentContext) -> dict[str, Any]:
        # The entries of the view this bot reads, and only those (lite: the
        # game builds them without the rest of the view).
        return ctx.view(PARTIAL_FIELDS) if self.lite else ctx.view()

    # ------------------------------------------------------------ entry
    def act(self, ctx: AgentContext) -> Move:
        legal: list[Move] = list(ctx.legal())  # type: ignore[arg-type]
        if len(legal) == 1:
            return legal[0]
        rules = ctx.rules
        cs, table = self._cards(rules)
        view = self._view(ctx)
        by: dict[str, list[Move]] = {}
        for m in legal:
            by.setdefault(m.kind, []).append(m)
        turn = _Turn(self, cs, table, view, ctx.seat, by, rules)
        return turn.decide()


class _Turn:
    """One decision: the view decoded, and the choice."""

    def __init__(
        self,
        agent: HeuristicAgent,
        cs: CardSet,
        table: tuple[Strength | None, ...],
        view: dict[str, Any],
        seat: int,
        by: dict[str, list[Move]],
        rules: MonsterMakerRules,
    ) -> None:
        self.agent, self.cs, self.view, self.seat, self.by, self.rules = (
            agent,
            cs,
            view,
            seat,
            by,
            rules,
        )
        self.table = table  # strengths under the rules in force (battle.strengths)
        self.me = view["players"][seat]
        index = agent._cindex(cs)
        self.hand = [index[n] for n in view["hand"]]
        self.tindex = agent._tindex(cs)  # treasure name -> index
        self._draws_now: list[tuple[int, float]] | None = None
        self._land_now: float | None = None

    def mean(self, c: int) -> float:
        means = self.agent._means if self.agent.odds_cache else None
        if means is not None and c in means:
            return means[c]
        st = self.table[c]
        m = st.mean if st is not None else 0.0
        if means is not None:
            means[c] = m
        return m

    # ------------------------------------------------------------ helpers
    def progress(self, p: dict[str, Any]) -> float:
        room = self.view["treasure_room"]
        if p["status"] == "outward":
            return 0.5 * min(p["distance_out"] / room, 1.0)
        if p["status"] == "returning":
            return 0.5 + 0.5 * p["distance_back"] / max(p["return_target"], 1)
        return 1.0 if p["status"] == "home" else -1.0

    def card_worth(self, c: int) -> float:
        card = self.cs.cards[c]
        if card.kind == "corridor":
            if self.me["status"] == "returning":
                left = self.me["return_target"] - self.me["distance_back"]
                if card.value > left:
                    return 0.2
                if self.agent.worth != "length" and not self._needed(c, left):
                    return 0.2
                return 3.0
            return card.value / 10
        if card.kind == "monster":
            return 1.0 + card.value / 10
        if card.kind == "character":
            worth = self.character_worth(c)
            if self.agent.worth == "hand" and self._surplus(c):
                worth /= 2
            return worth
        if card.kind == "spell":
            return 1.5
        if card.kind == "detour":
            return 2.5
        return 0.0

    def character_worth(self, c: int) -> float:
        """A character's worth: its mean strength, and one more for a Thief
        (it avoids traps)."""
        extra = 1.0 if self.cs.cards[c].has("avoids_traps") else 0.0
        return 1.0 + self.mean(c) / 5 + extra

    def cheapest(self, moves: list[Move]) -> Move:
        return min(moves, key=lambda m: (self.card_worth(m.a), m.index))

    def leader(self, targets: set[int]) -> int | None:
        best, best_p = None, -2.0
        weight = self.agent.target_gold
        for s in targets:
            p = self.progress(self.view["players"][s])
            if weight:
                p += weight * self._gold(self.view["players"][s]) / 1000
            if p > best_p:
                best, best_p = s, p
        return best

    def _needed(self, c: int, left: int) -> bool:
        """``worth=plan``: the road back lands less likely without corridor ``c``."""
        cards = self.cs.cards
        corridors = [cards[x].value for x in self.hand if cards[x].kind == "corridor"]
        if self._land_now is None:
            self._land_now = self._landing(left, corridors)
        corridors.remove(cards[c].value)
        return self._landing(left, corridors) < self._land_now

    def _gold(self, p: dict[str, Any]) -> float:
        """``target_gold``: the gold a seat has in sight — banked treasures (a
        die's mean until rolled), prizes — and its treasures carried, worth
        their average treasure's gold as far as it is along the road home."""
        cs = self.cs
        worthless = set(p["worthless"])
        rolled = dict(p["rolled"])
        gold = 0.0
        for name in p["banked"]:
            if name in worthless:
                continue
            if name in rolled:
                gold += rolled[name]
                continue
            g = cs.treasures[self.tindex[name]].gold
            gold += g.dice * 3.5 * g.times + g.plus if g.rolled else g.fixed
        prizes = {x.name: x.gold for x in cs.prizes}
        gold += sum(prizes[n] for n in p["prizes"])
        carried = len(p["open_treasures"]) + p["hidden_treasures"]
        return gold + CARRIED * carried * max(self.progress(p), 0.0)

    def _heal_gains(self, c: int) -> bool:
        """``heal=stronger``: "Heal" gives a Cleric from the hand for the fallen
        ``c``: worth it only when ``c`` is worth more than the Cleric (a
        Magic-User's 2D+2 is weaker than the Cleric's 2D+3, which also dispels)."""
        cards = self.cs.cards
        clerics = [x for x in self.hand if cards[x].has("heals")]
        if not clerics:
            return False
        cleric = min(clerics, key=self.character_worth)
        return self.character_worth(c) > self.character_worth(cleric)

    def _draws_left(self) -> int:
        """``draws=left``: the draws this seat still gets: none in the endgame,
        else the draw pile shared among the players still in the dungeon (2 at
        most: the landing counts no more)."""
        if self.view["endgame"]:
            return 0
        if self.agent.draws == "deck":
            return 2
        active = sum(1 for p in self.view["players"] if p["status"] in ("outward", "returning"))
        return min(2, self._draw_pile() // max(active, 1))

    def _draw_pile(self) -> int:
        """The draw pile's size (public; a ``lite`` view has it too)."""
        return int(self.view["draw_pile"])

    def is_doomed(self) -> bool:
        """``doomed=block``: no draws left and the hand cannot take this seat
        home (reach the treasure room, then land the road back exactly)."""
        if not self.view["endgame"] and self.agent.draws == "deck":
            return False
        return not self._hand_goes_home() and self._draws_left() == 0

    def _hand_goes_home(self) -> bool:
        """The corridors in hand take this seat home without a draw."""
        cards, me = self.cs.cards, self.me
        corridors = [cards[c].value for c in self.hand if cards[c].kind == "corridor"]
        if me["status"] == "returning":
            return reachable(corridors, me["return_target"] - me["distance_back"])
        if me["status"] != "outward":
            return True
        # Outward: some corridors reach the room, the rest land the way back.
        need = self.view["treasure_room"] - me["distance_out"]
        n = len(corridors)
        if n > 16:
            return True
        for mask in range(1, 1 << n):
            out = [corridors[i] for i in range(n) if mask >> i & 1]
            go = sum(out)
            if go < need:
                continue
            back = [corridors[i] for i in range(n) if not mask >> i & 1]
            # No OPEN treasure counted: the road back is the way out.
            if reachable(back, me["distance_out"] + go):
                return True
        return False

    def _surplus(self, c: int) -> bool:
        """``worth=hand``: besides ``c``, at least ``PARTY`` characters in hand
        are as strong (by mean) — another copy of the same card counts."""
        cards, mean = self.cs.cards, self.mean(c)
        others = [x for x in self.hand if cards[x].kind == "character"]
        others.remove(c)
        return sum(1 for x in others if self.mean(x) >= mean) >= PARTY

    # ------------------------------------------------------------ battle odds
    def _need(self) -> int:
        name = self.me["monster"]
        return self.cs.by_name[name.casefold()].value

    def _monster(self) -> int:
        return self.cs.by_name[self.me["monster"].casefold()].index

    def _odds(self, party: list[Member]) -> float:
        """The game's own battle rules (battle.py) on this party (remembered for
        the match with the agent's ``odds_cache``)."""
        need, penalty = self._need(), self.me["battle_penalty"]
        if not self.agent.odds_cache:
            return battle.win_chance(self.cs, self.rules, self.table, party, need, penalty)
        key = (tuple(party), need, penalty)
        odds = self.agent._odds.get(key)
        if odds is None:
            odds = _shared_odds(self.cs, self.rules, self.table, key)
            self.agent._odds[key] = odds
        return odds

    def _members(self, party: list[dict[str, Any]]) -> list[Member]:
        """The view's battle list as battle members."""
        by_name = self.cs.by_name
        out = []
        for m in party:
            sp, wp = m.get("spell"), m.get("weapon")
            out.append(
                Member(
                    by_name[m["card"].casefold()].index,
                    by_name[sp.casefold()].index if sp is not None else -1,
                    self.tindex[wp] if wp is not None else -1,
                )
            )
        return out

    def _after(self, party: list[Member], m: Move) -> list[Member]:
        """The battle party after move ``m`` (the rules' battle step)."""
        party = list(party)
        if m.kind == "fight":
            party.append(Member(m.a))
        elif m.kind == "cast":
            for i, x in enumerate(party):
                if x.card == m.b and x.spell < 0:
                    party[i] = Member(x.card, m.a, x.weapon)
                    break
        elif m.kind == "wield":
            for i, x in enumerate(party):
                if x.card == m.b and x.weapon < 0:
                    party[i] = Member(x.card, x.spell, m.a)
                    break
        return party

    def best_odds(self) -> float:
        """Greedy estimate of the best odds with every character, spell and weapon in hand."""
        cards, cs, rules = self.cs.cards, self.cs, self.rules
        mon = self._monster()
        chars = sorted(
            (c for c in self.hand if cards[c].kind == "character"), key=lambda c: -self.mean(c)
        )
        if not chars:
            return 0.0
        plain = [Member(c) for c in chars]
        best = self._odds(plain)
        spells = [c for c in self.hand if cards[c].kind == "spell"]
        for s in spells:  # Charm alone: one caster, nobody else
            if cards[s].has("charm") and rules.charm_alone:
                for c in chars:
                    if battle.may_cast(cs, rules, s, c, mon):
                        best = max(best, self._odds([Member(c, s)]))
                        break
        # One spell per character, the strongest characters first; one weapon each.
        armed: list[Member] = []
        left = [s for s in spells if not (cards[s].has("charm") and rules.charm_alone)]
        weapons = []
        if self.me["status"] == "returning":
            weapons = [
                self.tindex[n]
                for n in self.view["my_treasures"]
                if cs.treasures[self.tindex[n]].weapon
            ]
        for c in chars:
            sp = next((s for s in left if battle.may_cast(cs, rules, s, c, mon)), -1)
            if sp >= 0:
                left.remove(sp)
            wp = next((t for t in weapons if battle.may_wield(cs, t, c, True)), -1)
            if wp >= 0:
                weapons.remove(wp)
            armed.append(Member(c, sp, wp))
        if armed != plain:
            best = max(best, self._odds(armed))
        return best

    # ------------------------------------------------------------ decisions
    def decide(self) -> Move:
        ph = self.view["phase"]
        by = self.by
        if ph == "trap":
            if "avoid" in by:
                return by["avoid"][0]
            return self.cheapest(by["lose"])
        if ph == "door":
            if "door" in by:
                return self.cheapest(by["door"])
            return by["leave_door"][0]
        if ph == "battle":
            return self.battle()
        if ph == "after":
            return self.after()
        return self.main()

    def battle(self) -> Move:
        by = self.by
        party = self._members(self.view["battle"])
        if "wield" in by:  # weapons are not used up: always worth it
            return by["wield"][0]
        now = self._odds(party) if party else -1.0
        if now >= self.agent.enough and "roll" in by:
            return by["roll"][0]
        best, best_p = by["roll"][0] if "roll" in by else by["fight"][0], now
        for kind in ("cast", "fight"):
            for m in by.get(kind, []):
                p = self._odds(self._after(party, m))
                # Prefer spells (cheap) over characters at similar odds.
                p_adj = p + (0.02 if kind == "cast" else 0.0)
                if p_adj > best_p + 0.01:
                    best, best_p = m, p_adj
        return best

    def after(self) -> Move:
        by = self.by
        if "heal" in by:
            best = max(by["heal"], key=lambda m: self.mean(m.a))
            if self.agent.heal == "always" or self._heal_gains(best.a):
                return best
        if "send" in by:
            targets = {m.a for m in by["send"]}
            lead = self.leader(targets)
            return next(m for m in by["send"] if m.a == lead)
        if "corridor" in by:
            c = self.corridor_choice(by["corridor"])
            if c is not None:
                return c
        return by["end"][0]

    def home_corridor(self) -> Move | None:
        """The corridor that lands the road back exactly, if one is legal."""
        if self.me["status"] != "returning":
            return None
        left = self.me["return_target"] - self.me["distance_back"]
        cards = self.cs.cards
        return next((m for m in self.by.get("corridor", []) if cards[m.a].value == left), None)

    def _draw_odds(self) -> list[tuple[int, float]]:
        """Each corridor length and the chance that one draw is that corridor
        (the deck's make-up, as printed on the card list: no counting)."""
        if self.agent.road == "count":
            if self._draws_now is None:
                self._draws_now = self._unseen_odds()
            return self._draws_now
        odds = self.agent._draws
        if odds is None:
            deck = sum(c.count for c in self.cs.cards)
            per = self._corridor_counts()
            odds = [(v, n / max(deck, 1)) for v, n in sorted(per.items())]
            self.agent._draws = odds
        return odds

    def _corridor_counts(self) -> dict[int, int]:
        """How many corridor cards of each length the deck has (its card list)."""
        per: dict[int, int] = {}
        for c in self.cs.cards:
            if c.kind == "corridor":
                per[c.value] = per.get(c.value, 0) + c.count
        return per

    def _unseen_odds(self) -> list[tuple[int, float]]:
        """The draw odds of each corridor length among the cards out of sight:
        the deck less the hand and the corridors every player has laid."""
        cards = self.cs.cards
        deck = sum(c.count for c in cards) - len(self.hand)
        per = self._corridor_counts()
        for c in self.hand:
            if cards[c].kind == "corridor":
                per[cards[c].value] -= 1
        for p in self.view["players"]:
            for v in p["corridors_out"] + p["corridors_back"]:
                if v in per:
                    per[v] -= 1
                deck -= 1
        return [(v, max(n, 0) / max(deck, 1)) for v, n in sorted(per.items())]

    def _landing(self, left: int, hand: list[int]) -> float:
        """How likely the road back lands: 2 when the hand alone lands it, else
        the chance one draw does plus half the chance two draws do (no draws in
        the endgame)."""
        sums = {0}
        for v in hand:
            sums |= {s + v for s in sums if s + v <= left}
        if left in sums:
            return 2.0
        draws_left = self._draws_left()
        if draws_left == 0:
            return 0.0
        draws = self._draw_odds()
        one = two = 0.0
        for v, p in draws:
            r = left - v
            if r < 0:
                break
            if r in sums:
                one += p
            if draws_left < 2:
                continue
            for w, q in draws:
                if r - w < 0:
                    break
                if r - w in sums:
                    two += p * q
        return one + TWO_DRAWS * two

    def planned_corridor(self, moves: list[Move], left: int, corridors: list[int]) -> Move | None:
        """``road=plan``: the corridor after which the road back most likely
        lands (the longest of equals), unless waiting keeps it much likelier."""
        cards = self.cs.cards
        best, best_key = None, (-1.0, 0)
        for m in moves:
            v = cards[m.a].value
            rest = list(corridors)
            rest.remove(v)
            key = (self._landing(left - v, rest), v)
            if key > best_key:
                best, best_key = m, key
        if best is None:
            return None
        if best_key[0] >= 2.0 or best_key[0] >= self.agent.keep * self._landing(left, corridors):
            return best
        return None

    def corridor_choice(self, moves: list[Move]) -> Move | None:
        cards = self.cs.cards
        me = self.me
        if me["status"] == "outward":
            room = self.view["treasure_room"]
            arriving = [m for m in moves if me["distance_out"] + cards[m.a].value >= room]
            if arriving:  # the shortest arrival keeps the road back short
                return min(arriving, key=lambda m: cards[m.a].value)
            return max(moves, key=lambda m: cards[m.a].value)
        left = me["return_target"] - me["distance_back"]
        corridors = [cards[c].value for c in self.hand if cards[c].kind == "corridor"]
        exact = [m for m in moves if cards[m.a].value == left]
        if exact:
            return exact[0]
        if self.agent.road != "common":
            return self.planned_corridor(moves, left, corridors)
        good: list[Move] = []
        for m in moves:
            v = cards[m.a].value
            rest = list(corridors)
            rest.remove(v)
            r = left - v
            if reachable(rest, r) or (not self.view["endgame"] and (r in COMMON or r >= 50)):
                good.append(m)
        if good:
            return max(good, key=lambda m: cards[m.a].value)
        return None

    def main(self) -> Move:
        by = self.by
        cards = self.cs.cards
        me = self.me
        if me["monster"] is not None:
            if "tdispel" in by:
                return by["tdispel"][0]
            if "dispel" in by:
                return by["dispel"][0]
            odds = self.best_odds()
            # A big monster costs many characters, so go around it — unless
            # the fight is all but won (then the detour's lost corridor costs more).
            big = self._need() >= BIG_MONSTER and odds < self.agent.sure_win
            if "detour" in by and (odds < self.agent.detour_odds or big):
                return by["detour"][0]
            if "fight" in by and odds >= self.agent.fight_odds:
                return self.battle()
        home = self.home_corridor()
        if home is not None:  # getting home (and the prize) beats any block
            return home
        if "door" in by:
            return self.cheapest(by["door"])
        corridor = self.corridor_choice(by["corridor"]) if "corridor" in by else None
        doomed = self.agent.doomed == "block" and self.is_doomed()
        if doomed:
            corridor = None
        if "monster" in by:
            targets = {m.b for m in by["monster"]}
            lead = self.leader(targets)
            assert lead is not None
            lp = self.progress(self.view["players"][lead])
            mine = self.progress(me)
            ag = self.agent
            ahead = (lp > mine and lp >= ag.block_lead) or lp >= mine + ag.block_margin
            if corridor is None or ahead:
                ms = [m for m in by["monster"] if m.b == lead]
                if lp >= ag.hold or doomed:
                    return max(ms, key=lambda m: cards[m.a].value)
                # hold: the strongest monster waits for a leader nearer home;
                # a second one may go now, the weakest.
                if sum(1 for c in self.hand if cards[c].kind == "monster") >= 2:
                    return min(ms, key=lambda m: cards[m.a].value)
        if corridor is not None:
            return corridor
        # Must give up a card anyway: a long-shot battle costs no more.
        must_shed = len(self.hand) > self.rules.hand_limit
        shed = self.agent.shed_odds
        if me["monster"] is not None and "fight" in by and must_shed and self.best_odds() >= shed:
            return self.battle()
        if "discard" in by:
            return self.cheapest(by["discard"])
        if "pass" in by:
            return by["pass"][0]
        return self.no_waiting()

    def no_waiting(self) -> Move:
        """The endgame offers no `pass` to a party that can still return (one
        may wait for a corridor only "as long as there are cards in the draw
        pile and noone has returned"): a corridor after which the hand still
        lands the road (else the longest), the battle, or a monster."""
        by, cards, me = self.by, self.cs.cards, self.me
        if "corridor" in by:
            moves = by["corridor"]
            if me["status"] == "returning":
                left = me["return_target"] - me["distance_back"]
                corridors = [cards[c].value for c in self.hand if cards[c].kind == "corridor"]
                for m in sorted(moves, key=lambda m: -cards[m.a].value):
                    rest = list(corridors)
                    rest.remove(cards[m.a].value)
                    if reachable(rest, left - cards[m.a].value):
                        return m
            return max(moves, key=lambda m: cards[m.a].value)
        if "fight" in by:
            return self.battle()
        if "monster" in by:
            return max(by["monster"], key=lambda m: cards[m.a].value)
        return next(iter(by.values()))[0]
