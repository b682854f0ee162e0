"""Reader options of the annotation-tool and NER formats, and their command-line flags.

``--layer`` and ``--feature`` (WebAnno TSV, UIMA CAS XMI), ``--span-group`` (spaCy),
``--scheme`` and ``--text-column`` (CoNLL) are fields of :class:`~core.formats.ReadOptions`.
Their defaults come from :func:`tool_default`, which reads the values the command line set with
:func:`set_tool_defaults`: every reader call then honours the flags, whichever subcommand or
metric module builds the ``ReadOptions``, and the flags are declared in one place
(:func:`add_tool_options`).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar, Token
from typing import Any

OPTION_NAMES = ("layer", "feature", "span_group", "scheme", "text_column")

SCHEMES = ("auto", "IOB1", "IOB2", "BIO", "IOE1", "IOE2", "IOBES", "BIOES", "BILOU")
"""CoNLL tag schemes: ``auto`` is seqeval's default (lenient) chunking; the others its strict
mode with that scheme (``BIO`` = IOB2, ``BIOES`` = IOBES)."""

_DEFAULTS: ContextVar[dict[str, Any] | None] = ContextVar("spanscope_tool_options",
                                                          default=None)


LABELS_FILE = "labels_file"
"""The ``--labels FILE`` of the command line: when it is a doccano label config, its names by
label id are the default of ``ReadOptions.label_ids`` (read once, when a reader asks)."""


def tool_default(name: str) -> Any:
    """The value of option ``name`` set by the command line (None when not given).

    ``label_ids`` comes from the ``--labels`` file (:func:`core.tools.read_label_file`): the
    names by id of a doccano label config, None for a plain label list.
    """
    values = _DEFAULTS.get() or {}
    if name == "label_ids" and values.get(LABELS_FILE) is not None:
        from core.tools import read_label_file

        return read_label_file(values[LABELS_FILE]).ids
    return values.get(name)


def set_tool_defaults(args: argparse.Namespace) -> Token[dict[str, Any] | None]:
    """Take ``--layer`` ... ``--text-column`` and ``--labels`` from parsed arguments (absent
    ones stay None); the token gives the previous defaults back (:func:`reset_tool_defaults`)."""
    values = {k: getattr(args, k, None) for k in OPTION_NAMES}
    values[LABELS_FILE] = getattr(args, "labels", None)
    return _DEFAULTS.set(values)


def reset_tool_defaults(token: Token[dict[str, Any] | None]) -> None:
    """Restore the defaults that were in place before :func:`set_tool_defaults`."""
    _DEFAULTS.reset(token)


@contextlib.contextmanager
def tool_defaults(**values: Any) -> Iterator[None]:
    """Set option defaults for the duration of a ``with`` block (tests, scripts, the Dask
    engine's workers); ``labels_file`` names a ``--labels`` file, ``label_ids`` gives the
    label names by doccano label id directly."""
    unknown = set(values) - {*OPTION_NAMES, LABELS_FILE, "label_ids"}
    if unknown:
        raise TypeError(f"unknown reader options: {', '.join(sorted(unknown))}")
    token = _DEFAULTS.set(dict(values))
    try:
        yield
    finally:
        _DEFAULTS.reset(token)


def _column(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a column number (1, 2, ...), got {value!r}"
                                         ) from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a column number from 1, got {number}")
    return number


def add_tool_options(parser: argparse.ArgumentParser) -> None:
    """Add the flags of the annotation-tool and NER readers to a subcommand's parser."""
    group = parser.add_argument_group("annotation tools and NER formats")
    group.add_argument("--layer", metavar="NAME",
                       help="WebAnno TSV / UIMA XMI: the span layer to read (full or short name; "
                       "default: a webanno.custom layer, else NamedEntity, else the first)")
    group.add_argument("--feature", metavar="NAME",
                       help="WebAnno TSV / UIMA XMI: the feature that holds the label (default: "
                       "'value' when the layer has it, else its first feature)")
    group.add_argument("--span-group", metavar="NAME",
                       help="spaCy: the span group to read (default: ents, else the only group)")
    group.add_argument("--scheme", choices=SCHEMES, metavar="SCHEME",
                       help="CoNLL: how tags become spans: auto (seqeval's default mode) or "
                       "strict with one of " + ", ".join(SCHEMES[1:]))
    group.add_argument("--text-column", type=_column, metavar="N",
                       help="CoNLL: the column holding the token (default 1; tags are in the "
                       "last column)")
