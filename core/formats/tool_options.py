"""Reader options of the annotation-tool and NER formats.

``--layer`` and ``--feature`` (WebAnno TSV, UIMA CAS XMI), ``--span-group`` (spaCy),
``--scheme``, ``--text-column`` and ``--tag-column`` (CoNLL; ``--text-column`` also Label
Studio's CSV and TSV exports) and ``--line-breaks`` (PTC article texts) are fields of
:class:`~core.formats.ReadOptions`, as are doccano's label ids (``label_ids``, from a
``--labels`` label config). A reader reads them from its ``options`` argument and from
nowhere else: the command line declares the flags and fills the fields in
(:func:`core.cli.common.add_tool_options`, :func:`core.cli.common.read_options`), and the Dask
engine sends the options to its workers inside each job (:mod:`core.engines.sharded`).
"""

from __future__ import annotations

OPTION_NAMES = ("layer", "feature", "span_group", "scheme", "text_column", "tag_column")
"""The fields of :class:`~core.formats.ReadOptions` that the tool flags set, named as the flags'
``argparse`` destinations."""

SCHEMES = ("auto", "IOB1", "IOB2", "BIO", "IOE1", "IOE2", "IOBES", "BIOES", "BILOU", "BMES", "IO")
"""CoNLL tag schemes: ``auto`` is seqeval's default (lenient) chunking; the others its strict
mode with that scheme (``BIO`` = IOB2, ``BIOES`` = IOBES, ``BMES`` = IOBES with M- read as
I-); ``IO``: a type per token without a
B- prefix (``PER`` or ``I-PER``), a chunk per run of one type (``core.formats.conll``)."""
