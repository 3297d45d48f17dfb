#!/usr/bin/env bash
# The project's one Python virtualenv, target/py-venv (never committed), with
# the pinned packages of python/requirements-ci.txt: the peers that
# differential tests run (crates/irinorm/tests/differential_surt.rs runs the
# `surt` package) and the Python package's test dependencies. Prints the path
# of the venv's python on stdout.
#
#   IRINORM_PYTHON=$(scripts/python-env.sh) cargo test -p irinorm --test differential_surt
#   scripts/python-env.sh --package          # + build and install irinorm from python/ (docs/python.md)
#   scripts/python-env.sh --package --bench  # + the peers of python/bench (python/requirements-bench.txt)
#
# Additive by design: a check that needs another Python package adds a
# pinned line to python/requirements-ci.txt instead of making another venv.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/target/py-venv
py=${PYTHON:-python3}
package=false
bench=false
for arg in "$@"; do
    case $arg in
        --package) package=true ;;
        --bench) bench=true ;;
        *) echo "python-env.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv" >&2
fi
pip() { "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >&2; }
pip -r python/requirements-ci.txt
if $bench; then
    pip -r python/requirements-bench.txt
fi
if $package; then
    # Release build into its own target dir (the Spark test and the
    # hypothesis properties make many calls).
    (
        cd python
        CARGO_TARGET_DIR=$root/target/py VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH \
            "$venv/bin/maturin" develop --release -q >&2
    )
fi
echo "$venv/bin/python"
