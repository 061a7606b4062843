"""``GET /api/i18n/{lang}``: the messages the browser pages show, in one language.

The pages' own words (lobby, table, lab: the core ``bestiary`` catalog) and
the game pages' (``web/games/locale/<lang>/LC_MESSAGES/web-games.po``) merged
into one JSON object ``{msgid: translation}``; plural forms are keyed
``msgid + "\\u0000" + index`` as in ``bestiary.i18n``. English needs no
catalog: a message id is its English text, so ``en`` answers an empty one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from ..i18n import LANGUAGE_NAMES, LANGUAGES, Domain, core, normalize

WEB = Path(__file__).resolve().parent.parent / "web"
web_games = Domain("web-games", WEB / "games" / "locale")

router = APIRouter()


def merged(lang: str) -> dict[str, str]:
    """Every page message of ``lang`` (the core catalog wins a clash)."""
    return {**web_games.catalog(lang), **core.catalog(lang)}


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
