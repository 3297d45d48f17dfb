#!/usr/bin/env bash
# Creates (or reuses) the project's one Python virtualenv, target/py-venv
# (never committed), installs the pinned packages of
# python/requirements-ci.txt, and builds and installs the irinorm Python
# package from python/ (docs/python.md). Prints the venv's python.
#
#   scripts/python-env.sh            # venv + test deps + irinorm
#   scripts/python-env.sh --bench    # + python/requirements-bench.txt
#
# Additive by design: other checks that need Python packages add pinned
# lines to python/requirements-ci.txt instead of making another venv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/target/py-venv
py=${PYTHON:-python3}

if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv" >&2
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-ci.txt >&2
if [ "${1:-}" = "--bench" ]; then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-bench.txt >&2
fi
# The extension, built in release mode (the tests measure nothing, but
# the Spark test and hypothesis run many calls) into its own target dir.
export CARGO_TARGET_DIR=$root/target/py
(
    cd python
    VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH "$venv/bin/maturin" develop --release -q >&2
)
echo "$venv/bin/python"
