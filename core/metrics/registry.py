"""The metric registry: one entry per metric, iterated by the command line, the dashboard and
the common tests (``tests/test_metrics_common.py``).

An entry (:class:`Metric`) says what a metric is called, what it scores (``span``: annotation
sets of labelled spans, one :class:`~core.metrics.result.SpanResult`; ``text``: text-level
labels; ``span-counts``: annotation sets of spans reported as outcome counts of several schemas
at once, such as nervaluate's, with no single P/R/F1 to chart), its variants (default first),
its levels, the keyword options its ``score`` accepts, its ``score`` and ``explain`` functions and a
one-line description. Adding a metric is one module and one :func:`register` call; nothing else
in the code base names it. The Dask engine, slices, the bootstrap and the report use a span
metric through its additive statistics (:meth:`Metric.statistics`, :meth:`Metric.combine`,
:meth:`Metric.finish`; :mod:`core.metrics.additive`), and :func:`core.metrics.checks.check_metric`
runs the common checks on it. Other packages register metrics through the entry point group
``spanscope.metrics`` (:func:`load_plugins`, :mod:`core.plugins`).

>>> names()
['hateval-a', 'hateval-b', 'mafalda', 'martino', 'nervaluate', 'text-labels']
>>> get("martino").variants[0], get("mafalda").levels
('semeval2021', (2, 1, 0))
>>> [m.name for m in span_metrics()]
['martino', 'mafalda']
>>> get("bleu")
Traceback (most recent call last):
...
core.model.errors.ParameterError: The 'metric' parameter of get must be one of {...}. Got 'bleu'
instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from core.metrics.result import Explanation, SpanResult
from core.model import AnnotationSet
from core.model.errors import ParameterError, check_choice

if TYPE_CHECKING:  # imported when an entry's functions are first used (Deferred)
    from core.metrics.additive import Additive, DocumentTable, SpanTerm

Kind = Literal["span", "text", "span-counts"]
Input = Literal["spans", "hateval"]
OPTIONS = ("variant", "level", "labels", "merge_pred", "fragments_only", "texts", "taxonomy",
           "gold_order", "pred_order")
"""Every keyword option a registered ``score`` may accept (``gold`` and ``pred`` come first);
``gold_order`` and ``pred_order`` come from a ``read_order`` hook (the files' own order)."""
READ_OPTIONS = ("llm_parsing", "header_rule")
"""Options of how a metric's *inputs* are read (not passed to ``score``)."""

LabelDefault = Callable[[str, AnnotationSet], tuple[list[str] | None, list[str]]]
PredWarnings = Callable[[AnnotationSet, Mapping[str, str | None]], list[str]]
ReadOrder = Callable[..., tuple[AnnotationSet, list[str], dict[str, object]]]
"""``read_order(variant=, gold_records=, pred_records=, gold=, pred=, texts=, labels=)``:
the predictions to score, warnings, and extra ``score`` options, from what the official scorer
reads off the files' order (the readers' records)."""


@dataclass(frozen=True)
class Metric:
    """One registered metric (module docstring).

    ``score(gold, pred, **options)`` returns a :class:`~core.metrics.result.SpanResult` for a
    ``span`` metric; ``explain(gold, pred, doc, **options)`` an
    :class:`~core.metrics.result.Explanation` (None: the metric explains nothing per span).
    ``input`` says what the command line reads for it; ``gold_alternatives`` reads the gold as
    MAFALDA-style alternatives; ``default_labels`` picks a label list when none is given and
    ``pred_warnings`` checks the predictions against the gold texts (spans past the text follow
    the one policy of :mod:`core.model.bounds` for every span metric, not a hook); ``read_order``
    applies the official scorer's reading of the files' order (:data:`ReadOrder`).
    ``variant_notes`` says in one line per variant how it differs (the dashboard's variant
    pickers and the Metric differences ladder show it; :meth:`variant_note`). ``title`` and
    ``abbreviation`` are what tables and charts call it, ``short_title`` what the report's
    columns call it (default: ``title``).

    A span metric's statistics add up over documents (:mod:`core.metrics.additive`):
    :meth:`statistics`, :meth:`combine`, :meth:`finish` and :meth:`document_table` are what the
    Dask engine, slices, the bootstrap and the report use, from ``additive`` or, when it is None,
    derived from the :class:`~core.metrics.result.SpanResult` that ``score`` returns. ``tags``
    declare the known exceptions to the common checks (:mod:`core.metrics.checks`).
    """

    name: str
    kind: Kind
    title: str
    description: str
    score: Callable[..., object]
    variants: tuple[str, ...] = ()
    levels: tuple[int, ...] = ()
    options: frozenset[str] = frozenset()
    explain: Callable[..., Explanation] | None = None
    input: Input = "spans"
    read_options: frozenset[str] = frozenset()
    gold_alternatives: bool = False
    default_labels: LabelDefault | None = None
    pred_warnings: PredWarnings | None = None
    read_order: ReadOrder | None = None
    citation: str = ""
    abbreviation: str = ""
    short_title: str = ""
    additive: Additive | None = None
    tags: frozenset[str] = frozenset()
    variant_notes: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    derive: Callable[..., object] | None = None
    derivable: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False,
                                                     hash=False)

    def __post_init__(self) -> None:
        for opt in self.options:
            check_choice("options", f"Metric({self.name!r})", opt, OPTIONS)
        for opt in self.read_options:
            check_choice("read_options", f"Metric({self.name!r})", opt, READ_OPTIONS)
        if self.variants and "variant" not in self.options:
            raise ParameterError("variants", f"metric {self.name!r} lists variants but its "
                                 "score takes no 'variant' option")
        if self.levels and "level" not in self.options:
            raise ParameterError("levels", f"metric {self.name!r} lists levels but its score "
                                 "takes no 'level' option")
        for variant in self.variant_notes:
            check_choice("variant_notes", f"Metric({self.name!r})", variant, self.variants)
        if any(isinstance(v, str) for v in self.derivable.values()):
            # one source given as a string (the shape before repo-head had two): that variant,
            # not its letters
            object.__setattr__(self, "derivable", {
                k: (v,) if isinstance(v, str) else tuple(v) for k, v in self.derivable.items()})
        for variant, sources in self.derivable.items():
            check_choice("derivable", f"Metric({self.name!r})", variant, self.variants)
            for source in sources:
                check_choice("derivable", f"Metric({self.name!r})", source, self.variants)
        if self.derivable and self.derive is None:
            raise ParameterError("derivable", f"metric {self.name!r} lists derivable variants "
                                 "but has no 'derive'")

    @property
    def default_variant(self) -> str | None:
        return self.variants[0] if self.variants else None

    @property
    def default_level(self) -> int | None:
        return self.levels[0] if self.levels else None

    def variant_note(self, variant: str) -> str:
        """One line on what ``variant`` computes (``variant_notes``; empty when there is none).

        >>> get("mafalda").variant_note("paper")[:44]
        'Helwe et al. (2024), Definition 6: every alt'
        """
        check_choice("variant", self.name, variant, self.variants)
        return self.variant_notes.get(variant, "")

    def variants_help(self) -> str:
        """The ``variant_notes`` as a Markdown list, one line per variant (a picker's help)."""
        return "\n".join(f"- **{v}**: {self.variant_notes[v]}" for v in self.variants
                         if v in self.variant_notes)

    def keywords(self, **given: object) -> dict[str, object]:
        """The options among ``given`` that this metric's ``score`` accepts, with ``variant`` and
        ``level`` defaulted and checked; None values are left out (the function's default)."""
        out = {k: v for k, v in given.items() if k in self.options and v is not None}
        if "variant" in self.options:
            variant = out.get("variant", self.default_variant)
            check_choice("variant", self.name, variant, self.variants)
            out["variant"] = variant
        if "level" in self.options:
            level = out.get("level", self.default_level)
            check_choice("level", self.name, level, self.levels)
            out["level"] = level
        return out

    def score_sets(self, gold: AnnotationSet, pred: AnnotationSet, **options: object
                   ) -> SpanResult:
        """Score a span metric: ``score(gold, pred, **keywords(**options))``."""
        if self.kind != "span":
            raise ParameterError("metric", f"{self.name!r} is a {self.kind} metric, not a span "
                                 "metric with one P/R/F1")
        result = self.score(self.gold_view(gold), pred, **self.keywords(**options))
        if not isinstance(result, SpanResult):  # pragma: no cover - a registration error
            raise TypeError(f"{self.name}.score returned {type(result).__name__}, "
                            "not a SpanResult")
        return result

    def derived_from(self, variant: str | None) -> tuple[str, ...]:
        """The variants whose result :meth:`derive_sets` computes ``variant``'s from, the
        cheaper first (empty: it is scored, never derived; ``derivable``).

        >>> get("mafalda").derived_from("metrics-py"), get("mafalda").derived_from("repo-head")
        (('paper',), ('metrics-py', 'paper'))
        >>> get("martino").derived_from("semeval2021")
        ()
        """
        return tuple(self.derivable.get(variant, ())) if variant is not None else ()

    def derive_sets(self, result: SpanResult, gold: AnnotationSet, pred: AnnotationSet,
                    **options: object) -> SpanResult:
        """:meth:`score_sets` with ``options`` from ``result``, that of the same sets and
        options under a variant :meth:`derived_from` names: the same numbers, for less work
        (MAFALDA's ``metrics-py`` from ``paper`` and back scores again only the texts where
        they can differ, ``repo-head`` from either only the texts read apart, and from
        ``paper`` those offering a choice of labels, ``core.metrics.mafalda.derive``)."""
        keywords = self.keywords(**options)
        if self.derive is None or not self.derived_from(str(keywords.get("variant"))):
            raise ParameterError("variant", f"{self.name!r} derives no result under "
                                 f"{keywords.get('variant')!r}")
        out = self.derive(result, self.gold_view(gold), pred, **keywords)
        if not isinstance(out, SpanResult):  # pragma: no cover - a registration error
            raise TypeError(f"{self.name}.derive returned {type(out).__name__}, "
                            "not a SpanResult")
        return out

    def explain_document(self, gold: AnnotationSet, pred: AnnotationSet, doc: str,
                         **options: object) -> Explanation | None:
        """The metric's explanation of document ``doc`` (None when it has no ``explain``)."""
        if self.explain is None:
            return None
        return self.explain(self.gold_view(gold), pred, doc, **self.keywords(**options))

    def gold_view(self, gold: AnnotationSet) -> AnnotationSet:
        """The gold as this metric reads it: with ``gold_alternatives`` (MAFALDA), spans that
        share an interval are one span with alternative labels, whatever format the gold came
        in, so the command line, the dashboard and the Dask engine score the same spans."""
        return gold.as_alternatives() if self.gold_alternatives else gold

    # ---- additive statistics (core.metrics.additive) -----------------------------------------

    @property
    def protocol(self) -> Additive:
        """The metric's :class:`~core.metrics.additive.Additive` implementation."""
        if self.kind != "span":
            raise ParameterError("metric", f"{self.name!r} is a {self.kind} metric; only span "
                                 "metrics have additive statistics")
        if self.additive is not None:
            return self.additive
        from core.metrics.additive import from_result
        return from_result(self.score)

    def statistics(self, gold: AnnotationSet, pred: AnnotationSet, *,
                   per_document: bool = False, **options: object) -> Any:
        """The additive statistics of these documents; ``options`` are ``score``'s keywords
        (:meth:`keywords`), ``gold`` is read as :meth:`gold_view` reads it."""
        return self.protocol.statistics(gold, pred, per_document=per_document, **options)

    def combine(self, parts: Sequence[Any], *, labels: Sequence[str] | None = None) -> Any:
        """The statistics of the union of disjoint document sets (``labels``: the run's label
        list, which may order the result)."""
        return self.protocol.combine(parts, labels=labels)

    def add(self, a: Any, b: Any) -> Any:
        """The statistics of two disjoint document sets, added (:meth:`combine` of two)."""
        return self.combine([a, b])

    def finish(self, totals: Any, *, per_document: bool = False, **options: object
               ) -> dict[str, Any]:
        """The result object of ``totals`` (the keys of ``score --json``)."""
        return self.protocol.finish(totals, per_document=per_document, **options)

    def document_table(self, totals: Any) -> DocumentTable:
        """Per-document rows of statistics taken with ``per_document=True``."""
        return self.protocol.table(totals)

    def result_table(self, result: SpanResult, gold: AnnotationSet, pred: AnnotationSet
                     ) -> DocumentTable | None:
        """The per-document rows of ``result``, what :meth:`score_sets` returned for ``gold``
        and ``pred``: the table :meth:`document_table` gives of :meth:`statistics` of the same
        sets and options, without scoring again. None when the metric cannot say (a metric
        registered with its own :class:`~core.metrics.additive.Additive` and no
        ``result_table``)."""
        make = self.protocol.result_table
        return None if make is None else make(result, self.gold_view(gold), pred)

    def label_view(self, aset: AnnotationSet) -> list[str]:
        """The labels of ``aset`` as the metric reads them (what ``default_labels`` sees)."""
        view = self.protocol.labels
        return view(aset) if view is not None else aset.labels()

    def span_terms(self, gold: AnnotationSet, pred: AnnotationSet, **options: object
                   ) -> list[SpanTerm]:
        """Every span's term in the metric's sums (span-level slices)."""
        terms = self.protocol.terms
        if terms is None:
            raise ParameterError("metric", f"{self.name!r} gives no per-span terms; slice it "
                                 "by a document-level dimension")
        return terms(gold, pred, **options)


