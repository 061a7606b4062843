"""The M.E.A.T. card set: card model, loading the TOML data file, validation.

Cards are small ints. A *definition* (``CardDef``) is one card design; the
deck holds ``copies`` instances of it (common 4, rare 3, epic 2, mythic 1 —
"karty powszechne (4 sztuki w talii), rzadkie (3 sztuki w talii), epickie
(2 sztuki w talii) oraz mityczne (jedna sztuka w talii)"). Every physical
card is an *instance id*; ``CardSet.kind[iid]`` is its definition index.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from bestiary.engine import BadCardFile, UnknownCard
from bestiary.engine.datafile import decode_text, read_bytes
from bestiary.i18n import N_, domain

_ = domain("meat", __file__)

DEFAULT_PATH = Path(__file__).parent / "data" / "cards.toml"

FACTIONS = ("Sekta MBS XII", "Natura", "Zjednoczeni", "Mutanci")
RARITIES = {"common": 4, "rare": 3, "epic": 2, "mythic": 1}
RARITY_PL = {"common": "powszechna", "rare": "rzadka", "epic": "epicka", "mythic": "mityczna"}

# Keywords as bits. Polish names from the manual, English in the UI.
REFLEX, TOXIN, CLEAVE, CHALLENGE = 1, 2, 4, 8
KEYWORDS = {"REFLEX": REFLEX, "TOXIN": TOXIN, "CLEAVE": CLEAVE, "CHALLENGE": CHALLENGE}
KEYWORD_PL = {"REFLEX": "REFLEKS", "TOXIN": "TOKSYNA", "CLEAVE": "CIĘCIE", "CHALLENGE": "WYZWANIE"}

# The effect vocabulary (interpreted by effects.py).
DOS = (
    "damage",
    "heal",
    "buff",
    "grant",
    "draw",
    "gain",
    "destroy",
    "move",
    "return",
    "counter",
)
CHOSEN_TARGETS = ("creature", "enemy", "ally", "own")
AUTO_TARGETS = (
    "self",
    "opposite",
    "adjacent_allies",
    "all_allies",
    "all_enemies",
    "enemy_team",
    "own_team",
    "me",
    "spell",
)
LANES = ("left", "front", "right")
SPELL_TRIGGERS = ("play", "battle", "ally_dies")
LEADER_PASSIVES = ("faction_stat", "telestarion", "destiny_draw", "summary_bonus", "draft_discount")
# What each effect may be aimed at: creatures, a team's vitality, a player, a spell.
_CREATURE_DOS = {"buff", "grant", "destroy", "move", "return"}
_PLAYER_DOS = {"draw", "gain"}
_CREATURE_TOS = {"target", "self", "opposite", "adjacent_allies", "all_allies", "all_enemies"}


@dataclass(frozen=True, slots=True)
class Effect:
    do: str
    to: str = "target"
    amount: int = 0
    attack: int = 0
    defence: int = 0
    keyword: int = 0
    kind: str = ""  # draw: "creature" or "destiny"
    lane: int = 1  # move: the lane to move to


@dataclass(frozen=True, slots=True)
class Ability:
    """The ♦ ability of a creature: paid in Telestarion, once per round."""

    cost: int
    target: str  # "" or a chosen-target kind
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class CardDef:
    index: int
    name: str
    en: str
    type: str  # "creature", "spell", "equipment"
    rarity: str
    cost: int
    attack: int = 0
    defence: int = 0
    keywords: int = 0
    faction: str = ""
    reveal: tuple[Effect, ...] = ()
    death: tuple[Effect, ...] = ()
    ability: Ability | None = None
    instant: bool = False
    fusion: bool = False
    on: str = "play"  # spells: play / battle / ally_dies
    target: str = ""  # spells/equipment: the chosen-target kind ("" = none)
    effects: tuple[Effect, ...] = ()

    @property
    def copies(self) -> int:
        return RARITIES[self.rarity]

    @property
    def is_creature(self) -> bool:
        return self.type == "creature"

    def keyword_names(self) -> list[str]:
        return keyword_names(self.keywords)


@dataclass(frozen=True)
class LeaderDef:
    index: int
    name: str
    en: str
    passive: str
    faction: str = ""
    attack: int = 0
    defence: int = 0
    amount: int = 0


@dataclass
class CardSet:
    path: str
    defs: list[CardDef]  # creatures first, then destiny cards
    leaders: list[LeaderDef]
    creature_defs: int = 0
    kind: list[int] = field(default_factory=list)  # instance id -> def index
    creature_ids: list[int] = field(default_factory=list)
    destiny_ids: list[int] = field(default_factory=list)
    by_name: dict[str, int] = field(default_factory=dict)
    leader_by_name: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.creature_defs = sum(1 for d in self.defs if d.is_creature)
        for d in self.defs:
            for _ in range(d.copies):
                iid = len(self.kind)
                self.kind.append(d.index)
                (self.creature_ids if d.is_creature else self.destiny_ids).append(iid)
        self.by_name = {d.name.casefold(): d.index for d in self.defs}
        self.leader_by_name = {x.name.casefold(): x.index for x in self.leaders}

    @property
    def destiny_defs(self) -> int:
        return len(self.defs) - self.creature_defs

    def card(self, name: str) -> CardDef:
        i = self.by_name.get(name.casefold())
        if i is None:
            raise UnknownCard(name, [d.name for d in self.defs])
        return self.defs[i]

    def leader(self, name: str) -> LeaderDef:
        i = self.leader_by_name.get(name.casefold())
        if i is None:
            raise UnknownCard(name, [x.name for x in self.leaders])
        return self.leaders[i]

    def instances(self, name: str) -> list[int]:
        d = self.card(name).index
        return [i for i, k in enumerate(self.kind) if k == d]


def keyword_names(mask: int) -> list[str]:
    return [k for k, bit in KEYWORDS.items() if mask & bit]


# --------------------------------------------------------------------------- loading
class _Where:
    """Line numbers of the n-th ``[[creature]]`` / ``[[destiny]]`` / ``[[leader]]`` table."""

    def __init__(self, text: str) -> None:
        self.lines: dict[str, list[int]] = {}
        for no, line in enumerate(text.splitlines(), 1):
            m = re.match(r"\s*\[\[(\w+)\]\]", line)
            if m:
                self.lines.setdefault(m.group(1), []).append(no)

    def line(self, table: str, i: int) -> int | None:
        got = self.lines.get(table, [])
        return got[i] if i < len(got) else None


class _Parser:
    def __init__(self, path: str, where: _Where) -> None:
        self.path = path
        self.where = where
        self.table = ""
        self.i = 0
        self.name = "?"

    def fail(self, problem: str) -> BadCardFile:
        return BadCardFile(
            self.path,
            self.where.line(self.table, self.i),
            _("{table} {name!r}: {problem}").format(
                table=self.table, name=self.name, problem=problem
            ),
        )

    def s(self, raw: dict[str, Any], key: str, default: str | None = None) -> str:
        v = raw.get(key, default)
        if not isinstance(v, str) or (default is None and not v):
            raise self.fail(_("'{key}' must be a non-empty string").format(key=key))
        return v

    def n(self, raw: dict[str, Any], key: str, default: int | None = None, lo: int = -9) -> int:
        v = raw.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(_("'{key}' must be an integer").format(key=key))
        if v < lo or v > 20:
            raise self.fail(
                _("'{key}' = {value} is out of range ({low}..20)").format(key=key, value=v, low=lo)
            )
        return v

    def b(self, raw: dict[str, Any], key: str) -> bool:
        v = raw.get(key, False)
        if not isinstance(v, bool):
            raise self.fail(_("'{key}' must be true or false").format(key=key))
        return v

    def keywords(self, raw: dict[str, Any]) -> int:
        kws = raw.get("keywords", [])
        if not isinstance(kws, list):
            raise self.fail(_("'keywords' must be a list"))
        mask = 0
        for k in kws:
            if not isinstance(k, str) or k not in KEYWORDS:
                raise self.fail(
                    _("unknown keyword {keyword!r}; keywords: {keywords}").format(
                        keyword=k, keywords=", ".join(KEYWORDS)
                    )
                )
            mask |= KEYWORDS[k]
        return mask

    def chosen(self, raw: dict[str, Any]) -> str:
        t = raw.get("target", "")
        if t != "" and t not in CHOSEN_TARGETS:
            raise self.fail(
                _("target {target!r} is unknown; targets: {targets}").format(
                    target=t, targets=", ".join(CHOSEN_TARGETS)
                )
            )
        return str(t)

    def effect(self, raw: Any, chosen: str, source: str) -> Effect:
        if not isinstance(raw, dict):
            raise self.fail(_("an effect must be a table such as { do = 'damage', amount = 2 }"))
        unknown = set(raw) - {"do", "to", "amount", "attack", "defence", "keyword", "kind", "lane"}
        if unknown:
            raise self.fail(
                _("effect has unknown field(s) {unknown}").format(
                    unknown=", ".join(sorted(unknown))
                )
            )
        do = raw.get("do")
        if do not in DOS:
            raise self.fail(
                _("effect 'do' = {do!r} is unknown; effects: {effects}").format(
                    do=do, effects=", ".join(DOS)
                )
            )
        to = raw.get("to", "target")
        if to != "target" and to not in AUTO_TARGETS:
            raise self.fail(
                _("effect 'to' = {to!r} is unknown; use target or {targets}").format(
                    to=to, targets=AUTO_TARGETS
                )
            )
        if to == "target" and not chosen:
            raise self.fail(
                _("effect {do!r} aims at 'target' but the card chooses no target").format(do=do)
            )
        if to in ("self", "adjacent_allies") and source != "creature":
            raise self.fail(_("'to = {to}' needs a creature as the source").format(to=to))
        if to == "opposite" and source not in ("creature", "ally_dies"):
            raise self.fail(_("'to = opposite' needs a creature (or a dying ally) as the source"))
        if do in _CREATURE_DOS and to not in _CREATURE_TOS:
            raise self.fail(_("{do!r} works on creatures, not on {to!r}").format(do=do, to=to))
        if do in _PLAYER_DOS and to != "me":
            raise self.fail(_("{do!r} works on 'me' (the card's owner)").format(do=do))
        if (do == "counter") != (to == "spell"):
            raise self.fail(_("'counter' and 'to = spell' go together"))
        kw = raw.get("keyword", "")
        if not isinstance(kw, str) or (kw and kw not in KEYWORDS) or (do == "grant" and not kw):
            raise self.fail(
                _("grant needs a keyword: {keywords}").format(keywords=", ".join(KEYWORDS))
            )
        kind = raw.get("kind", "")
        if do == "draw" and kind not in ("creature", "destiny"):
            raise self.fail(_("draw needs kind = 'creature' or 'destiny'"))
        lane = raw.get("lane", "front")
        if lane not in LANES:
            raise self.fail(_("lane must be one of {lanes}").format(lanes=", ".join(LANES)))
        amount = self.n(raw, "amount", 0)
        if do in ("damage", "heal", "draw", "gain") and amount <= 0:
            raise self.fail(_("{do!r} needs a positive 'amount'").format(do=do))
        return Effect(
            do,
            to,
            amount,
            self.n(raw, "attack", 0),
            self.n(raw, "defence", 0),
            KEYWORDS.get(kw, 0),
            kind,
            LANES.index(lane),
        )

    def effects(self, raw: Any, chosen: str, source: str) -> tuple[Effect, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raise self.fail(_("effects must be a list of tables"))
        return tuple(self.effect(e, chosen, source) for e in raw)


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file (BadCardFile names the line, card and problem).

    Card sets are cached by path and content hash: the file is read (cheap)
    on every call but parsed once per content, so an edited file is always
    seen and an unchanged one costs no parsing. Card sets never change after
    loading, so sharing one between matches is safe."""
    if not path:
        return _default()
    key = str(path)
    raw = read_bytes(key)
    stamp = (key, hashlib.sha256(raw).digest())
    cs = _CACHE.get(stamp)
    if cs is None:
        cs = _parse(key, decode_text(key, raw))
        if len(_CACHE) >= 16:
            _CACHE.pop(next(iter(_CACHE)))  # the oldest entry
        _CACHE[stamp] = cs
    return cs


