"""Invariances every registered metric must keep (the model: scikit-learn's
``sklearn/metrics/tests/test_common.py``), and the registry driving the CLI and the dashboard.

Every span metric of :mod:`core.metrics.registry` is checked in every variant it lists by
:func:`core.metrics.checks.check_metric` (scores of a set against itself, document-order
invariance, per-document and per-label sums adding up to the overall numerators, results that
serialise, explanations whose rows come with the score, additive statistics that add up); the
known exceptions are tags of the registry entries, not lists here. A toy metric registered here
appears in ``python -m core score --help`` and in the dashboard's metric choice without any other
change, and passes the same checks.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli import main
from core.metrics import registry
from core.metrics.checks import check_entry, check_metric, checks
from core.metrics.result import BootstrapTable, DocumentScore, LabelScore, prf, prf_arrays
from core.model import AnnotationSet

ROOT = Path(__file__).resolve().parent.parent


CHECKS = [(m.name, variant, check) for m in registry.span_metrics()
          for variant, check in checks(m)]
IDS = [f"{name}-{variant}-{check.__name__.removeprefix('check_')}"
       for name, variant, check in CHECKS]


@pytest.mark.parametrize(("name", "variant", "check"), CHECKS, ids=IDS)
def test_every_span_metric_passes_the_common_checks(name: str, variant: str | None,
                                                    check: Callable[..., None]) -> None:
    """core.metrics.checks (check_metric), one check and variant at a time; the known
    exceptions are tags of the registry entries (MAFALDA's repo-head, SemEval-2020 TC)."""
    check(registry.get(name), variant)


@pytest.mark.parametrize("name", registry.names())
def test_every_metric_has_a_description_and_defaults_that_it_accepts(name: str) -> None:
    check_entry(registry.get(name))


@pytest.mark.parametrize("name", [m.name for m in registry.span_metrics() if m.variants])
def test_every_variant_of_a_built_in_metric_has_a_one_line_note(name: str) -> None:
    entry = registry.get(name)
    assert set(entry.variant_notes) == set(entry.variants)
    for variant in entry.variants:
        note = entry.variant_note(variant)
        assert note and "\n" not in note and len(note) < 400, variant


def test_a_note_on_a_variant_the_metric_lacks_is_refused() -> None:
    entry = registry.get("mafalda")
    with pytest.raises(ValueError, match="'variant_notes' parameter of Metric\\('mafalda'\\)"):
        dataclasses.replace(entry, variant_notes={"papr": "a typo"})


def test_check_metric_names_the_check_that_fails() -> None:
    entry = registry.get("mafalda")
    untagged = dataclasses.replace(entry, tags=frozenset())
    with pytest.raises(AssertionError, match=r"mafalda \(repo-head\): a set against itself"):
        check_metric(untagged)


def test_unknown_metric_and_variant_errors_name_the_parameter() -> None:
    with pytest.raises(ValueError, match="The 'metric' parameter of get must be one of"):
        registry.get("bleu")
    with pytest.raises(ValueError, match="The 'variant' parameter of martino must be one of"):
        registry.get("martino").keywords(variant="x")


@settings(deadline=None, max_examples=300)
@given(st.lists(st.tuples(st.floats(0, 50), st.integers(0, 50), st.floats(0, 50),
                          st.integers(0, 50)), min_size=1, max_size=6),
       st.sampled_from(["official", "mafalda", "zero"]))
def test_prf_and_its_vectorised_twin_agree(rows: list[tuple[float, int, float, int]],
                                           empty: str) -> None:
    import numpy as np

    p, r, f = prf_arrays(np.array(rows, dtype=float), empty=empty)  # type: ignore[arg-type]
    for k, row in enumerate(rows):
        want = prf(*row, empty=empty)  # type: ignore[arg-type]
        assert (p[k], r[k], f[k]) == pytest.approx(tuple(want))
        assert not any(math.isnan(x) for x in want)


# ---- a toy metric, registered here, reaches the CLI and the dashboard ---------------------------


class _ToyResult:
    """Exact-span matching (a span counts when gold holds the same span), pooled."""

    metric = "toy-exact"
    variant = "strict"
    pooled = True

    def __init__(self, gold: AnnotationSet, pred: AnnotationSet) -> None:
        import numpy as np

        from core.metrics.result import pooled_f1

        self.warnings: list[str] = []
        self.docs = list(gold.doc_ids)
        self.rows = [(sum(s in set(gold.get(d)) for s in pred.get(d)), len(pred.get(d)),
                      len(gold.get(d))) for d in self.docs]
        self._np, self._f1 = np, pooled_f1

    precision_numerator = property(lambda self: float(sum(r[0] for r in self.rows)))
    recall_numerator = precision_numerator
    precision_denominator = property(lambda self: float(sum(r[1] for r in self.rows)))
    recall_denominator = property(lambda self: float(sum(r[2] for r in self.rows)))
    precision = property(lambda self: self._prf()[0])
    recall = property(lambda self: self._prf()[1])
    f1 = property(lambda self: self._prf()[2])
    document_ids = property(lambda self: list(self.docs))

    def _prf(self) -> tuple[float, float, float]:
        return prf(self.precision_numerator, self.precision_denominator,
                   self.recall_numerator, self.recall_denominator, empty="official")

    def per_document(self) -> list[DocumentScore]:
        return [DocumentScore(d, *prf(t, n, t, g, empty="official"), t, n, t, g)
                for d, (t, n, g) in zip(self.docs, self.rows, strict=True)]

    def per_label(self) -> dict[str, LabelScore]:
        return {}

    def summary(self) -> dict[str, float]:
        return {}

    def bootstrap_table(self) -> BootstrapTable:
        table = self._np.array([[t, n, t, g] for t, n, g in self.rows], dtype=float)
        return BootstrapTable(tuple(self.docs), table, self._f1)

    def to_dict(self, *, per_document: bool = False) -> dict[str, object]:
        out: dict[str, object] = {"metric": self.metric, "precision": self.precision,
                                  "recall": self.recall, "f1": self.f1,
                                  "warnings": list(self.warnings)}
        if per_document:
            out["per_document"] = [r.to_dict() for r in self.per_document()]
        return out

    def per_document_frame(self) -> object:
        from core.metrics.result import document_frame

        return document_frame(self.per_document())


def _toy_score(gold: AnnotationSet, pred: AnnotationSet, *, variant: str = "strict"
               ) -> _ToyResult:
    return _ToyResult(gold, pred)


@contextmanager
def toy_metric() -> Iterator[registry.Metric]:
    entry = registry.register(registry.Metric(
        name="toy-exact", kind="span", title="Toy exact match",
        description="a toy metric registered by the common tests: exact spans only",
        score=_toy_score, variants=("strict",), options=frozenset({"variant"}),
        tags=frozenset({"no-explanation"})))
    try:
        yield entry
    finally:
        registry.unregister("toy-exact")


def test_a_toy_metric_passes_check_metric_with_its_tags() -> None:
    with toy_metric() as entry:
        check_metric(entry)
        with pytest.raises(AssertionError, match=r"toy-exact \(strict\): a span metric "
                           r"registers no explain"):
            check_metric(dataclasses.replace(entry, tags=frozenset()))


def test_a_registered_toy_metric_appears_in_score_help_and_scores(
        capsys: pytest.CaptureFixture[str]) -> None:
    with toy_metric():
        with pytest.raises(SystemExit) as exc:
            main(["score", "--help"])
        assert exc.value.code == 0
        help_text = capsys.readouterr().out
        assert "toy-exact" in help_text and "exact spans only" in help_text
        sample = ROOT / "sample_data" / "propaganda"
        code = main(["score", str(sample / "gold.json"), str(sample / "gold.json"),
                     "--metric", "toy-exact", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["metric"] == "toy-exact" and out["f1"] == 1.0
    assert "toy-exact" not in registry.names()


def test_a_registered_toy_metric_appears_in_the_dashboards_metric_choice() -> None:
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import tables
    from ui import scores as scores_ui
    from ui import state

    with toy_metric():
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        at.session_state[state.K_SOURCE] = "sample"
        at.run()
        at.switch_page("pages/scores.py").run()
        assert not at.exception, [e.value for e in at.exception]
        radio = next(r for r in at.radio if r.key == state.K_METRIC)
        assert "toy-exact" in radio.options
        overview = next(df.value for df in at.dataframe if "system" in df.value.columns)
        assert "Toy exact match F1" in overview.columns
        radio.set_value("toy-exact").run()
        assert not at.exception, [e.value for e in at.exception]
        at.session_state[scores_ui.K_DETAIL_TAB] = "📄 Per document"  # the lazy tab, opened
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        per_doc = next(df for df in tables(at) if "document" in df.columns)
        result = _toy_score(*_sample_pair())
        shown = dict(zip(per_doc["document"], per_doc["F1"], strict=True))
        # the page's table shows four decimals
        assert shown == pytest.approx({r.document: r.f1 for r in result.per_document()},
                                      abs=5e-5)


def _sample_pair() -> tuple[AnnotationSet, AnnotationSet]:
    from ui import state

    ws = state.load_sample("propaganda")
    gold, system = state.default_pair(ws)
    assert gold and system
    pred = ws.sets[system]
    return ws.sets[gold], AnnotationSet(pred.name, pred.spans, "system", False)
