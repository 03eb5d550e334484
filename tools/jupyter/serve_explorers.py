"""Serve the explorers to a class with Voila: on this machine, or on the room's network with a token.

Usage (what ``make explorers`` runs; each option also reads the variable in brackets)::

    python tools/jupyter/serve_explorers.py [notebooks/ | a notebook]
        [--host 127.0.0.1 (EXPLORERS_HOST)]  [--port 8866 (EXPLORERS_PORT)]
        [--token T (EXPLORERS_TOKEN)]        [--idle 120 (EXPLORERS_IDLE)]
        [--max N (EXPLORERS_MAX)]            [--pool 2 (EXPLORERS_POOL)]
        [--ready merge=30,… (EXPLORERS_READY)]
        [--cert F --key F (EXPLORERS_CERT, EXPLORERS_KEY)]

* **Where it listens.**  By default on 127.0.0.1 only, with no token: a room sharing one machine.
  For students on their own laptops, ``EXPLORERS_HOST=0.0.0.0 make explorers`` (or one interface's
  address) listens on the network and requires a token: the one you give, or one generated at
  start.  The URLs to type (with the token) are printed, one per address of this machine; any
  request without the token is refused (the login page asks for it).  With a certificate and key
  the server speaks https.
* **A class arriving at once.**  ``--pool`` kernels per explorer are started ahead and have run the
  notebook already, so the first students of a burst get a page at once; each one taken is
  replaced.  For the explorer of today's class, ``--ready merge=30`` keeps as many ready as there
  are students (start the server a few minutes before class: the teacher's view counts them).  A page waits as long as a kernel needs under load (no silent "empty explorer"), and
  past ``--max`` student kernels (default: what this machine's memory holds) a student gets a
  "busy, reload in a minute" page.
* **Kernels freed.**  A closed tab ends its kernel; a kernel without a browser for ``--idle``
  seconds is shut down (the culler looks every ``--idle / 10`` s, 1 to 60); one whose tab is still
  open is never culled, however long the reader reads.
* **The teacher's view.**  ``/coalg/status?key=…`` (the key is printed here, never to students)
  lists the open sessions per explorer with their age and memory, and ends them all after class.

The command is built by :func:`voila_command` (also used by the tests and the benchmark, so they
run the server a class gets) and then replaces this process.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

KERNEL_MIB = 110  # what one explorer kernel holds here (bench/widget_bench.py measures it)
IOPUB_WAIT_S = 300  # how long a page waits for a cell's output while kernels start under load


class Options(NamedTuple):
    """Everything the launcher decides, after checking it."""

    target: str
    host: str
    port: int
    idle: int
    token: str
    teacher_key: str
    max_sessions: int
    pool: int
    ready: dict[str, int]
    cert: str
    key: str


def cull_interval(idle: int) -> int:
    """How often the culler looks: a tenth of the idle time, from 1 to 60 seconds."""
    return max(1, min(60, idle // 10))


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address (or name) of this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_max_sessions(waiting: int = 0) -> int:
    """How many student kernels this machine's memory holds beside ``waiting`` pre-started ones,
    keeping a quarter of it (at least 1 GiB) free."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    except (ValueError, OSError):
        return 30
    spare = total - max(1024, total // 4)
    return max(4, spare // KERNEL_MIB - waiting)


def explorers(target: str | os.PathLike[str]) -> list[str]:
    """The explorer notebooks served from ``target`` (a folder, or one notebook)."""
    path = Path(target)
    return [path.name] if path.suffix == ".ipynb" else sorted(p.name for p in path.glob("explore-*.ipynb"))


def parse_ready(text: str, names: list[str]) -> dict[str, int]:
    """``merge=30,ancestry=4`` → ``{"explore-merge.ipynb": 30, …}``; a ValueError names what is wrong."""
    ready: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, count = part.partition("=")
        notebook = name.strip() if name.strip().endswith(".ipynb") else f"explore-{name.strip()}.ipynb"
        if not eq or notebook not in names:
            choices = ", ".join(n.removeprefix("explore-").removesuffix(".ipynb") for n in names)
            raise ValueError(f"{part!r} is not EXPLORER=COUNT with an explorer among: {choices}")
        try:
            ready[notebook] = int(count)
        except ValueError:
            raise ValueError(f"{part!r}: the count must be a whole number") from None
        if ready[notebook] < 0:
            raise ValueError(f"{part!r}: the count must be 0 or more")
    return ready


def voila_command(target: str | os.PathLike[str], *, port: int, idle: int, host: str = "127.0.0.1",
                  token: str = "", teacher_key: str = "", max_sessions: int = 0, pool: int = 0,
                  ready: dict[str, int] | None = None, cert: str = "", key: str = "", ipython_dir: str | os.PathLike[str] | None = None
                  ) -> list[str]:
    """The server's command line for ``target`` (the notebooks folder, or one notebook)."""
    if idle < 1:
        raise ValueError(f"the idle time must be at least 1 second; {idle} is not")
    if not is_loopback(host) and not token:
        raise ValueError(f"listening on {host} needs a token (EXPLORERS_TOKEN); none was given")
    if bool(cert) != bool(key):
        raise ValueError("https needs both a certificate (EXPLORERS_CERT) and a key (EXPLORERS_KEY)")
    cmd = [
        # -P: the script's folder holds voila.py (the config), which must not shadow the package
        sys.executable, "-P", str(HERE / "explorers_app.py"), str(target), "--no-browser",
        f"--Voila.ip={host}", f"--port={port}", "--Voila.port_retries=0", "--template=coalg",
        f"--Voila.config_file_paths={HERE}",
        f"--Voila.token={token}",
        f"--MappingKernelManager.cull_idle_timeout={idle}",
        f"--MappingKernelManager.cull_interval={cull_interval(idle)}",
        "--MappingKernelManager.cull_connected=False",
        f"--VoilaExecutor.iopub_timeout={IOPUB_WAIT_S}",
        f"--ExplorersApp.max_sessions={max_sessions}",
    ]
    if teacher_key:
        cmd.append(f"--ExplorersApp.teacher_key={teacher_key}")
    if pool > 0 or ready:
        cmd += ["--preheat_kernel=True", f"--pool_size={pool}"]
    if ready:
        cmd.append("--ExplorersApp.ready=" + ",".join(f"{k}={v}" for k, v in sorted(ready.items())))
    if cert:
        cmd += [f"--ExplorersApp.certfile={cert}", f"--ExplorersApp.keyfile={key}"]
    if ipython_dir is not None:
        cmd.append(f"--ExplorersApp.private_ipython_dir={ipython_dir}")
    return cmd


def voila_env(base: dict[str, str] | None = None, *, ipython_dir: str | os.PathLike[str] | None = None
              ) -> dict[str, str]:
    """The environment: ``JUPYTER_PATH`` finds the ``coalg`` template in ``tools/jupyter``;
    ``IPYTHONDIR`` (when given, see :func:`kernel_profile`) holds the kernels' configuration."""
    env = dict(os.environ if base is None else base)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(HERE), env.get("JUPYTER_PATH", "")) if p)
    if ipython_dir is not None:
        env["IPYTHONDIR"] = str(ipython_dir)
    return env


