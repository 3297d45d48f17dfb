#!/usr/bin/env bash
# Creates the Python environment of the differential tests that run peer
# Python packages (crates/irinorm/tests/differential_surt.rs runs the `surt`
# package from PyPI). The venv lives under target/ (never committed); the
# packages are pinned. Prints the path of the venv's python on stdout.
#
#   IRINORM_PYTHON=$(scripts/python-env.sh) cargo test -p irinorm --test differential_surt
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-env
py=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv" >&2
fi
# surt 0.3.1 is the latest release; tldextract is only used by its
# public_suffix option (never by the tests), six by its Python 2 shims.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    'surt==0.3.1' 'six==1.16.0' 'tldextract==5.1.2' >&2
echo "$PWD/$venv/bin/python"
