"""The code stays as STYLE.md asks: ruff clean, and mypy --strict clean on graph/ and web/."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_is_clean() -> None:
    done = run("ruff", "check", "graph", "web", "tests", "perf")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = run("mypy", "graph", "web")  # settings in pyproject.toml: strict, pydantic plugin
    assert done.returncode == 0, done.stdout + done.stderr