def kernel_profile() -> Path:
    """A new private ``IPYTHONDIR`` (mode 0700, made by this user) holding the explorers' kernel
    configuration (``ipython_kernel_config.py`` beside this file); the server removes it at exit."""
    root = Path(tempfile.mkdtemp(prefix="coalg-explorers-ipython-"))
    profile = root / "profile_default"
    profile.mkdir()
    shutil.copyfile(HERE / "ipython_kernel_config.py", profile / "ipython_kernel_config.py")
    return root


def addresses(host: str) -> list[str]:
    """The addresses students can type: ``host`` itself, or every non-loopback IPv4 address of
    this machine when ``host`` is 0.0.0.0 (the wildcard)."""
    if host not in ("0.0.0.0", ""):
        return [host]
    found: set[str] = set()
    try:
        import psutil

        for addrs in psutil.net_if_addrs().values():
            found.update(a.address for a in addrs if a.family == socket.AF_INET)
    except ImportError:  # pragma: no cover — psutil comes with jupyter
        pass
    found = {a for a in found if not ipaddress.ip_address(a).is_loopback}
    return sorted(found, key=ipaddress.ip_address) or ["127.0.0.1"]


def urls(opts: Options) -> list[str]:
    """The URL of the explorer list at each address, with the token for a networked server."""
    scheme = "https" if opts.cert else "http"
    query = f"?token={opts.token}" if opts.token else ""
    return [f"{scheme}://{a}:{opts.port}/{query}" for a in addresses(opts.host)]


