"""One human decision at the terminal: the menu, the helper commands, forgiving input.

At every prompt a player may type a number, an action's text (any unique
prefix, case and diacritics ignored: ``rock``, ``Rzeznik``), or one of the
commands in :data:`COMMANDS`. Helper commands print and ask again; only an
action ends the prompt, so nothing typed by mistake costs a move.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from ..engine.protocol import Action, Game, State
from ..engine.ruleset import Ruleset
from ..i18n import N_, core, language
from . import cardtext, rulebook
from .history import History
from .piles import piles
from .textmatch import fold, match

_ = core.gettext

#: What ``Prompt.ask`` returns when the player typed ``undo``.
UNDO = "\x00undo"

# The command words stay as typed (English); what they do is translated when shown.
COMMANDS: dict[str, str] = {
    "help": N_("what you may do now and what each choice means (also: ?)"),
    "log [N]": N_("the last N lines of what happened (all of them without N)"),
    "why N": N_("the rule behind line N of the log: its RULES.md section and the rulebook's words"),
    "rules [topic]": N_("how to play: the rules for players, or one section of them"),
    "rules spec [topic]": N_("the engine's full specification (RULES.md, in English)"),
    "explain WORD": N_("what a nature, keyword, spell or symbol does (`explain` lists them)"),
    "card NAME": N_("a card's full text (any unique part of its name)"),
    "piles": N_("every face-up pile in full: discards, graveyards"),
    "legend": N_("what the symbols on the table mean"),
    "board": N_("show the table again"),
    "hint": N_("what the strongest bot would play now (it sees only what you see)"),
    "undo": N_("take back your last move, when it showed you nothing new"),
    "quit": N_("leave the game"),
}

_LEGEND = [
    N_("◀ or > beside a player: whose turn it is; (you): your seat"),
    N_("—: an empty place; a number after a name is its strength or value"),
]


@dataclass
class Table:
    """What a prompt needs to know about the match it is part of."""

    game: Game
    rules: Ruleset
    state: State
    history: History
    names: Sequence[str]  # a name per seat: "you", "seat 1 (heuristic)"


def quote_line(quote: str, quote_language: str) -> str:
    """"The rulebook says: …", saying so where its words are in another
    language than the one in use (a rulebook printed in one language only)."""
    if quote_language == language():
        return _("The rulebook says: “{quote}”").format(quote=quote)
    if quote_language == "en":
        return _("The rulebook says (in English): “{quote}”").format(quote=quote)
    if quote_language == "pl":
        return _("The rulebook says (in Polish): “{quote}”").format(quote=quote)
    return _("The rulebook says: “{quote}”").format(quote=quote)


def game_module(game: Game, name: str) -> Any:
    """The game package's ``name`` module (``render``), or None: hooks are optional."""
    module = type(game).__module__
    # The class lives in the package's __init__ (meat) or in a module of it (game.py).
    is_package = hasattr(sys.modules.get(module), "__path__")
    package = module if is_package else module.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}")
    except Exception:
        return None


def labeller(game: Game, view: Mapping[str, Any]) -> Callable[[str], str]:
    """What the menu says for an action: the game's label in the current
    language (``describe.action_label``: ``odrzuć Werecat`` for ``discard
    Werecat``), then what the game adds for this view (``render.action_label``:
    ``cast Krwawy Grom @ s1 front`` -> ``… → Rzeźnik (seat 1's front)``). The
    text form stays what is submitted, and typing it still works."""
    hook = getattr(game_module(game, "render"), "action_label", None)
    words = getattr(game_module(game, "describe"), "action_label", None)

    def label(text: str) -> str:
        said = text
        try:
            if words is not None:
                said = str(words(text, None))  # seats as "seat N"
        except Exception:  # a label is a courtesy; the action's own text always works
            said = text
        if hook is None:
            return said
        try:
            extra = str(hook(view, text))
        except Exception:
            return said
        # The hook repeats the text form first; the label takes its place.
        return said + extra[len(text) :] if extra.startswith(text) else extra

    return label


def verb_help(game: Game) -> Mapping[str, str]:
    found = getattr(game_module(game, "render"), "ACTION_HELP", None)
    return found if isinstance(found, Mapping) else {}


def legend(game: Game) -> list[str]:
    extra = getattr(game_module(game, "render"), "LEGEND", None)
    return list(extra) if isinstance(extra, list | tuple) else [_(line) for line in _LEGEND]


def glossary(game: Game) -> Mapping[str, str]:
    """``"term|alias" -> "term — what it does"`` (``render.GLOSSARY``): natures,
    keywords, spells and symbols, for ``explain`` and ``card``."""
    found = getattr(game_module(game, "render"), "GLOSSARY", None)
    return found if isinstance(found, Mapping) else {}


