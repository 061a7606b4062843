"""``GET /api/i18n/{lang}``: the messages the browser pages show, in one language.

The pages' own words (lobby, table, lab: the core ``bestiary`` catalog) and
the game pages' (``web/games/locale/<lang>/LC_MESSAGES/web-games.po``) merged
into one JSON object ``{msgid: translation}``; plural forms are keyed
``msgid + "\\u0000" + index`` as in ``bestiary.i18n``. English needs no
catalog: a message id is its English text, so ``en`` answers an empty one.

The games' card names that a language translates (``games/<id>/locale/<lang>/
nouns.toml`` entries with a ``name``: Monster Maker's ``Corridor 10`` is
``Korytarz 10``) come in the same object, keyed ``"card name\\u0004" +`` the
name as the data spells it (gettext's context separator), so no card name can
clash with a message; ``cardName`` in ``web/js/cards.js`` reads them. So do the
cases a sentence declines them in (``{card:ins}`` in a page's translation:
"walcz Wojownikiem"), keyed ``"card cases\\u0004Fighter"``, the five cases after
the nominative joined by ``|`` (``cardNoun`` in ``cards.js`` reads them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from ..i18n import LANGUAGE_NAMES, LANGUAGES, Domain, core, normalize
from ..i18n.nouns import CASES, forms_of, names_of

WEB = Path(__file__).resolve().parent.parent / "web"
GAMES = Path(__file__).resolve().parent.parent / "games"
web_games = Domain("web-games", WEB / "games" / "locale")
CARD_NAME = "card name\x04"
# The cases of a name, gen|dat|acc|ins|loc (nouns.CASES after the nominative).
CARD_CASES = "card cases\x04"

router = APIRouter()


def card_names(lang: str) -> dict[str, str]:
    """``"card name\\x04Corridor 10" → "Korytarz 10"``: every game's card names
    that ``lang`` translates (none for English, the data's own language), and
    ``"card cases\\x04Corridor 10" → "Korytarza 10|Korytarzowi 10|…"``: their cases."""
    code = normalize(lang) or "en"
    out: dict[str, str] = {}
    for nouns in sorted(GAMES.glob(f"*/locale/{code}/nouns.toml")):
        localedir = str(nouns.parent.parent)
        for name, said in names_of(localedir, code).items():
            out[CARD_NAME + name] = said
        for name, forms in forms_of(localedir, code).items():
            shown = forms.get("name", name)
            cases = [forms.get(case) or shown for case in CASES[1:]]
            if any(form != shown for form in cases) and not any("|" in f for f in cases):
                out[CARD_CASES + name] = "|".join(cases)
    return out


def merged(lang: str) -> dict[str, str]:
    """Every page message of ``lang`` (the core catalog wins a clash), and the
    games' card names in it."""
    return {**card_names(lang), **web_games.catalog(lang), **core.catalog(lang)}


@router.get("/api/i18n", include_in_schema=False)
def languages() -> dict[str, Any]:
    return {"languages": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES]}


@router.get("/api/i18n/{lang}", include_in_schema=False)
def catalog(lang: str) -> JSONResponse:
    code = normalize(lang[:20])
    if code is None:
        raise HTTPException(
            404, f"no such language: {lang[:20]!r}; choose one of: {', '.join(LANGUAGES)}"
        )
    return JSONResponse(
        {"lang": code, "messages": merged(code)},
        headers={"Cache-Control": "public, max-age=300"},
    )
