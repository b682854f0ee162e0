"""The Errors and Overview pages name the compared sets by their role (bugleft26): three
annotators (brat annotator folders, ``agree``'s inputs) were "Error categories, every system"
and an Overview column "system" beside their role "annotator"."""

from __future__ import annotations

import uuid

from core.model import AnnotationSet
from tests.app.conftest import app_on_sets
from tests.app.test_annotators_constant_labels import _sets


def _page(page: str, role: str) -> tuple[list[str], list[str], str]:
    sets, texts = _sets()
    if role != "annotator":
        sets = [AnnotationSet(s.name, s.spans, role) for s in sets]
    at = app_on_sets(sets, texts, page, key=f"test:roles:{uuid.uuid4().hex}", role=role)
    assert not at.exception, [e.value for e in at.exception]
    html = " ".join(h.proto.body for h in at.html)
    return [h.value for h in at.header], [m.value for m in at.markdown], html


def test_errors_names_annotators_annotators() -> None:
    headers, _, html = _page("pages/errors.py", "annotator")
    assert "Error categories, every annotator" in headers
    assert "every system" not in " ".join(headers)
    assert '<th scope="col">annotator</th>' in html and ">system</th>" not in html
    assert "each annotator&#x27;s reference and predicted spans" in html


def test_errors_names_systems_systems() -> None:
    headers, _, html = _page("pages/errors.py", "system")
    assert "Error categories, every system" in headers
    assert '<th scope="col">system</th>' in html


def test_overview_names_the_column_of_annotators_annotator() -> None:
    _, markdown, _ = _page("pages/home.py", "annotator")
    (table,) = [m for m in markdown if m.startswith("| ")]
    assert table.startswith("| annotator | role |")
    _, markdown, _ = _page("pages/home.py", "system")
    (table,) = [m for m in markdown if m.startswith("| ")]
    assert table.startswith("| system | role |")
