"""Rule variants and options as data.

A game's rules are a frozen dataclass subclassing :class:`Ruleset`; a
variant is an instance of it; an option changes one field. Field metadata
may carry ``help`` (one line for the CLI and web lobby), ``choices`` and, for
numbers, a range (``min``/``max``, both inclusive): every number a game reads
from its options needs one, or a remote client could ask for a game that
never ends (vitality 1e9).

    @dataclass(frozen=True)
    class TaxonomyRules(Ruleset):
        rounds: int = option(4, "rounds in a game", choices=(3, 4))
        vitality: int = option(25, "vitality per side", min=1, max=200)
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

from ..i18n import core
from .errors import BadOptions

R = TypeVar("R", bound="Ruleset")


def option(
    default: Any,
    help: str = "",
    choices: tuple[Any, ...] | None = None,
    *,
    path: bool = False,
    min: float | None = None,
    max: float | None = None,
) -> Any:
    """A ruleset field with a help line (and optionally the allowed values).

    ``path=True`` marks a field that names a file on the machine (a designer's
    card file): the command line may set it, a remote client never may.
    ``min``/``max`` bound a number (inclusive); ``with_options`` refuses values
    outside, naming the range.
    """
    meta: dict[str, Any] = {"help": help, "path": path}
    if choices is not None:
        meta["choices"] = tuple(choices)
    if min is not None:
        meta["min"] = min
    if max is not None:
        meta["max"] = max
    if isinstance(default, (list, dict, set)):
        raise TypeError("ruleset options must be immutable; use a tuple")
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """Base of every game's rules. Subclasses add fields with defaults."""

    @classmethod
    def fields_info(cls) -> list[dict[str, Any]]:
        """Every option: name, type, default, help, choices (for help texts and the lobby)."""
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            choices = f.metadata.get("choices")
            tp = hints[f.name]
            if choices is None and get_origin(tp) is Literal:
                choices = get_args(tp)
            out.append(
                {
                    "name": f.name,
                    "type": _type_name(tp),
                    "default": f.default if f.default is not dataclasses.MISSING else None,
                    "help": f.metadata.get("help", ""),
                    "choices": list(choices) if choices is not None else None,
                    "path": bool(f.metadata.get("path", False)),
                    "min": f.metadata.get("min"),
                    "max": f.metadata.get("max"),
                }
            )
        return out

    @classmethod
    def path_fields(cls) -> frozenset[str]:
        """Fields that name files on the machine (see :func:`option`)."""
        return frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get("path"))

    @classmethod
    def refuse_paths(cls, options: Mapping[str, Any] | None) -> None:
        """Raise BadOptions if ``options`` set a file option (for remote clients)."""
        paths = cls.path_fields()
        for key in options or {}:
            if key.replace("-", "_") in paths:
                raise BadOptions(
                    core.gettext(
                        "option {key} names a file on the server and cannot be set remotely; "
                        "run `bestiary play` or `bestiary serve` locally with your own card files"
                    ).format(key=_echo(key))
                )

    def with_options(self: R, options: Mapping[str, Any] | None) -> R:
        """A copy with ``options`` applied. Values may be strings (from the CLI)
        and are converted to the field's type; anything unknown or ill-typed
        raises :class:`BadOptions` naming what is allowed."""
        if not options:
            return self
        hints = typing.get_type_hints(type(self))
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for key, raw in options.items():
            name = key.replace("-", "_")
            if name not in fields:
                allowed = ", ".join(sorted(fields)) or core.gettext("none")
                raise BadOptions(
                    core.gettext("unknown option {key}; options: {allowed}").format(
                        key=_echo(key), allowed=allowed
                    )
                )
            value = _coerce(name, hints[name], raw)
            choices = fields[name].metadata.get("choices")
            if choices is not None and value not in choices:
                raise BadOptions(
                    core.gettext("option {name}={value} is not allowed; choices: {choices}").format(
                        name=name, value=_echo(raw), choices=", ".join(map(str, choices))
                    )
                )
            _check_range(name, fields[name].metadata, value)
            changes[name] = value
        new = dataclasses.replace(self, **changes)
        new.validate()
        return new

    def validate(self) -> None:
        """Check combinations of options; raise :class:`BadOptions`. Override as needed."""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _echo(raw: Any) -> str:
    """A client's value for an error message: its repr, cut to a short prefix
    (a 1 MB option value must not come back in the error)."""
    text = repr(raw)
    return text if len(text) <= ECHO else text[: ECHO - 1] + "…"


ECHO = 40


def _check_range(name: str, meta: Mapping[str, Any], value: Any) -> None:
    lo, hi = meta.get("min"), meta.get("max")
    if (lo is None and hi is None) or isinstance(value, bool):
        return
    items = value if isinstance(value, tuple) else (value,)
    for v in items:
        if not isinstance(v, (int, float)):
            continue
        nan = v != v  # NaN compares false with everything: never in range
        if nan or (lo is not None and v < lo) or (hi is not None and v > hi):
            low = "-inf" if lo is None else f"{lo:g}"
            high = "inf" if hi is None else f"{hi:g}"
            raise BadOptions(
                core.gettext(
                    "option {name}={value} is out of range; allowed: {low} to {high}"
                ).format(name=name, value=_echo(v), low=low, high=high)
            )


def parse_option_args(pairs: list[str] | None) -> dict[str, str]:
    """``["rounds=3", "claim-priority=nearest"]`` -> dict (from ``-o`` CLI flags)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise BadOptions(
                core.gettext("option {pair} must be written name=value").format(pair=_echo(pair))
            )
        k, v = pair.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _type_name(tp: Any) -> str:
    if get_origin(tp) is Literal:
        return "choice"
    return getattr(tp, "__name__", str(tp))


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def _coerce(name: str, tp: Any, raw: Any) -> Any:
    origin = get_origin(tp)
    if origin is Literal:
        allowed = get_args(tp)
        for a in allowed:
            if raw == a or str(raw) == str(a):
                return a
        raise BadOptions(
            core.gettext("option {name}={value} is not allowed; choices: {choices}").format(
                name=name, value=_echo(raw), choices=", ".join(map(str, allowed))
            )
        )
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if raw is None or (isinstance(raw, str) and raw.lower() in ("none", "")):
            return None
        return _coerce(name, args[0], raw)
    try:
        if tp is bool:
            if isinstance(raw, bool):
                return raw
            s = str(raw).strip().lower()
            if s in _TRUE:
                return True
            if s in _FALSE:
                return False
            raise ValueError
        if tp is int:
            if isinstance(raw, bool):
                raise ValueError
            if isinstance(raw, float) and not raw.is_integer():
                raise ValueError
            return int(raw)
        if tp is float:
            return float(raw)
        if tp is str:
            if not isinstance(raw, (str, int, float)):
                raise ValueError
            return str(raw)
        if origin is tuple:
            items: list[Any]
            if isinstance(raw, str):
                items = [x.strip() for x in raw.split(",") if x.strip()]
            elif isinstance(raw, (list, tuple)):
                items = list(raw)
            else:
                raise ValueError
            item_args = get_args(tp)
            item_tp = item_args[0] if item_args else str
            return tuple(_coerce(name, item_tp, x) for x in items)
    except (TypeError, ValueError):
        raise BadOptions(
            core.gettext("option {name}={value} must be of type {type}").format(
                name=name, value=_echo(raw), type=_type_name(tp)
            )
        ) from None
    return raw