_CACHE: dict[tuple[str, bytes], CardSet] = {}


@lru_cache(maxsize=1)
def _default() -> CardSet:
    path = str(DEFAULT_PATH)
    return _parse(path, decode_text(path, read_bytes(path)))


_SECTIONS = ("creature", "destiny", "leader")


def _tables(path: str, data: dict[str, Any], section: str) -> list[dict[str, Any]]:
    """The ``[[section]]`` tables of the file (an array of tables, or nothing)."""
    got = data.get(section, [])
    shape = _("cards go in [[{section}]] tables (an array of tables)").format(section=section)
    if not isinstance(got, list):
        raise BadCardFile(
            path,
            None,
            _("'{section}' is {type}; {shape}").format(
                section=section, type=_type_name(got), shape=shape
            ),
        )
    for i, raw in enumerate(got):
        if not isinstance(raw, dict):
            raise BadCardFile(
                path,
                None,
                _("{section} #{i} is {type}, not a table; {shape}").format(
                    section=section, i=i + 1, type=_type_name(raw), shape=shape
                ),
            )
    return got


def _type_name(v: Any) -> str:
    """``v``'s TOML type with its article ("an integer", "a table")."""
    if isinstance(v, bool):
        return _("a boolean")
    names = {dict: N_("a table"), list: N_("a list"), str: N_("a string"), int: N_("an integer")}
    known = names.get(type(v))
    return _(known) if known else _("a {type}").format(type=type(v).__name__)


