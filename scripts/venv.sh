# Sourced by run-app.sh and test.sh: make the checkout's virtual environment `.venv` (once),
# install a requirements file into it when that file changed since the last install, and put
# it first on PATH. A virtual environment, because Debian's own /usr/bin/python3 refuses
# `pip install` into itself (PEP 668, "externally-managed-environment").
#
#   ensure_venv REQUIREMENTS-FILE
#
# The interpreter is `python3` from PATH (or $PYTHON). Debian ships venv's pip in a separate
# package, python3-venv: when it is missing it is installed with apt-get (sudo when not root).

ensure_venv() {
  local requirements=$1
  local python=${PYTHON:-python3}
  if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    rm -rf .venv  # an earlier attempt without venv's pip leaves a half-made folder
    if ! "$python" -m venv .venv >/dev/null 2>&1; then
      rm -rf .venv
      if ! command -v apt-get >/dev/null; then
        echo "$python -m venv failed and there is no apt-get to install python3-venv" >&2
        return 1
      fi
      echo "installing Debian's python3-venv (needed for .venv)" >&2
      local sudo=""
      if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
      $sudo apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
      "$python" -m venv .venv
    fi
  fi
  # The stamp holds the hash of everything that decides what is installed, so a second run
  # starts at once and a changed pin is installed.
  local stamp=".venv/.installed-$(basename "$requirements")"
  local want
  want=$(cat requirements*.txt pyproject.toml setup.py | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    # pip runs quietly: say what the wait is for, or a first run looks stuck for minutes.
    echo "installing $requirements into .venv (a few minutes the first time; later runs" \
      "reuse it)" >&2
    .venv/bin/python -m pip install -q --disable-pip-version-check -r "$requirements"
    # `spanscope` and `python -m core` from the checkout itself (an editable install).
    .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
    echo "$want" > "$stamp"
  fi
  export VIRTUAL_ENV="$PWD/.venv"
  export PATH="$VIRTUAL_ENV/bin:$PATH"
}
