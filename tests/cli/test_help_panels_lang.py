"""Issue 13: "Every surface — CLI … — in English and Polish": the panel titles
and markers Typer prints around our help texts follow --lang too (run as a
process: the language is chosen as the command starts)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _help(*lang: str) -> str:
    exe = Path(sys.executable).with_name("bestiary")
    env = {**os.environ, "COLUMNS": "200"}
    cmd = [str(exe), *lang, "replay", "--help"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True, env=env)
    return done.stdout


def test_help_panels_follow_the_language() -> None:
    polish = _help("--lang", "pl")
    assert "Argumenty" in polish and "Opcje" in polish and "[wymagane]" in polish
    english = _help("--lang", "en")
    assert "Arguments" in english and "Options" in english and "Opcje" not in english


def test_every_option_of_serve_and_click_s_own_help_option_speak_polish() -> None:
    """`bestiary --lang pl serve --help` described its options in English, and
    every command's `--help` read "Show this message and exit."."""
    exe = Path(sys.executable).with_name("bestiary")
    env = {**os.environ, "COLUMNS": "200"}
    cmd = [str(exe), "--lang", "pl", "serve", "--help"]
    polish = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True, env=env)
    out = polish.stdout
    assert "adres, na którym serwer nasłuchuje" in out and "Pokaż tę pomoc i zakończ." in out
    for english in ("address to listen on", "seconds a bot waits", "Show this message"):
        assert english not in out, english
    assert "Show this message and exit." in _help("--lang", "en")
