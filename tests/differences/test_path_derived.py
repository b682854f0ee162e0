"""The rule path's last MAFALDA step, under ``metrics-py`` or ``repo-head``, is derived from the
paper's step it computed just before (:meth:`core.metrics.registry.Metric.derived_from`,
``core.metrics.mafalda.derive``), never scored in full: the same floats as scoring it directly,
on the data the Metric differences page shows (the dashboard's MAFALDA sample and the released
model outputs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.formats import ReadOptions, load_path
from core.metrics import mafalda
from core.metrics.differences import RuleScore, mafalda_rules, metric_path
from core.model import AnnotationSet

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "mafalda"
RELEASED = ROOT / "tests" / "data" / "mafalda"


def _pairs() -> list[tuple[str, AnnotationSet, AnnotationSet, dict[str, str | None]]]:
    gold = load_path(SAMPLE / "gold.jsonl")
    out = [(f"sample-{name}", gold.set,
            load_path(SAMPLE / f"{name}.jsonl", options=ReadOptions(role="system")).set,
            dict(gold.texts)) for name in ("system_a", "system_b", "system_llm")]
    released = load_path(RELEASED / "datasets" / "gold_standard_dataset.jsonl")
    gpt = load_path(RELEASED / "results" / "gpt-3.5_level_2_results.jsonl", fmt="mafalda-llm",
                    options=ReadOptions(role="system", gold_doc_ids=released.set.doc_ids))
    out.append(("released-gpt-3.5", released.set, gpt.set, dict(released.texts)))
    return out


PAIRS = _pairs()


@pytest.mark.parametrize("variant", ["metrics-py", "repo-head"])
@pytest.mark.parametrize("level", [0, 1, 2])
@pytest.mark.parametrize("pair", PAIRS, ids=[p[0] for p in PAIRS])
def test_the_paths_variant_step_is_derived_with_the_directly_scored_floats(
        pair: tuple[str, AnnotationSet, AnnotationSet, dict[str, str | None]], level: int,
        variant: str) -> None:
    _, gold, pred, texts = pair
    before = mafalda.DERIVED["results"]
    steps = metric_path(gold, pred, level=level, mafalda_variant=variant, texts=texts)
    assert mafalda.DERIVED["results"] == before + 1  # derived once, from the paper's step
    last = steps[-1]
    assert last.key == "mafalda-variant" and last.error is None
    direct = mafalda.score(gold.as_alternatives(), pred, level=level, variant=variant,
                           texts=texts)
    assert last.score == RuleScore.of_mafalda(mafalda_rules(level, variant), direct)
    assert last.value() == direct.f1
