"""The library's static checks, so that "small, pure and typed" stays true: ``mypy --strict``
(configured in pyproject.toml) and ``ruff`` over ``coalg/``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    exe = BIN / name if (BIN / name).exists() else shutil.which(name)
    if exe is None:
        pytest.skip(f"{name} is not installed")
    return str(exe)


def test_coalg_type_checks_strictly(tmp_path: Path) -> None:
    p = subprocess.run(
        [tool("mypy"), "--cache-dir", str(tmp_path / "mypy")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-1000:]


def test_coalg_is_lint_clean() -> None:
    p = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "coalg"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-1000:]