class Deferred:
    """A function (or object) of a built-in metric's module, named and imported when first
    used: registering the built-in metrics then imports none of their modules, so that
    ``score --metric martino`` does not pay for MAFALDA, HatEval, nervaluate and the
    text-level scores (issue 29, target 1: start-up). Calling it calls the function;
    any other attribute is the object's (an :class:`~core.metrics.additive.Additive`'s
    ``statistics``, ``terms``...). Equal, hashed and pickled by its name.

    >>> Deferred("core.metrics.martino", "score") == Deferred("core.metrics.martino", "score")
    True
    """

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def target(self) -> Any:
        """The named object, its module imported on first use."""
        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target()(*args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):  # pickling and copying ask before the slots are set
            raise AttributeError(attr)
        return getattr(self.target(), attr)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Deferred) and other.module == self.module
                and other.name == self.name)

    def __hash__(self) -> int:
        return hash((self.module, self.name))

    def __getstate__(self) -> tuple[str, str]:
        return self.module, self.name

    def __setstate__(self, state: tuple[str, str]) -> None:
        self.module, self.name = state

    def __repr__(self) -> str:
        return f"{self.module}.{self.name}"


def _of(module: str, name: str) -> Any:
    """A :class:`Deferred` of a built-in metric's module (``core.metrics.<module>``)."""
    return Deferred(f"core.metrics.{module}", name)