def parse(argv: list[str] | None = None, environ: dict[str, str] | None = None) -> Options:
    """Read the command line (defaults from the environment) and check it; errors exit 2."""
    env = os.environ if environ is None else environ
    ap = argparse.ArgumentParser(
        prog="serve_explorers.py", description=(__doc__ or "").split("\n\n")[0],
        epilog="Loopback needs no token; any other address gets one (given, or generated and printed).")
    ap.add_argument("target", nargs="?", default=str(ROOT / "notebooks"), help="the notebooks folder, or one notebook")
    ap.add_argument("--host", default=env.get("EXPLORERS_HOST", "127.0.0.1"),
                    help="address to listen on: 127.0.0.1 (default), 0.0.0.0 for every interface, or one address")
    ap.add_argument("--port", type=int, default=_int(env, "EXPLORERS_PORT", 8866))
    ap.add_argument("--token", default=env.get("EXPLORERS_TOKEN", ""),
                    help="the token students type (generated when listening beyond loopback and none is given)")
    ap.add_argument("--idle", type=int, default=_int(env, "EXPLORERS_IDLE", 120),
                    help="seconds without a browser before a kernel is culled (default 120)")
    ap.add_argument("--max", dest="max_sessions", type=int, default=_int(env, "EXPLORERS_MAX", -1),
                    help="most student kernels at once; past it the busy page (default: what memory holds)")
    ap.add_argument("--pool", type=int, default=_int(env, "EXPLORERS_POOL", 2),
                    help="kernels started ahead per explorer (default 2; 0 starts each on demand)")
    ap.add_argument("--ready", default=env.get("EXPLORERS_READY", ""), metavar="EXPLORER=N,…",
                    help="kernels kept ready for one explorer instead of --pool, e.g. merge=30 for a class of 30")
    ap.add_argument("--cert", default=env.get("EXPLORERS_CERT", ""), help="TLS certificate (PEM file)")
    ap.add_argument("--key", default=env.get("EXPLORERS_KEY", ""), help="TLS private key (PEM file)")
    a = ap.parse_args(argv)
    if a.idle < 1:
        ap.error(f"--idle must be at least 1 second; {a.idle} is not")
    if not 0 < a.port < 65536:
        ap.error(f"--port must be a port number (1 to 65535); {a.port} is not")
    if a.pool < 0:
        ap.error(f"--pool must be 0 or more; {a.pool} is not")
    for name in ("cert", "key"):
        path = getattr(a, name)
        if path and not Path(path).is_file():
            ap.error(f"--{name}: no such file: {path}")
    if bool(a.cert) != bool(a.key):
        ap.error("https needs both --cert and --key")
    if a.host not in ("0.0.0.0", "", "localhost"):
        try:
            ipaddress.ip_address(a.host)
        except ValueError:
            ap.error(f"--host must be an IP address of this machine, 0.0.0.0 or localhost; {a.host!r} is not")
    names = explorers(a.target)
    if not names:
        ap.error(f"no explorer notebooks (explore-*.ipynb) in {a.target}")
    try:
        ready = parse_ready(a.ready, names)
    except ValueError as e:
        ap.error(f"--ready: {e}")
    token = a.token or ("" if is_loopback(a.host) else secrets.token_urlsafe(16))
    waiting = sum(ready.get(n, a.pool) for n in names)
    max_sessions = default_max_sessions(waiting) if a.max_sessions < 0 else a.max_sessions
    return Options(a.target, a.host, a.port, a.idle, token, secrets.token_urlsafe(16), max_sessions,
                   a.pool, ready, a.cert, a.key)


def _int(env: dict[str, str] | os._Environ[str], name: str, default: int) -> int:
    raw = env.get(name, "")
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        sys.exit(f"serve_explorers.py: {name} must be a whole number; {raw!r} is not")


def main(argv: list[str] | None = None) -> None:
    opts = parse(argv)
    ipython_dir = kernel_profile()
    cmd = voila_command(opts.target, port=opts.port, idle=opts.idle, host=opts.host, token=opts.token,
                        teacher_key=opts.teacher_key, max_sessions=opts.max_sessions, pool=opts.pool,
                        ready=opts.ready, cert=opts.cert, key=opts.key, ipython_dir=ipython_dir)
    lines = ["explorers: students open " + ("one of" if len(urls(opts)) > 1 else "")]
    lines += [f"    {u}" for u in urls(opts)]
    if opts.token:
        lines.append(f"  token: {opts.token}  (a page asks for it if the link lost it)")
    base = urls(opts)[0].split("?")[0]
    token = f"&token={opts.token}" if opts.token else ""
    lines.append(f"  teacher's view (keep this to yourself): {base}coalg/status?key={opts.teacher_key}{token}")
    ready = "".join(f", {n} for {k}" for k, n in sorted(opts.ready.items()))
    lines.append(f"  kernels started ahead: {opts.pool} per explorer{ready} (the teacher's view counts them);"
                 f" at most {opts.max_sessions or 'unlimited'} student sessions; a kernel without a browser"
                 f" for {opts.idle} s is shut down")
    print("\n".join(lines), flush=True)
    os.execve(cmd[0], cmd, voila_env(ipython_dir=ipython_dir))


if __name__ == "__main__":
    main()
