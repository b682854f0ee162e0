"""Drawing without a browser library: the colours, HTML and SVG that the report, the exported
documents and the dashboard share.

:mod:`core.render.palette`
    Every colour, written once: Okabe–Ito and colours kept apart for colour-blind eyes for
    categories, the merged view's status tints, the error categories' colours and marks.
:mod:`core.render.html`
    Escaping (:func:`~core.render.html.esc`, :func:`~core.render.html.xml_text`) and tables.
:mod:`core.render.highlight`
    Spans over a document as HTML: lanes, legend, merged view, a standalone page.
:mod:`core.render.svg`
    The report's bar charts and one document as a standalone SVG image.
:mod:`core.render.segments`
    Overlap geometry: boundaries, lanes and the merged character view of overlapping spans.

Pure: strings in, strings out; no streamlit, no plotly (tests/test_architecture.py).
"""