REGISTRY: dict[str, Metric] = {}
"""Metric name -> entry, in registration order."""


def register(metric: Metric, *, replace: bool = False) -> Metric:
    """Add ``metric`` to the registry (``replace=True`` to overwrite an entry of that name)."""
    if metric.name in REGISTRY and not replace:
        raise ParameterError("metric", f"a metric named {metric.name!r} is already registered")
    REGISTRY[metric.name] = metric
    return metric


def unregister(name: str) -> None:
    """Remove an entry (tests that register a toy metric clean up with this)."""
    REGISTRY.pop(name, None)


def _register_plugin(name: str, found: object) -> None:
    metric = found() if callable(found) and not isinstance(found, Metric) else found
    if not isinstance(metric, Metric):
        raise TypeError(f"expected a core.metrics.registry.Metric (or a function returning "
                        f"one), got {type(metric).__name__}")
    if metric.name != name:
        raise ValueError(f"the entry point is named {name!r} but the metric {metric.name!r}")
    register(metric)


def load_plugins() -> list[str]:
    """Register the metrics that installed packages declare in the entry point group
    ``spanscope.metrics`` (:mod:`core.plugins`), once: :func:`get`, :func:`names`,
    :func:`span_metrics` and :func:`entries` call it first. The messages of the plugins that
    could not be loaded (each also a :class:`core.plugins.PluginWarning`)."""
    from core import plugins
    return plugins.load(plugins.METRICS_GROUP, _register_plugin)


