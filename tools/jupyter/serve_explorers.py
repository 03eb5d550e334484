"""Serve the explorers with Voila on 127.0.0.1, culling the kernels of pages nobody has open.

Usage (what ``make explorers`` runs)::

    python tools/jupyter/serve_explorers.py [--port 8866] [--idle 600] [notebooks/ | a notebook]

Every page view starts a kernel (about 100 MB).  A kernel is shut down when its
tab closes (the ``_xsrf`` fix in ``voila.py``), and otherwise culled once it has
had no browser connection and no activity for ``--idle`` seconds; the culler
looks every ``--idle / 10`` seconds (at least 1, at most 60).  A kernel whose
tab is still open is never culled, however long the reader reads
(``cull_connected`` is false).  Nothing listens outside 127.0.0.1; the ``coalg``
template fetches nothing from outside it.

The command is built by :func:`voila_command` (also used by the tests and the
benchmark, so they run the server a class gets) and then replaces this process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def cull_interval(idle: int) -> int:
    """How often the culler looks: a tenth of the idle time, from 1 to 60 seconds."""
    return max(1, min(60, idle // 10))


def voila_command(target: str | os.PathLike[str], *, port: int, idle: int) -> list[str]:
    """The Voila command line for ``target`` (the notebooks folder, or one notebook)."""
    if idle < 1:
        raise ValueError(f"the idle time must be at least 1 second; {idle} is not")
    voila = Path(sys.executable).parent / "voila"
    return [
        str(voila) if voila.exists() else (shutil.which("voila") or "voila"), str(target), "--no-browser",
        "--Voila.ip=127.0.0.1", f"--port={port}", "--template=coalg",
        f"--Voila.config_file_paths={HERE}",
        f"--MappingKernelManager.cull_idle_timeout={idle}",
        f"--MappingKernelManager.cull_interval={cull_interval(idle)}",
        "--MappingKernelManager.cull_connected=False",
    ]


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment: ``JUPYTER_PATH`` finds the ``coalg`` template in ``tools/jupyter``."""
    env = dict(os.environ if base is None else base)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(HERE), env.get("JUPYTER_PATH", "")) if p)
    return env


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", nargs="?", default=str(ROOT / "notebooks"), help="the notebooks folder, or one notebook")
    ap.add_argument("--port", type=int, default=int(os.environ.get("EXPLORERS_PORT", "8866")))
    ap.add_argument("--idle", type=int, default=int(os.environ.get("EXPLORERS_IDLE", "600")),
                    help="seconds without a browser connection before a kernel is culled (default 600)")
    args = ap.parse_args(argv)
    if args.idle < 1:
        ap.error(f"--idle must be at least 1 second; {args.idle} is not")
    cmd = voila_command(args.target, port=args.port, idle=args.idle)
    print(f"explorers: http://127.0.0.1:{args.port}/  (kernels culled after {args.idle} s without a browser; "
          f"checked every {cull_interval(args.idle)} s)", flush=True)
    os.execve(cmd[0], cmd, voila_env())


if __name__ == "__main__":
    main()
