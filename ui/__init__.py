"""Dashboard helpers: session state and caches (:mod:`ui.state`), span rendering
(:mod:`ui.highlight`) and plotly figure builders (:mod:`ui.charts`). Pages stay thin: computation
is in ``core/``, presentation here."""