def get(name: str) -> Metric:
    """The entry of ``name``; a :class:`~core.model.errors.ParameterError` names the choices."""
    load_plugins()
    check_choice("metric", "get", name, sorted(REGISTRY))
    return REGISTRY[name]


def names() -> list[str]:
    """Registered metric names, sorted (the command line's ``--metric`` choices)."""
    load_plugins()
    return sorted(REGISTRY)


def entries() -> list[Metric]:
    """Every registered metric, in registration order."""
    load_plugins()
    return list(REGISTRY.values())


def span_metrics() -> list[Metric]:
    """The span metrics, in registration order (the dashboard's metric choice)."""
    return [m for m in entries() if m.kind == "span"]


def builtin(metric: Metric) -> bool:
    """Whether ``metric`` is one of SpanScope's own: a built-in entry names its module's
    functions (:class:`Deferred`); a plugin's, or one registered at run time, gives its own."""
    return isinstance(metric.score, Deferred)


class SpanMetricNames(Sequence[str]):
    """The span metrics' names, in registration order, read when used rather than when a module
    is imported: a constant such as ``slices.METRICS`` (an argparse ``choices``) then lists the
    metrics that plugins register (:func:`load_plugins`) too."""

    def _names(self) -> list[str]:
        return [m.name for m in span_metrics()]

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __repr__(self) -> str:
        return repr(tuple(self._names()))