def _parse(path: str, text: str) -> CardSet:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise BadCardFile(
            path, int(m.group(1)) if m else None, _("not valid TOML: {error}").format(error=exc)
        ) from None
    unknown = set(data) - set(_SECTIONS)
    if unknown:
        raise BadCardFile(
            path,
            None,
            _("unknown section(s) {unknown}; sections: {sections}").format(
                unknown=sorted(unknown), sections=", ".join(_SECTIONS)
            ),
        )
    p = _Parser(path, _Where(text))
    defs: list[CardDef] = []
    seen: set[str] = set()
    for table in ("creature", "destiny"):
        for i, raw in enumerate(_tables(path, data, table)):
            p.table, p.i, p.name = table, i, str(raw.get("name", "?"))
            d = _creature(p, raw, len(defs)) if table == "creature" else _destiny(p, raw, len(defs))
            # Text forms compare case- and space-insensitively ("draft bober").
            folded = " ".join(d.name.split()).casefold()
            if not folded:
                raise p.fail(_("'name' must not be blank"))
            if folded in seen:
                raise p.fail(_("a card of this name already exists"))
            seen.add(folded)
            defs.append(d)
    leaders: list[LeaderDef] = []
    for i, raw in enumerate(_tables(path, data, "leader")):
        p.table, p.i, p.name = "leader", i, str(raw.get("name", "?"))
        leaders.append(_leader(p, raw, i))
    if len({" ".join(x.name.split()).casefold() for x in leaders}) != len(leaders):
        raise BadCardFile(path, None, _("two leaders share a name"))
    if len(leaders) < 6:
        raise BadCardFile(
            path,
            None,
            _("6 players need at least 6 leaders; the file has {n}").format(n=len(leaders)),
        )
    ncre = sum(RARITIES[d.rarity] for d in defs if d.is_creature)
    ndes = sum(RARITIES[d.rarity] for d in defs if not d.is_creature)
    if ncre < 24 or ndes < 20:
        raise BadCardFile(
            path,
            None,
            _(
                "decks too small for 6 players: {creatures} creatures (24+), "
                "{destiny} destiny (20+)"
            ).format(creatures=ncre, destiny=ndes),
        )
    return CardSet(path, defs, leaders)


