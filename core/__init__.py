"""SpanScope core: span annotations, their file formats, and the metrics that score them.

Pure computation: nothing here imports streamlit or plotly (a test enforces it).

One BLAS thread unless the user says otherwise (``OPENBLAS_NUM_THREADS``, set before numpy is
first imported): OpenBLAS otherwise starts a spinning thread per core that costs a command
0.1 s of CPU for products too small to share (docs/performance.md, issue 29), and a threaded
product's last bits depend on how the work was split, so bootstrap intervals could differ
from one machine to another.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from core.model import NOTHING, AltSpan, AnnotationSet, Corpus, Document, Span
from core.model.errors import Diagnostic, FormatError, InputError, SpanScopeError

__all__ = [
    "NOTHING",
    "AltSpan",
    "AnnotationSet",
    "Corpus",
    "Diagnostic",
    "Document",
    "FormatError",
    "InputError",
    "Span",
    "SpanScopeError",
]
