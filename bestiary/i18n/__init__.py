"""Translations: every surface in English and Polish, through gettext catalogs.

Each package that speaks to players keeps its own catalog (a gettext *domain*)
beside its code: ``bestiary/i18n/locale/pl/LC_MESSAGES/bestiary.po`` for the
CLI, server and web pages, ``bestiary/games/<id>/locale/pl/LC_MESSAGES/<id>.po``
for a game's log lines and screens — so a new game touches only its package.
English is the source language: a message id *is* the English text.

The language is a context variable, not a global: the server renders each
client's log lines in that client's language inside ``use_language(lang)``,
while the CLI sets it once (``set_language``). Messages are looked up when they
are shown, never at import time, so switching works mid-game::

    from bestiary.i18n import domain
    _ = domain("taxonomy", __file__)      # the catalog next to this package
    _("{name} draws a card").format(name=name)

Catalogs are read from the ``.po`` files with Babel (no compiled ``.mo`` files to
keep in step); ``pybabel extract`` with ``babel.cfg`` refreshes the templates and
``tests/test_i18n.py`` checks that every message has both languages.

A name that a Polish sentence declines (a card: "kładzie Kolczastą Zbroję") is
passed as ``_.noun(name)``; the sentence picks its case, ``{card:acc}``, from
the forms kept as data in ``locale/pl/nouns.toml`` (``nouns``). What a button or
a menu line says for an action is its *label* (``labels``); the action's text
form stays the protocol.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path

from .nouns import Noun
from .words import words_of

LANGUAGES: tuple[str, ...] = ("en", "pl")
DEFAULT = "en"
LANGUAGE_NAMES = {"en": "English", "pl": "Polski"}

_current: ContextVar[str] = ContextVar("bestiary_language", default=DEFAULT)


def normalize(lang: str | None) -> str | None:
    """``"pl_PL.UTF-8"``, ``"PL"``, ``"pl-PL"`` → ``"pl"``; unknown → ``None``."""
    if not lang:
        return None
    code = lang.strip().lower().replace("-", "_").split(".")[0].split("_")[0]
    return code if code in LANGUAGES else None


def language() -> str:
    """The language messages are shown in right now."""
    return _current.get()


def set_language(lang: str) -> None:
    """Set the language for this thread of work (the CLI calls this once)."""
    code = normalize(lang)
    if code is None:
        raise ValueError(f"unknown language {lang[:20]!r}; choose one of: {', '.join(LANGUAGES)}")
    _current.set(code)


@contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Show messages in ``lang`` inside the block (unknown → English)."""
    token = _current.set(normalize(lang) or DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The terminal's language: ``BESTIARY_LANG``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``."""
    env = os.environ if environ is None else environ
    for key in ("BESTIARY_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        code = normalize(env.get(key))
        if code:
            return code
    return DEFAULT


def from_accept_language(header: str | None) -> str:
    """The browser's preferred language among ours (``Accept-Language``)."""
    best, best_q = DEFAULT, -1.0
    for part in (header or "").split(",")[:20]:
        lang, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = normalize(lang)
        if code and q > best_q:
            best, best_q = code, q
    return best


@cache
def _messages(localedir: str, name: str, lang: str) -> dict[str, str]:
    """msgid → translation for one catalog (empty when the file is missing)."""
    path = Path(localedir) / lang / "LC_MESSAGES" / f"{name}.po"
    if not path.exists():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=name)
    table: dict[str, str] = {}
    for message in catalog:
        msgid, text = message.id, message.string
        if not msgid or message.fuzzy:
            continue
        if isinstance(msgid, (tuple, list)):  # plural: key each form by its singular id
            forms = [str(f) for f in text] if isinstance(text, (tuple, list)) else [str(text or "")]
            if all(forms):
                table[str(msgid[0])] = forms[0]
                for i, form in enumerate(forms):
                    table[f"{msgid[0]}\x00{i}"] = form
        elif text:
            table[str(msgid)] = str(text)
    return table


class Domain:
    """One catalog; call it like ``_()`` to translate into the current language."""

    __slots__ = ("localedir", "name")

    def __init__(self, name: str, localedir: Path) -> None:
        self.name = name
        self.localedir = localedir

    def gettext(self, message: str) -> str:
        lang = _current.get()
        if lang == DEFAULT:
            return message
        return _messages(str(self.localedir), self.name, lang).get(message, message)

    __call__ = gettext

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        lang = _current.get()
        if lang != DEFAULT:
            table = _messages(str(self.localedir), self.name, lang)
            if singular in table:
                index = _plural_index(lang, n)
                return table.get(f"{singular}\x00{index}", table[singular])
        return singular if n == 1 else plural

    def word(self, text: str) -> str:
        """A value of the game's card data in the current language: the
        catalog's message where it has one ("spell" → "zaklęcie"), else the
        game's word list (``locale/<lang>/words.toml``, see ``words``), else as it is."""
        lang = _current.get()
        if lang == DEFAULT:
            return text
        said = _messages(str(self.localedir), self.name, lang).get(text)
        if said is None:
            said = words_of(str(self.localedir), lang).get(text, text)
        return said

    def noun(self, text: object) -> Noun:
        """``text`` as a name this catalog's sentences may decline (``{card:acc}``;
        the cases are data: ``locale/<lang>/nouns.toml``, see ``nouns``)."""
        return Noun(str(text), str(self.localedir))

    def catalog(self, lang: str) -> dict[str, str]:
        """Every translated message of ``lang`` (the web pages fetch this)."""
        return dict(_messages(str(self.localedir), self.name, normalize(lang) or DEFAULT))


@lru_cache(maxsize=4096)
def _plural_index(lang: str, n: int) -> int:
    from babel import Locale

    # gettext's index order follows the catalog's Plural-Forms; for Polish that is
    # one / few / many, which is CLDR's order minus "other" for integers.
    forms = Locale.parse(lang).plural_form(n)
    order = {"en": ["one", "other"], "pl": ["one", "few", "many"]}[lang]
    return order.index(forms) if forms in order else len(order) - 1


def domain(name: str, package_file: str | Path) -> Domain:
    """The catalog named ``name`` kept in ``locale/`` beside ``package_file``."""
    return Domain(name, Path(package_file).resolve().parent / "locale")


def N_(message: str) -> str:
    """Mark a message for extraction where it is defined; translate it where shown."""
    return message


# The CLI's, server's and web pages' own catalog.
core = domain("bestiary", __file__)
_ = core.gettext
