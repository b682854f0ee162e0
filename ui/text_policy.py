"""The Data page's side of :mod:`core.bounds`: one policy for spans past their text.

Each uploaded file is read under the chosen policy (its own texts), then every set is checked
against the texts of the whole batch (a prediction file without texts against the gold's). Under
``refuse`` every offending file is marked failed with the one message that names every offending
set at once, and the other files load; under ``clip`` and ``official`` the warnings go to the
file's diagnostics, where the Data page lists them.
"""

from __future__ import annotations

import dataclasses

from core import bounds
from core.errors import Diagnostic
from ui.state import FileReport

K_BEYOND_TEXT = "beyond_text"  # Data page (session): spans past the text: refuse | clip | official

CHOICES: dict[bounds.Policy, str] = {
    "refuse": "refuse the file (default)",
    "clip": "clip spans to the text",
    "official": "keep them, as the official scorers do",
}


def apply(reports: list[FileReport], policy: bounds.Policy) -> list[FileReport]:
    """``reports`` with the policy applied across the batch (texts: first non-empty wins)."""
    texts: dict[str, str | None] = {}
    for rep in reports:
        for doc, text in rep.texts.items():
            if texts.get(doc) is None:
                texts[doc] = text
    pairs = [(rep.file, s) for rep in reports if rep.ok for s in rep.sets]
    offenders = bounds.find(pairs, texts)
    if not offenders:
        return reports
    bad_files = {o.source for o in offenders}
    out = []
    if policy == "refuse":
        message = bounds.refusal(offenders).split("; fix the offsets")[0] + (
            "; fix the offsets, or choose 'clip spans to the text' (or 'keep them, as the "
            "official scorers do') above")
        for rep in reports:
            if rep.file in bad_files:
                error = Diagnostic(rep.file, message, severity="error")
                rep = dataclasses.replace(rep, sets=(), error=error)
            out.append(rep)
        return out
    for rep in reports:
        if rep.file in bad_files:
            mine = [o for o in offenders if o.source == rep.file]
            warnings = tuple(Diagnostic(rep.file, bounds.warning(o, policy)
                                        .removeprefix(f"{rep.file}: ")) for o in mine)
            sets = rep.sets if policy == "official" else tuple(
                bounds.clipped(s, texts) for s in rep.sets)
            rep = dataclasses.replace(rep, sets=sets, diagnostics=rep.diagnostics + warnings)
        out.append(rep)
    return out
