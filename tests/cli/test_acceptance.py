"""The command-line contract the issues name, checked by the shared acceptance script.

CI lays a copy of ``shared/`` beside the clone; on a machine without it this test is
skipped, saying so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT.parent / "shared" / "acceptance" / "cli_contract.py"


@pytest.mark.skipif(not CONTRACT.exists(), reason=f"no acceptance script at {CONTRACT}")
def test_cli_contract() -> None:
    p = subprocess.run([sys.executable, str(CONTRACT)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    assert " 0 failed" in p.stdout
