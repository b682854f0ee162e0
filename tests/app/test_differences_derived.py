"""Metric differences page: MAFALDA's steps under ``metrics-py`` or ``repo-head`` are derived
from the paper's result the pair's scores hold (``ui.differences.mafalda_ahead``,
:meth:`core.metrics.registry.Metric.derived_from`), not scored in full; the same numbers as
scoring them. Nothing is derived from a ``repo-head`` result (docs/mafalda.md, "Variants from
one score")."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.formats import ReadOptions, load_path
from core.metrics import mafalda
from core.metrics.differences import metric_path, with_mafalda
from core.model import AnnotationSet

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "mafalda"


def _workspace():  # -> ui.state.Workspace: the dashboard's MAFALDA sample, gold and system_a
    from ui import state

    gold = load_path(SAMPLE / "gold.jsonl")
    pred = load_path(SAMPLE / "system_a.jsonl", options=ReadOptions(role="system"))
    sets = (gold.set, AnnotationSet("system_a", pred.set.table, "system"))
    report = state.FileReport("mafalda.jsonl", "test", "gold", "mafalda", dict(gold.texts), sets)
    return state.build_workspace([report], key="test:mafalda-derived", title="MAFALDA sample",
                                 shareable=False)


@pytest.mark.parametrize("level", [0, 2])
@pytest.mark.parametrize("variant", ["metrics-py", "repo-head"])
def test_the_variants_steps_are_derived_from_the_paper_s_scores(variant: str,
                                                                level: int) -> None:
    from ui import differences as diff
    from ui import results

    ws = _workspace()
    ref, system = "gold", "system_a"
    results.pair_result.clear()
    results.pair_result(ws.key, ws, ref, system, "mafalda", "paper", level)
    assert results.scored_pair(ws.key, ref, system, "mafalda", variant, level) is None
    before = mafalda.DERIVED["results"]
    got = diff.mafalda_ahead(ws, diff.Choice(ref, system, level, variant, "F1"))
    assert got is not None and set(got) == {"paper", variant}
    assert mafalda.DERIVED["results"] == before + 1  # derived, not scored in full
    direct = results.score_pair(ws, ref, system, "mafalda", variant, level)
    assert isinstance(direct.raw, mafalda.MafaldaResult)
    assert got[variant].columns == direct.raw.columns
    # the page's steps from them are the path's own, float for float
    taxonomy = results.taxonomy_for(ws, ref, system)
    whole = metric_path(ws.sets[ref], ws.sets[system], level=level, mafalda_variant=variant,
                        taxonomy=taxonomy, texts=ws.corpus.texts)
    part = metric_path(ws.sets[ref], ws.sets[system], level=level, mafalda_variant=variant,
                       taxonomy=taxonomy, texts=ws.corpus.texts, part="martino")
    assert [s.score for s in with_mafalda(part, got)] == [s.score for s in whole]


def test_nothing_is_derived_from_repo_head_s_scores() -> None:
    from ui import differences as diff
    from ui import results

    ws = _workspace()
    ref, system = "gold", "system_a"
    results.pair_result.clear()
    results.pair_result(ws.key, ws, ref, system, "mafalda", "repo-head", 2)
    assert diff.mafalda_ahead(ws, diff.Choice(ref, system, 2, "repo-head", "F1")) is None
    assert results.scored_pair(ws.key, ref, system, "mafalda", "paper", 2) is None
