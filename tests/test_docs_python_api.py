"""The examples of ``docs/python-api.md`` and of ``docs/agreement.md``'s Python API run as
doctests: the pages a notebook user reads stay true."""

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "python-api.md"


def test_python_api_page_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, report=True,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 20
    assert result.failed == 0


def test_agreement_page_python_api_examples_run() -> None:
    result = doctest.testfile(str(DOC.parent / "agreement.md"), module_relative=False,
                              report=True,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 20
    assert result.failed == 0


def test_every_code_fence_of_the_docs_is_closed_before_the_next_one_or_a_heading() -> None:
    # An unclosed fence shows the rest of a page as code; doctest does not notice, since it
    # reads examples up to a blank line whatever the Markdown around them.
    pages = [*sorted(DOC.parent.glob("*.md")), DOC.parent.parent / "README.md"]
    problems = []
    for page in pages:
        opened = 0
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            fence = line.strip().startswith("```")
            if fence and not opened:
                opened = number
            elif fence and line.strip() == "```":
                opened = 0
            elif opened and (fence or line.startswith("## ")):
                problems.append(f"{page.name}:{number}: the fence of line {opened} is not closed")
                opened = 0
        if opened:
            problems.append(f"{page.name}: the fence of line {opened} is not closed")
    assert not problems, problems


def test_every_table_row_of_the_docs_belongs_to_a_table() -> None:
    # A blank line inside a Markdown table ends it: the rows after it have no header and
    # delimiter row, and GitHub shows them as a paragraph of pipes (robustness.md's official
    # behaviour table lost its last five rows so).
    pages = [*sorted(DOC.parent.glob("*.md")), DOC.parent.parent / "README.md"]
    problems = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        fenced = False
        for number, line in enumerate(lines, start=1):
            if line.strip().startswith("```"):
                fenced = not fenced
            if fenced or not line.startswith("| ") or lines[number - 2].startswith("|"):
                continue
            delimiter = lines[number] if number < len(lines) else ""
            if not delimiter.startswith("|") or set(delimiter) - set("|:- "):
                problems.append(f"{page.name}:{number}: a table row without a header above it")
    assert not problems, problems
