"""``python -m core``: the SpanScope command line (see :mod:`core.cli`)."""

import sys

from core.cli import main

sys.exit(main())
