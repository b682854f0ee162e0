"""Predictions none of whose labels the gold uses score 0 whatever their offsets: scored from
Python without a technique list, the result says why (the command line's technique list refuses
such a label instead); a shared label, or labels ignored, gives no such warning."""

from __future__ import annotations

from core.metrics import martino
from core.model import AnnotationSet, Span

GOLD = AnnotationSet("gold", {"d1": (Span(0, 4, "Doubt"),), "d2": (Span(2, 9, "Slogans"),)})


def _pred(*labels: str) -> AnnotationSet:
    return AnnotationSet("mine", {"d1": (Span(0, 4, labels[0]),),
                                  "d2": tuple(Span(2, 9, x) for x in labels[1:])}, "system")


def test_disjoint_labels_are_named_in_a_warning() -> None:
    for variant in ("semeval2021", "nlp4if2019"):
        r = martino.score(GOLD, _pred("Banana", "Apple"), variant=variant)
        assert r.f1 == 0.0
        assert r.warnings == [
            "mine: no predicted label occurs in gold (mine: 'Apple', 'Banana'; gold: 'Doubt', "
            "'Slogans'); only spans of the same label match, so nothing is matched (check the "
            "label names, or pass labels=[...] to have them checked)"]


def test_a_shared_label_or_labels_ignored_give_no_warning() -> None:
    assert martino.score(GOLD, _pred("Banana", "Slogans")).warnings == []
    assert martino.score(GOLD, _pred("Banana"), variant="semeval2020-si").warnings == []
    assert martino.score(GOLD, _pred("Banana"), variant="nlp4if2019",
                         fragments_only=True).warnings == []
    empty = AnnotationSet("none", {"d1": (), "d2": ()}, "system")
    assert martino.score(GOLD, empty).warnings == []


def test_a_gold_outside_the_technique_list_is_warned_under_a_kind_of_its_own(
        tmp_path, capsys) -> None:
    """The command line scores the labels that occur when the gold has labels outside the
    variant's technique list, and says so under a kind of its own, not ``other``
    (bugleft20)."""
    import json

    from core.cli import main
    from core.model.errors import warning_kind

    gold = AnnotationSet("gold", {"d1": (Span(0, 4, "Banana"),)})
    _labels, said = martino.default_labels("semeval2021", gold)
    assert [warning_kind(w) for w in said] == ["outside-technique-list"]
    doc = [{"id": "d1", "text": "abcdefgh",
            "labels": [{"start": 0, "end": 4, "technique": "Banana"}]}]
    for name in ("gold.json", "pred.json"):
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    assert main(["score", str(tmp_path / "gold.json"), str(tmp_path / "pred.json"),
                 "--metric", "martino", "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)["warning_counts"]
    assert counts == {"outside-technique-list": 1}, counts