def _common(p: _Parser, raw: dict[str, Any]) -> tuple[str, str, str, int]:
    name, en = p.s(raw, "name"), p.s(raw, "en")
    rarity = p.s(raw, "rarity")
    if rarity not in RARITIES:
        raise p.fail(
            _("rarity {rarity!r} is unknown; rarities: {rarities}").format(
                rarity=rarity, rarities=", ".join(RARITIES)
            )
        )
    return name, en, rarity, p.n(raw, "cost", lo=0)


_CREATURE_KEYS = {"name", "en", "faction", "rarity", "cost", "attack", "defence", "keywords"}
_CREATURE_KEYS |= {"reveal", "death", "ability"}
_DESTINY_KEYS = {"name", "en", "kind", "rarity", "cost", "attack", "defence", "keywords"}
_DESTINY_KEYS |= {"instant", "fusion", "on", "target", "effects", "ability"}


def _creature(p: _Parser, raw: dict[str, Any], index: int) -> CardDef:
    if set(raw) - _CREATURE_KEYS:
        raise p.fail(
            _("unknown field(s) {fields}").format(
                fields=", ".join(sorted(set(raw) - _CREATURE_KEYS))
            )
        )
    name, en, rarity, cost = _common(p, raw)
    if cost > 2:
        raise p.fail(_("a creature costs 0 to 2 ounces of Telestarion"))
    faction = p.s(raw, "faction")
    if faction not in FACTIONS:
        raise p.fail(
            _("faction {faction!r} is unknown; factions: {factions}").format(
                faction=faction, factions=", ".join(FACTIONS)
            )
        )
    return CardDef(
        index,
        name,
        en,
        "creature",
        rarity,
        cost,
        attack=p.n(raw, "attack", lo=0),
        defence=p.n(raw, "defence", lo=1),
        keywords=p.keywords(raw),
        faction=faction,
        reveal=p.effects(raw.get("reveal"), "", "creature"),
        death=p.effects(raw.get("death"), "", "creature"),
        ability=_ability(p, raw),
    )


