#!/usr/bin/env bash
# Install everything the tests need on a fresh Debian machine with Python 3.11 (into the
# checkout's .venv: scripts/venv.sh), then run them.
# Used by the README's test command and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if [ ! -x /usr/bin/chromium ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core fonts-noto-color-emoji >/dev/null
fi
source scripts/venv.sh
ensure_venv requirements-dev.txt
set +e
# Two workers (-n auto) halve the wall time on a 2-core machine. --dist loadgroup keeps each
# browser test file on one worker (xdist_group "browser-<file>", tests/e2e/conftest.py) and
# hands the files out first, then the slow tests, then the rest (tests/conftest.py): both
# workers run browser tests, each with one server and one chromium. Pass -n 0 to run serially.
python -m pytest -n auto --dist loadgroup "$@"
rc=$?
set -e
if [ "$rc" = "5" ]; then echo "no test was collected: failing" >&2; exit 1; fi
exit "$rc"
