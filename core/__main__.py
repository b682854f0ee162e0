"""``python -m core``: the SpanScope command line (see :mod:`core.cli`).

A command but ``app`` runs numpy's BLAS on one thread unless ``OPENBLAS_NUM_THREADS`` says
otherwise: nothing a command computes is a matrix product worth a thread pool, and OpenBLAS's
idle threads, started when numpy is imported, spin for about 0.03 s of CPU time per run
(``docs/performance.md``). The dashboard (``app``) keeps the library's default.
"""

import os
import sys

if sys.argv[1:2] != ["app"]:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from core.cli import main  # after the environment that numpy reads when imported

sys.exit(main())
