"""The examples of ``docs/python-api.md`` run as doctests: the page a notebook user reads stays
true."""

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "python-api.md"


def test_python_api_page_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, report=True,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 20
    assert result.failed == 0
