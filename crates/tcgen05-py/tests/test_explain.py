"""tcgen05.explain against the rules document itself (docs/rules.md): each ruling's heading and
each rule's row of the document's index, read here from the Markdown, not from the bindings."""

from __future__ import annotations

import pathlib
import re

import pytest

import tcgen05

DOC = (pathlib.Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text()
HEADINGS = dict(re.findall(r"^### ([RTEDCI]\d+)\. (.+)$", DOC, flags=re.M))
INDEX = {
    m[0]: (m[1], m[2])
    for m in re.findall(r"^\| `([a-z0-9_.-]+)` \| (error|warning) \| ([^|]+?) \| (?:.+) \|$", DOC, flags=re.M)
}


def test_every_ruling_of_the_document_is_explained_with_its_heading() -> None:
    assert len(HEADINGS) >= 40
    for name, title in HEADINGS.items():
        got = tcgen05.explain(name.lower())
        assert [r["name"] for r in got["rulings"]] == [name]
        assert got["rulings"][0]["title"] == title
        assert str(got["rulings"][0]["text"]).strip()


def test_every_rule_of_the_index_is_explained_with_its_row() -> None:
    assert len(INDEX) >= 200
    for rule_id, (severity, source) in INDEX.items():
        got = tcgen05.explain(rule_id.upper())
        rows = [r for r in got["rules"] if r["id"] == rule_id]
        assert rows, rule_id
        assert rows[0]["severity"] == severity
        assert rows[0]["source"] == source.strip()
        ruling = re.fullmatch(r"rules\.md (R\d+)", source.strip())
        assert rows[0]["ruling"] == (ruling.group(1) if ruling else None)


def test_a_ruling_lists_the_rules_that_cite_it() -> None:
    citing = sorted(i for i, (_, src) in INDEX.items() if src.strip() == "rules.md R10")
    got = tcgen05.explain("R10")
    assert sorted(str(r["id"]) for r in got["rules"]) == citing


def test_an_unknown_name_raises_key_error_with_close_names() -> None:
    with pytest.raises(KeyError, match="idesc.reserved_bit"):
        tcgen05.explain("idesc.reserved_bits")
    with pytest.raises(TypeError):
        tcgen05.explain(10)  # type: ignore[arg-type]
