#!/usr/bin/env bash
# Install the runtime dependencies and start the dashboard on the bundled sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check -r requirements.txt
exec python3 -m streamlit run app.py "$@"
