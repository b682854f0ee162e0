"""Dashboard helpers: session state and caches (:mod:`ui.state`), one module per page with its
sections and session keys (:mod:`ui.annotators`, :mod:`ui.learn`, ...) and plotly figure builders
(:mod:`ui.charts`); HTML and SVG come from :mod:`core.render`. Pages stay thin: computation is
in ``core/``, presentation here."""
