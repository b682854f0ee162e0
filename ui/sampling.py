"""Sampling of charts that draw one mark per document or span, with the caption that says so.

A browser draws about a thousand plotly markers a second on these machines, so a chart with one
mark per document stops being usable long before the corpus stops being interesting (100,000
documents). Such a chart draws a uniform random sample of its rows, reproducible (a fixed seed),
and its caption states how many of how many it shows and how they were chosen; the table next to
it still lists every row (paginated). Aggregates (per label, per system, per bucket) are never
sampled.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

SEED = 0
"""Seed of every chart sample: the same corpus always shows the same points."""


@dataclass(frozen=True)
class Sample:
    """The rows a chart draws (``rows``), out of ``total``, chosen as ``how`` says."""

    rows: pd.DataFrame
    total: int
    how: str

    @property
    def sampled(self) -> bool:
        return len(self.rows) < self.total

    def caption(self, noun: str) -> str:
        """``Showing 2,000 of 100,000 documents (random sample, seed 0).`` or ``Showing all
        300 documents.``

        >>> sample_rows(pd.DataFrame({"x": range(10)}), 4).caption("documents")
        'Showing 4 of 10 documents (random sample, seed 0).'
        >>> sample_rows(pd.DataFrame({"x": range(3)}), 4).caption("documents")
        'Showing all 3 documents.'
        """
        if not self.sampled:
            return f"Showing all {self.total:,} {noun}."
        return f"Showing {len(self.rows):,} of {self.total:,} {noun} ({self.how})."


def sample_rows(df: pd.DataFrame, limit: int, *, seed: int = SEED) -> Sample:
    """At most ``limit`` rows of ``df``: all of them when they fit, else a uniform random sample
    without replacement drawn with ``seed``, kept in ``df``'s order (so a chart's draw order,
    e.g. most different last, is unchanged)."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if len(df) <= limit:
        return Sample(df, len(df), "all")
    # Positions, not labels: the index need not be unique.
    rng = pd.Series(range(len(df))).sample(n=limit, random_state=seed)
    return Sample(df.iloc[sorted(rng)], len(df), f"random sample, seed {seed}")
