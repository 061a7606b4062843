"""A blank ``natures`` cell is a card with no nature (issue 28, point 3).

"In Taxonomy's card file a blank `natures` cell is derived again from the
dispositions (an edit that removed natures from 26 cards changed only 5, and
`validate` said "no problems"; only `none` removes a nature)."
"""

from __future__ import annotations

import csv
import io

from bestiary.games.taxonomy.cards import DEFAULT_CARDS, load_natures, parse_cards


def _shipped_rows() -> tuple[list[str], list[dict[str, str]]]:
    text = DEFAULT_CARDS.read_text(encoding="utf-8")
    body = [line for line in text.splitlines() if not line.startswith("#")]
    reader = csv.DictReader(body)
    return list(reader.fieldnames or []), list(reader)


def _csv(header: list[str], rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, header, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()


def test_clearing_the_natures_cell_of_every_card_leaves_no_nature() -> None:
    header, rows = _shipped_rows()
    assert sum(1 for r in rows if r["natures"]) > 100  # the shipped file has natures
    for r in rows:
        r["natures"] = ""
    cards = parse_cards(_csv(header, rows), "cleared.csv", load_natures())
    assert [c.name for c in cards if c.natures] == []


def test_clearing_one_card_changes_exactly_that_card() -> None:
    header, rows = _shipped_rows()
    before = {c.name: c.natures for c in parse_cards(_csv(header, rows), "a.csv", load_natures())}
    amazoness = next(r for r in rows if r["name"] == "Amazoness")
    assert amazoness["natures"] == "proud" and "Strong-willed" in amazoness["dispositions"]
    amazoness["natures"] = ""
    after = {c.name: c.natures for c in parse_cards(_csv(header, rows), "b.csv", load_natures())}
    assert after["Amazoness"] == ()
    assert {n for n in before if before[n] != after[n]} == {"Amazoness"}


def test_a_file_without_a_natures_column_still_works_them_out_from_the_dispositions() -> None:
    header, rows = _shipped_rows()
    header = [h for h in header if h != "natures"]
    for r in rows:
        del r["natures"]
    cards = {c.name: c.natures for c in parse_cards(_csv(header, rows), "c.csv", load_natures())}
    assert cards["Amazoness"] == ("proud",)
