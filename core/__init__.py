"""SpanScope core: span annotations, their file formats, and the metrics that score them.

Pure computation: nothing here imports streamlit or plotly (a test enforces it).
"""

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