def _ability(p: _Parser, raw: dict[str, Any]) -> Ability | None:
    """A ♦ ability table (a creature's own, or one FUSION equipment grants)."""
    if "ability" not in raw:
        return None
    a = raw["ability"]
    if not isinstance(a, dict):
        raise p.fail(_("ability must be a table { cost, target, effects }"))
    unknown = set(a) - {"cost", "target", "effects"}
    if unknown:
        raise p.fail(
            _("ability has unknown field(s) {unknown}").format(unknown=", ".join(sorted(unknown)))
        )
    chosen = p.chosen(a)
    effs = p.effects(a.get("effects"), chosen, "creature")
    if not effs:
        raise p.fail(_("ability has no effects"))
    return Ability(p.n(a, "cost", 0, lo=0), chosen, effs)


def _destiny(p: _Parser, raw: dict[str, Any], index: int) -> CardDef:
    if set(raw) - _DESTINY_KEYS:
        raise p.fail(
            _("unknown field(s) {fields}").format(
                fields=", ".join(sorted(set(raw) - _DESTINY_KEYS))
            )
        )
    name, en, rarity, cost = _common(p, raw)
    kind = p.s(raw, "kind")
    if kind not in ("spell", "equipment"):
        raise p.fail(_("kind must be 'spell' or 'equipment'"))
    instant, fusion = p.b(raw, "instant"), p.b(raw, "fusion")
    on = p.s(raw, "on", "play")
    if on not in SPELL_TRIGGERS:
        raise p.fail(
            _("on = {on!r} is unknown; triggers: {triggers}").format(
                on=on, triggers=", ".join(SPELL_TRIGGERS)
            )
        )
    if kind == "equipment":
        if instant or on != "play" or "effects" in raw:
            raise p.fail(_("equipment has stats, keywords and an ability, not instant/on/effects"))
        target = p.chosen(raw) or ("creature" if fusion else "own")
        if not fusion and target != "own":
            raise p.fail(_("only FUSION equipment may be attached to another player's creature"))
        return CardDef(
            index,
            name,
            en,
            "equipment",
            rarity,
            cost,
            attack=p.n(raw, "attack", 0),
            defence=p.n(raw, "defence", 0),
            keywords=p.keywords(raw),
            fusion=fusion,
            target=target,
            ability=_ability(p, raw),
        )
    if fusion or "keywords" in raw or "ability" in raw:
        raise p.fail(_("a spell has no fusion, keywords or ability"))
    if instant and on != "play":
        raise p.fail(_("an INSTANT spell is played from the hand, so its trigger is 'play'"))
    target = p.chosen(raw)
    if on != "play" and target:
        raise p.fail(_("a spell that fires by itself cannot choose a target"))
    effs = p.effects(raw.get("effects"), target, on if on == "ally_dies" else "spell")
    # The card anatomy prints attack and defence on spells too: they go to the
    # spell's target as a buff, before its other effects.
    attack, defence = p.n(raw, "attack", 0), p.n(raw, "defence", 0)
    if attack or defence:
        if not target:
            raise p.fail(_("a spell's attack/defence go to its target: give it a 'target'"))
        effs = (Effect("buff", "target", attack=attack, defence=defence), *effs)
    if not effs:
        raise p.fail(_("a spell needs effects"))
    if any(e.to == "spell" for e in effs) and not instant:
        raise p.fail(_("only an INSTANT spell can counter a spell"))
    return CardDef(
        index,
        name,
        en,
        "spell",
        rarity,
        cost,
        attack=attack,
        defence=defence,
        instant=instant,
        on=on,
        target=target,
        effects=effs,
    )


def _leader(p: _Parser, raw: dict[str, Any], index: int) -> LeaderDef:
    if set(raw) - {"name", "en", "passive"}:
        raise p.fail(
            _("unknown field(s) {fields}").format(
                fields=", ".join(sorted(set(raw) - {"name", "en", "passive"}))
            )
        )
    name, en = p.s(raw, "name"), p.s(raw, "en")
    ps = raw.get("passive")
    if not isinstance(ps, dict):
        raise p.fail(_("a leader needs a passive = { kind = ... } table"))
    kind = p.s(ps, "kind")
    if kind not in LEADER_PASSIVES:
        raise p.fail(
            _("passive kind {kind!r} is unknown; kinds: {kinds}").format(
                kind=kind, kinds=", ".join(LEADER_PASSIVES)
            )
        )
    faction = ""
    if kind == "faction_stat":
        faction = p.s(ps, "faction")
        if faction not in FACTIONS:
            raise p.fail(_("faction {faction!r} is unknown").format(faction=faction))
    return LeaderDef(
        index,
        name,
        en,
        kind,
        faction,
        p.n(ps, "attack", 0),
        p.n(ps, "defence", 0),
        p.n(ps, "amount", 0),
    )
