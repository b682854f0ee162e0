"""SpanScope core: span annotations, their file formats, and the metrics that score them.

Pure computation: nothing here imports streamlit or plotly (a test enforces it).
"""

from core.errors import Diagnostic, FormatError, InputError, SpanScopeError
from core.model import NOTHING, AltSpan, AnnotationSet, Corpus, Document, Span

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