MARTINO_VARIANTS = ("semeval2021", "nlp4if2019", "semeval2020-si", "semeval2020-tc",
                    "semeval2020-tc-by-article", "semeval2020-tc-fixed")
"""``core.metrics.martino.VARIANTS``, named here so that listing the metrics (``--help``, the
``--variant`` choices) imports no metric (``tests/cli/test_lazy_commands.py`` holds them equal)."""
MAFALDA_VARIANTS = ("paper", "metrics-py", "repo-head")
"""``core.metrics.mafalda.VARIANTS`` (as :data:`MARTINO_VARIANTS`)."""
MARTINO_VARIANT_NOTES = {
    "semeval2021": "the SemEval-2021 Task 6 scorer: every span counts as given, nothing merged, "
    "so duplicate or overlapping same-label spans can lift P or R above 1; gold and prediction "
    "cover the same documents.",
    "nlp4if2019": "the NLP4IF-2019 FLC scorer: overlapping same-label gold spans are merged, "
    "overlapping predictions are an error unless merged (-m); documents missing from the "
    "prediction still count in recall.",
    "semeval2020-si": "the SemEval-2020 Task 11 span identification scorer: labels ignored, "
    "overlaps merged as in FLC.",
    "semeval2020-tc": "the SemEval-2020 Task 11 technique classification scorer as released "
    "with the data: the prediction labels exactly the gold spans, label columns compared row by "
    "row after sorting by start; P = R = F1 = accuracy.",
    "semeval2020-tc-by-article": "technique classification as that scorer means it (no "
    "official scorer computes it): each gold span paired with a prediction of its own article.",
    "semeval2020-tc-fixed": "as semeval2020-tc with the organisers' later scorer, whose "
    "alignment no longer skips identical spans after a span without a match.",
}
"""One line per Martino variant (``core/metrics/martino.py``'s docstring, ``docs/martino.md``)."""
MAFALDA_VARIANT_NOTES = {
    "paper": "Helwe et al. (2024), Definition 6: every alternative picks one label per gold "
    "span, ⊥ makes a span optional; reproduces the paper's tables.",
    "metrics-py": "the MAFALDA repository's src/metrics.py: as paper, but precision may pick "
    "any non-empty subset of a span's labels at once, so P is never below paper's.",
    "repo-head": "what the MAFALDA repository's evaluator prints today (src/new_metrics.py): no "
    "alternatives; the text between gold spans becomes gold spans labelled None that count in "
    "recall at levels 1 and 2 (an exact match gets R = 0.5); ⊥ spans leave recall; 'nothing' "
    "predictions stay in precision.",
}
"""One line per MAFALDA variant (``core/metrics/mafalda.py``'s docstring, ``docs/mafalda.md``)."""
MAFALDA_DERIVABLE = {"paper": ("metrics-py",), "metrics-py": ("paper",),
                     "repo-head": ("metrics-py", "paper")}
