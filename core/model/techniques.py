"""The official technique lists of the propaganda tasks, as the organisers distribute them
(``core/data/techniques/<name>.txt``, one technique a line, file order kept): SemEval-2021
Task 6 (20 techniques, Dimitrov et al. 2021), NLP4IF-2019 FLC (18, Da San Martino et al. 2019)
and SemEval-2020 Task 11 TC (14, Da San Martino et al. 2020).

A module of its own, without the metrics, so that checking a file's labels (``validate``)
does not import every metric.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "techniques"
NAMES = ("semeval2021", "nlp4if2019", "semeval2020-tc")


@cache
def official_list(name: str) -> tuple[str, ...]:
    """The techniques of list ``name`` (one of :data:`NAMES`), in file order.

    >>> len(official_list("semeval2021")), len(official_list("semeval2020-tc"))
    (20, 14)
    """
    text = (DATA / f"{name}.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())
