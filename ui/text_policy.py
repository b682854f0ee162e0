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

PAGE_CHOICE = (f"choose '{CHOICES['clip']}' (or '{CHOICES['official']}') under \"Spans that end "
               "past their document's text\" above")
"""The Data page's way to pick another policy, said where the command line names its flags
(:data:`core.bounds.CLI_CHOICE`)."""


def for_the_page(diag: Diagnostic | None) -> Diagnostic | None:
    """A message about spans past the text as the Data page says it: its choice above, not the
    command line's ``--clip-spans`` / ``--beyond-text``."""
    if diag is None or bounds.CLI_CHOICE not in diag.message:
        return diag
    return dataclasses.replace(diag, message=diag.message.replace(bounds.CLI_CHOICE,
                                                                  PAGE_CHOICE))


def apply(reports: list[FileReport], policy: bounds.Policy) -> list[FileReport]:
    """``reports`` with the policy applied across the batch (texts: first non-empty wins).

    A file whose reader placed its spans (MAFALDA model outputs) is never refused for them: one
    warning says that they are scored as the official evaluator scores them."""
    texts: dict[str, str | None] = {}
    for rep in reports:
        for doc, text in rep.texts.items():
            if texts.get(doc) is None:
                texts[doc] = text
    pairs = [(rep.file, s) for rep in reports if rep.ok for s in rep.sets]
    offenders = bounds.find(pairs, texts)
    if not offenders:
        return reports
    assumed = {rep.file: rep.assumed_extents for rep in reports
               if rep.ok and rep.assumed_extents is not None}
    outcome = bounds.decide(offenders, policy, texts, assumed)
    refused = {o.source for o in outcome.refused}
    message = bounds.refusal(outcome.refused).replace(bounds.CLI_CHOICE, PAGE_CHOICE) \
        if refused else ""
    out = []
    for rep in reports:
        if rep.file in refused:
            error = Diagnostic(rep.file, message, severity="error")
            rep = dataclasses.replace(rep, sets=(), error=error)
        elif rep.ok:
            mine = [w for src, w in outcome.warnings if src == rep.file]
            before = rep.diagnostics
            if mine and rep.file in assumed:
                # The batch's texts supersede the file's own: its reader's warning (under its
                # set's first name) says the same, once.
                before = tuple(d for d in before if d.kind != "beyond-text")
            warnings = tuple(Diagnostic(rep.file, w.removeprefix(f"{rep.file}: "))
                             for w in bounds.unseen(mine, before))
            sets = tuple(bounds.clipped(s, texts) if (rep.file, s.name) in outcome.clip else s
                         for s in rep.sets)
            rep = dataclasses.replace(rep, sets=sets, diagnostics=before + warnings)
        out.append(rep)
    return out