def _names(key: str, text: str) -> list[str]:
    """A glossary entry's names: its aliases and the words before its dash."""
    return [*key.split("|"), text.split(" — ")[0]]


def mentioned(game: Game, text: str) -> list[str]:
    """The glossary entries whose term appears in ``text`` as a whole word."""
    words = glossary(game)
    body = fold(text)
    found: list[str] = []
    for key in words:
        for name in key.split("|"):
            # ``_`` is part of a word: "undead" is not found in "dispels_undead".
            pattern = r"(?<![\w-])" + re.escape(fold(name)) + r"(?![\w-])"
            if re.search(pattern, body):
                found.append(words[key])
                break
    return found


def stable_order(state: State, legal: Sequence[Action]) -> list[Action]:
    """Kinds of move in the game's own order (it lists the usual move first), each
    kind's choices in the fixed action-space order: a choice keeps its place
    among the others from one prompt to the next (a draft row that loses a card
    does not reshuffle the rest)."""
    verbs: dict[str, int] = {}
    for a in legal:
        verbs.setdefault(str(a).split(" ")[0], len(verbs))
    try:
        return sorted(legal, key=lambda a: (verbs[str(a).split(" ")[0]], state.action_index(a)))
    except Exception:  # a game whose index is not total keeps its own order
        return list(legal)