"""``core.metrics.mafalda.DERIVABLE`` (as :data:`MAFALDA_VARIANTS`)."""

register(Metric(
    name="martino", kind="span", title="Da San Martino",
    description="Da San Martino et al. (2019): partial-overlap credit C(s,t,h) summed over all "
    "pairs, pooled over the corpus (NLP4IF-2019, SemEval-2020 Task 11, SemEval-2021 Task 6)",
    score=_of("martino", "score"), explain=_of("martino", "explain"), variants=MARTINO_VARIANTS,
    options=frozenset({"variant", "merge_pred", "fragments_only", "labels", "gold_order",
                       "pred_order"}),
    default_labels=_of("martino", "default_labels"), read_order=_of("martino", "read_order"),
    citation="Da San Martino et al., EMNLP-IJCNLP 2019", abbreviation="DSM",
    short_title="Martino", additive=cast("Additive", _of("additive", "MARTINO")),
    tags=frozenset(f"labels-given-spans:{v}" for v in MARTINO_VARIANTS
                   if v.startswith("semeval2020-tc")),
    variant_notes=MARTINO_VARIANT_NOTES,
))
register(Metric(
    name="mafalda", kind="span", title="MAFALDA",
    description="Helwe et al. (2024): best match per span, alternative gold labels and ⊥, "
    "averaged over texts, at taxonomy level 2, 1 or 0",
    score=_of("mafalda", "score"), explain=_of("mafalda", "explain"), variants=MAFALDA_VARIANTS,
    levels=(2, 1, 0),
    options=frozenset({"variant", "level", "texts", "taxonomy", "gold_order", "pred_order"}),
    read_options=frozenset({"llm_parsing"}), gold_alternatives=True,
    read_order=_of("mafalda", "read_order"),
    citation="Helwe et al., NAACL 2024", additive=cast("Additive", _of("additive", "MAFALDA")),
    tags=frozenset({"not-one-on-itself:repo-head"}),
    variant_notes=MAFALDA_VARIANT_NOTES,
    derive=_of("mafalda", "derive"), derivable=MAFALDA_DERIVABLE,
))
register(Metric(
    name="hateval-a", kind="text", title="HatEval 2019 task A",
    description="HatEval 2019 task A: accuracy and macro P/R/F1 of hate speech detection",
    score=_of("hateval", "evaluate_a"), input="hateval", read_options=frozenset({"header_rule"}),
    citation="Basile et al., SemEval 2019",
))
register(Metric(
    name="hateval-b", kind="text", title="HatEval 2019 task B",
    description="HatEval 2019 task B: per-dimension macro F1 and exact match ratio (HS, TR, AG)",
    score=_of("hateval", "evaluate_b"), input="hateval", read_options=frozenset({"header_rule"}),
    citation="Basile et al., SemEval 2019",
))
register(Metric(
    name="text-labels", kind="text", title="Text-level label sets",
    description="each text's set of span labels as multi-label classification: micro/macro "
    "P/R/F1, exact match ratio, Hamming loss",
    score=_of("text_labels", "score"), options=frozenset({"labels"}),
))
register(Metric(
    name="nervaluate", kind="span-counts", title="SemEval-2013 schemas",
    description="Segura-Bedmar et al. (2013), as the nervaluate package counts them: one-to-one "
    "alignment, COR/INC/PAR/MIS/SPU and P/R/F1 under the strict, exact, partial and type "
    "schemas (all four reported; no variants)",
    score=_of("nervaluate", "score"),
    citation="Segura-Bedmar et al., SemEval 2013", abbreviation="S13",
))
