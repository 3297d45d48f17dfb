"""Shared fixtures: where the shared vectors and corpora are, and the CLI.

Like crates/irinorm-testdata: the vectors are read in place from
``$IRINORM_VECTORS`` or ``../shared/vectors`` beside the checkout; when
absent the tests that need them are skipped, except under ``CI=true`` where
absence is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest
from hypothesis import settings

# No test may depend on machine load: hypothesis' per-example deadline
# (200 ms by default) is off, and CI runs a fixed sequence of examples.
settings.register_profile("irinorm", deadline=None)
settings.register_profile("irinorm-ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("irinorm-ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "irinorm")

ROOT = Path(__file__).resolve().parents[2]


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def vectors_dir() -> Optional[Path]:
    env = os.environ.get("IRINORM_VECTORS")
    for p in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "vectors"]:
        if (p / "normalize.jsonl").is_file():
            return p
    return None


def need_vectors() -> Path:
    d = vectors_dir()
    if d is None:
        msg = "shared vectors not found (../shared/vectors or $IRINORM_VECTORS)"
        if _ci():
            pytest.fail(msg + " under CI=true")
        pytest.skip(msg)
    return d


def read_jsonl(name: str) -> List[Dict[str, Any]]:
    d = need_vectors()
    with open(d / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def corpus(name: str) -> List[str]:
    """A URL list of ../shared/vectors/corpora, one URL a line."""
    d = need_vectors() / "corpora"
    with open(d / name, encoding="utf-8", errors="surrogateescape") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def cli_path() -> Optional[Path]:
    """The irinorm binary of this checkout (debug or release), or on PATH."""
    env = os.environ.get("IRINORM_BIN")
    cands = [Path(env)] if env else []
    for d in ("debug", "release"):
        cands.append(ROOT / "target" / d / "irinorm")
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    w = shutil.which("irinorm")
    return Path(w) if w else None


@pytest.fixture(scope="session")
def cli() -> Path:
    p = cli_path()
    if p is None:
        msg = "irinorm binary not built (cargo build -p irinorm-cli)"
        if _ci():
            pytest.fail(msg + " under CI=true")
        pytest.skip(msg)
    return p


def run_cli(cli: Path, args: List[str], lines: List[str]) -> List[str]:
    """Runs the CLI on `lines` (stdin, jsonl output): one dict per line."""
    r = subprocess.run(
        [str(cli), *args, "--format", "jsonl"],
        input="".join(l + "\n" for l in lines).encode(),
        capture_output=True,
        check=False,
    )
    return [json.loads(l) for l in r.stdout.decode().splitlines() if l.strip()]


def iter_lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            yield line.rstrip("\n")