class Prompt:
    """Asks one seat for one action; ``ask()`` returns the chosen action's text."""

    def __init__(
        self,
        table: Table,
        seat: int,
        console: Console,
        read: Callable[[str], str],
        show_board: Callable[[], None],
    ) -> None:
        self.t = table
        self.seat = seat
        self.out = console
        self.read = read
        self.show_board = show_board
        self.why_no_undo: Callable[[], str | None] = lambda: _("nothing to take back")
        # The tutorial's words (``next``, ``skip``), while one runs (cli/tutorial.py).
        self.tutorial_command: Callable[[str, Sequence[str]], str | None] | None = None
        self.legal: list[Action] = stable_order(table.state, table.state.legal(seat))
        self.texts = [str(a) for a in self.legal]
        label = labeller(table.game, table.state.view(seat))
        self.labels = [label(t) for t in self.texts]

    # -- printing -----------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        self.out.print(Text(text, style=style), soft_wrap=True)

    def menu(self) -> None:
        self.say(_("Seat {seat}, your move:").format(seat=self.seat), "bold")
        for i, lab in enumerate(self.labels, 1):
            line = Text(f"  {i:>2} ", style="cyan")
            line.append(lab)
            self.out.print(line, soft_wrap=True)
        self.say(
            "  "
            + _(
                "(type a number or a name; help, hint, log, why N, rules, card NAME, "
                "explain WORD, piles, undo, quit)"
            ),
            "dim",
        )

    # -- the loop -----------------------------------------------------------
    def ask(self) -> str:
        self.menu()
        while True:
            try:
                typed = self.read("> ").strip()
            except EOFError:
                raise typer.Exit(2) from None
            if not typed:
                continue
            chosen = self.handle(typed)
            if chosen is not None:
                return chosen

    def handle(self, typed: str) -> str | None:
        """The chosen action's text, or None after a helper command or a bad input."""
        word, _sep, rest = typed.partition(" ")
        cmd = word.casefold()
        rest = rest.strip()
        if cmd in ("quit", "exit"):
            raise typer.Exit(1)
        if cmd == "undo" and not rest:
            reason = self.why_no_undo()
            if reason is None:
                return UNDO
            self.say(_("Cannot undo: {reason}.").format(reason=reason), "red")
            return None
        if self.tutorial_command is not None and cmd in ("next", "skip") and not rest:
            return self.tutorial_command(cmd, self.texts)
        if typed.isdigit():
            n = int(typed)
            if 1 <= n <= len(self.texts):
                return self.texts[n - 1]
            self.say(
                _("{n} is not a choice: enter 1 to {last}, or a name").format(
                    n=n, last=len(self.texts)
                ),
                "red",
            )
            return None
        # An action's text wins over a command of the same spelling.
        hit = match(typed, self.texts)
        if hit.index is not None:
            return self.texts[hit.index]
        helpers: dict[str, Callable[[str], None]] = {
            "help": self.help,
            "?": self.help,
            "log": self.log,
            "why": self.why,
            "rules": self.rules,
            "card": self.card,
            "piles": self.piles,
            "legend": self.legend,
            "explain": self.explain,
            "board": self.board,
            "hint": self.hint,
        }
        if cmd in helpers:
            helpers[cmd](rest)
            return None
        # The label a menu line shows (in the player's language) names its move too.
        if self.labels != self.texts and not hit.candidates:
            said = match(typed, self.labels)
            if said.index is not None:
                return self.texts[said.index]
        if hit.candidates:
            options = "; ".join(self.labels[i] for i in hit.candidates[:8])
            extra = len(hit.candidates) - 8
            if extra > 0:
                self.say(
                    _(
                        "{typed} could be several moves — did you mean: {options} (and {n} more)?"
                    ).format(typed=repr(typed), options=options, n=extra),
                    "red",
                )
            else:
                self.say(
                    _("{typed} could be several moves — did you mean: {options}?").format(
                        typed=repr(typed), options=options
                    ),
                    "red",
                )
            self.say(_("Type more of the name, or its number."), "dim")
            return None
        self.say(
            _("{typed} is not a move now. Type a number from 1 to {last},").format(
                typed=repr(typed), last=len(self.texts)
            ),
            "red",
        )
        self.say(_("or `help` to see what you may do and what each move means."), "dim")
        return None

    # -- helper commands ------------------------------------------------------
    def board(self, arg: str) -> None:
        self.show_board()
        self.menu()

    def help(self, arg: str) -> None:
        meanings = verb_help(self.t.game)
        self.say(_("What you may do now:"), "bold")
        seen: list[str] = []
        for text in self.texts:
            verb = text.split(" ")[0]
            if verb in seen:
                continue
            seen.append(verb)
            count = sum(1 for t in self.texts if t.split(" ")[0] == verb)
            what = meanings.get(verb) or meanings.get(" ".join(text.split(" ")[:2]), "")
            # The verb as its menu line says it (the label's first word, in the
            # player's language), and as it is typed when that differs.
            said = self.labels[self.texts.index(text)].split(" ")[0] or verb
            shown = verb if said == verb else f"{said} ({verb})"
            if count > 1:
                line = core.ngettext("{verb} ({n} choice)", "{verb} ({n} choices)", count).format(
                    verb=shown, n=count
                )
            else:
                line = shown
            self.say(f"  {line}", "cyan")
            if what:
                self.say(f"      {what}")
        self.say(_("Commands you can type at any prompt:"), "bold")
        for cmd, what in COMMANDS.items():
            self.say(f"  {cmd:<18} {_(what)}")
        self.say(_("A move can be typed by its number, its full text or any unique part of it,"))
        self.say(_("without capitals or accents: 'rzeznik' finds 'draft Rzeźnik'."))

    def log(self, arg: str) -> None:
        n: int | None = None
        if arg:
            if not arg.isdigit() or int(arg) == 0:
                self.say(_("log takes a number of lines: `log 40`; `log` alone shows all"), "red")
                return
            n = int(arg)
        lines = self.t.history.last(self.t.state, self.seat, n)
        if not lines:
            self.say(_("Nothing has happened yet."))
        total = len(self.t.history.lines.get(self.seat, []))
        self.say(
            _("What happened (lines {first}–{last} of {total}):").format(
                first=lines[0][0] if lines else 0, last=total, total=total
            ),
            "bold",
        )
        for i, line in lines:
            self.say(f"{i:>4}  {line}")
        if lines:
            self.say(_("Type `why` and a line's number for the rule behind it."), "dim")

    def hint(self, arg: str) -> None:
        """The strongest bot's move for this seat, searched from this seat's view only."""
        from ..agents.hint import suggest
        from .hint import hint_lines

        self.say(_("Thinking for a second…"), "dim")
        try:
            found = suggest(self.t.state, self.seat, seconds=1.0)
        except Exception as exc:  # a hint must never cost the player the game
            self.say(_("No hint now: {reason}").format(reason=str(exc)), "red")
            return
        for line in hint_lines(found, self.t.game, self.t.names):
            self.say(line)

    def why(self, arg: str) -> None:
        """The rule behind log line N: its RULES.md section and the rulebook's own words."""
        total = len(self.t.history.lines.get(self.seat, []))
        if not arg.strip().isdigit() or not 1 <= int(arg) <= max(total, 1) or total == 0:
            if total == 0:
                self.say(_("Nothing has happened yet, so there is no rule to show."), "red")
            else:
                self.say(
                    _(
                        "why takes the number of a log line, from 1 to {total}: `why {total}`"
                    ).format(total=total),
                    "red",
                )
            return
        n = int(arg)
        event = self.t.history.event_at(self.seat, n)
        line = self.t.history.lines[self.seat][n - 1]
        self.say(f"{n:>4}  {line}", "bold")
        rule = None
        if event is not None:
            try:
                rule = self.t.game.event_rule(event.kind, event.data)
            except Exception:  # a broken rules table must not cost the player the game
                rule = None
        if rule is None or not (rule.title or rule.quote):
            self.say(_("No rule is recorded for this kind of line yet."), "dim")
            return
        if rule.title:
            self.say(_("Rule: {title}").format(title=rule.title), "bold")
        if rule.quote:
            self.say(quote_line(rule.quote, rule.quote_language))
        if rule.section:
            body = rule.section.split("\n", 1)[1].strip() if "\n" in rule.section else ""
            if body:
                self.say(body)

    def rules(self, topic: str) -> None:
        """The rules for players in the language in use; ``rules spec`` the RULES.md."""
        word, _sep, rest = topic.partition(" ")
        if word.casefold() == "spec":
            self._spec(rest.strip())
            return
        guide = rulebook.guide_sections(self.t.game)
        if not guide:
            self._spec(topic)
            return
        if not topic:
            for s in guide:
                self._section(s)
            self.say(
                _(
                    "`rules` and a word shows one section; `rules spec` lists the sections "
                    "of the engine's full specification (RULES.md, in English)."
                ),
                "dim",
            )
            return
        found, _titles = rulebook.find(self.t.game, topic, guide)
        if found is not None:
            self._section(found)
            return
        found, _titles = rulebook.find(self.t.game, topic)
        if found is not None:
            self.say(_("From the engine's specification (RULES.md):"), "dim")
            self._section(found)
            return
        self.say(
            _("No one section matches {topic}. Sections: {titles}").format(
                topic=repr(topic), titles="; ".join(s.title for s in guide)
            ),
            "red",
        )

    def _section(self, section: rulebook.Section) -> None:
        self.say(section.title, "bold")
        self.out.print(Markdown(section.body))

    def _spec(self, topic: str) -> None:
        secs = rulebook.sections(self.t.game)
        if not secs:
            self.say(_("This game has no rules text installed."), "red")
            return
        if not topic:
            self.say(
                _("Sections of the specification (type `rules spec` and a word of the title):"),
                "bold",
            )
            for s in secs:
                self.say(f"  {s.title}")
            return
        found, titles = rulebook.find(self.t.game, topic)
        if found is None:
            self.say(
                _("No one section matches {topic}. Sections: {titles}").format(
                    topic=repr(topic), titles="; ".join(titles)
                ),
                "red",
            )
            return
        self.say(found.title, "bold")
        self.say(found.body)

    def card(self, name: str) -> None:
        if not name:
            self.say(
                _("Which card? `card` and a name, for example `card {example}`").format(
                    example=self._example()
                )
            )
            return
        lines, maybe = cardtext.lookup(self.t.game, self.t.rules, name)
        if lines is None:
            if maybe:
                self.say(
                    _("{name} could be: {names}").format(
                        name=repr(name), names=", ".join(maybe[:12])
                    ),
                    "red",
                )
            else:
                self.say(_("No card is called {name}.").format(name=repr(name)), "red")
            return
        self.say(lines[0], "bold")
        for line in lines[1:]:
            self.say(line)
        # What the card's natures, keywords and spells do, in words.
        for note in mentioned(self.t.game, "\n".join(lines[1:])):
            self.say(f"  ▸ {note}", "cyan")

    def _example(self) -> str:
        for text in self.texts:
            words = text.split(" ")
            if len(words) > 1:
                return " ".join(words[1:3])
        return "NAME"

    def piles(self, arg: str) -> None:
        found = piles(self.t.state.view(self.seat))
        if not found:
            self.say(_("No face-up piles have any cards yet."))
        for label, names in found:
            self.say(_("{pile} ({n}):").format(pile=label, n=len(names)), "bold")
            self.say("  " + ", ".join(names))

    def legend(self, arg: str) -> None:
        self.say(_("Symbols:"), "bold")
        for line in legend(self.t.game):
            self.say(f"  {line}")

    def explain(self, word: str) -> None:
        """What a nature, keyword, spell or symbol does (``render.GLOSSARY``)."""
        words = glossary(self.t.game)
        if not words:
            self.say(_("This game has nothing to explain here; try `rules`."), "red")
            return
        texts = {key: words[key] for key in words}
        if not word:
            self.say(_("Words to explain (type `explain` and one of them):"), "bold")
            for text in texts.values():
                self.say(f"  {text}")
            return
        names = [(key, name) for key, text in texts.items() for name in _names(key, text)]
        hit = match(word, [name for _key, name in names])
        keys = (
            [names[hit.index][0]]
            if hit.index is not None
            else list(dict.fromkeys(names[i][0] for i in hit.candidates))
        )
        if len(keys) == 1:
            self.say(texts[keys[0]])
            return
        self.say(
            _("Nothing called {word} to explain. Words: {words}").format(
                word=repr(word), words=", ".join(t.split(" — ")[0] for t in texts.values())
            ),
            "red",
        )
