#!/usr/bin/env bash
# Install the runtime dependencies into the checkout's .venv (scripts/venv.sh) and start the
# dashboard on the bundled sample data. Further arguments go to `streamlit run`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_venv requirements.txt
exec python -m streamlit run app.py "$@"
