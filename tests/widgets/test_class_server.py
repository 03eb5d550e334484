"""A class on its own laptops: the explorers' server on the network with a token, a cap past which
students get a "busy" page, the teacher's status page, and what a client may not do.

The launcher's decisions are tested without a server (fast). One server test (marked ``book``,
like every test that starts Voila) runs the server a class gets, with a token, on 127.0.0.1 (the
token and what it guards do not depend on the interface; no test sends traffic to another
address of this machine), and checks from another process what a client with and without the
token can reach.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JUPYTER = ROOT / "tools" / "jupyter"
sys.path.insert(0, str(JUPYTER))

import serve_explorers as se


def _flag(cmd: list[str], name: str) -> str | None:
    return next((a.split("=", 1)[1] for a in cmd if a.startswith(f"--{name}=")), None)


# --- the launcher, without a server ------------------------------------------------------


def test_loopback_is_the_default_and_needs_no_token() -> None:
    o = se.parse([], {})
    assert o.host == "127.0.0.1" and o.token == "" and o.port == 8866 and o.idle == 120
    assert se.urls(o) == ["http://127.0.0.1:8866/"]
    cmd = se.voila_command(o.target, port=o.port, idle=o.idle, host=o.host, token=o.token)
    assert _flag(cmd, "Voila.ip") == "127.0.0.1" and _flag(cmd, "Voila.token") == ""


def test_the_network_gets_a_token_generated_or_given() -> None:
    a, b = se.parse(["--host", "0.0.0.0"], {}), se.parse(["--host", "0.0.0.0"], {})
    assert len(a.token) >= 16 and a.token != b.token  # generated, and fresh each start
    given = se.parse([], {"EXPLORERS_HOST": "0.0.0.0", "EXPLORERS_TOKEN": "board-word"})
    assert given.token == "board-word"
    for url in se.urls(given):
        assert url.endswith(":8866/?token=board-word")
        assert not url.startswith("http://127.")  # the addresses students type, not loopback
    cmd = se.voila_command(given.target, port=1, idle=5, host=given.host, token=given.token)
    assert _flag(cmd, "Voila.ip") == "0.0.0.0" and _flag(cmd, "Voila.token") == "board-word"
    with pytest.raises(ValueError, match="needs a token"):
        se.voila_command("notebooks", port=1, idle=5, host="0.0.0.0", token="")
    assert se.is_loopback("127.0.0.1") and se.is_loopback("::1") and se.is_loopback("localhost")
    assert not se.is_loopback("0.0.0.0") and not se.is_loopback("192.168.1.20")


def test_the_teacher_key_is_not_the_students_token() -> None:
    o = se.parse(["--host", "0.0.0.0", "--token", "t"], {})
    assert o.teacher_key and o.teacher_key != o.token
    cmd = se.voila_command(o.target, port=1, idle=5, host=o.host, token=o.token, teacher_key=o.teacher_key)
    assert _flag(cmd, "ExplorersApp.teacher_key") == o.teacher_key


def test_pool_ready_cap_and_https_options() -> None:
    o = se.parse(["--ready", "merge=30,ancestry=4", "--pool", "1", "--max", "40"], {})
    assert o.ready == {"explore-merge.ipynb": 30, "explore-ancestry.ipynb": 4}
    cmd = se.voila_command(o.target, port=1, idle=5, pool=o.pool, ready=o.ready, max_sessions=o.max_sessions)
    assert _flag(cmd, "preheat_kernel") == "True" and _flag(cmd, "pool_size") == "1"
    assert _flag(cmd, "ExplorersApp.ready") == "explore-ancestry.ipynb=4,explore-merge.ipynb=30"
    assert _flag(cmd, "ExplorersApp.max_sessions") == "40"
    assert int(_flag(cmd, "VoilaExecutor.iopub_timeout") or 0) >= 60  # no empty explorer under load
    none = se.voila_command("notebooks", port=1, idle=5)
    assert _flag(none, "preheat_kernel") is None  # tests and `pool=0` start kernels on demand
    # the default cap: what memory holds beside the kernels started ahead
    assert se.default_max_sessions(0) - se.default_max_sessions(10) == 10 or se.default_max_sessions(10) == 4
    with pytest.raises(ValueError, match="both"):
        se.voila_command("notebooks", port=1, idle=5, cert="c.pem")


@pytest.mark.parametrize("argv, message", [
    (["--ready", "nope=3"], "--ready: 'nope=3' is not EXPLORER=COUNT"),
    (["--ready", "merge=x"], "the count must be a whole number"),
    (["--host", "my laptop"], "--host must be an IP address"),
    (["--cert", "/nonexistent.pem", "--key", "/nonexistent.key"], "--cert: no such file"),
    (["--pool", "-1"], "--pool must be 0 or more"),
    (["--port", "70000"], "--port must be a port number"),
])
def test_bad_options_get_one_line(argv: list[str], message: str) -> None:
    p = subprocess.run([sys.executable, str(JUPYTER / "serve_explorers.py"), *argv], capture_output=True,
                       text=True, timeout=60, check=False, env={**os.environ, "EXPLORERS_HOST": ""})
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_a_bad_variable_gets_one_line() -> None:
    p = subprocess.run([sys.executable, str(JUPYTER / "serve_explorers.py")], capture_output=True, text=True,
                       timeout=60, check=False, env={**os.environ, "EXPLORERS_MAX": "many"})
    assert p.returncode == 1 and "EXPLORERS_MAX must be a whole number" in p.stderr
    assert "Traceback" not in p.stderr


def test_the_kernels_log_stays_in_the_server_log() -> None:
    from traitlets.config.loader import PyFileConfigLoader

    c = PyFileConfigLoader("ipython_kernel_config.py", path=str(JUPYTER)).load_config()
    assert c.IPKernelApp.capture_fd_output is False
    profile = se.kernel_profile()
    try:
        assert (profile / "profile_default" / "ipython_kernel_config.py").is_file()
        assert (profile.stat().st_mode & 0o077) == 0  # private to this user
    finally:
        import shutil

        shutil.rmtree(profile)


def test_an_error_in_a_kernel_is_one_line_of_the_server_log() -> None:
    """An uncaught error in a kernel's event loop (e.g. its socket closed while it shuts down)
    is logged by tornado; the kernel gives tornado a handler of its own that prints a traceback."""
    script = f"""
import logging, sys
from traitlets.config import Config
config = Config()
get_config = lambda: config
exec(open({str(JUPYTER / "ipython_kernel_config.py")!r}).read())
from ipykernel.kernelapp import IPKernelApp
IPKernelApp().configure_tornado_logger()  # what a kernel does after reading its configuration
import zmq
try:
    raise zmq.ZMQError(zmq.ENOTSOCK)
except zmq.ZMQError:
    logging.getLogger("tornado.general").error("Uncaught exception in ZMQStream callback", exc_info=True)
logging.getLogger("tornado.application").warning("a warning")
"""
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    assert p.stderr.splitlines() == [
        "[kernel tornado.general] ERROR | Uncaught exception in ZMQStream callback"
        " (ZMQError: Socket operation on non-socket)",
        "[kernel tornado.application] WARNING | a warning",
    ]


def test_the_environment_files_for_jupyterhub_and_binder() -> None:
    binder = ROOT / "binder"
    assert "-r ../requirements.txt" in (binder / "requirements.txt").read_text()
    post = binder / "postBuild"
    assert os.access(post, os.X_OK) and "tools/jupyter/voila/templates/coalg" in post.read_text()
    readme = (ROOT / "README.md").read_text()
    for needed in ("EXPLORERS_HOST=0.0.0.0 make explorers", "EXPLORERS_TOKEN", "JupyterHub", "Binder",
                   "coalg/status"):
        assert needed in readme


# --- a running server ----------------------------------------------------------------------


def _msg(kind: str, content: dict[str, object], channel: str = "shell") -> str:
    return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "msg_type": kind, "username": "s",
                                  "session": uuid.uuid4().hex, "date": "2026-01-01T00:00:00Z",
                                  "version": "5.3"},
                       "parent_header": {}, "metadata": {}, "content": content, "channel": channel,
                       "buffers": []})


@pytest.mark.book
def test_a_class_server_with_a_token(tmp_path: Path) -> None:
    import requests
    import websocket
    from explorers_server import running

    token, key = "class-token", "teacher-key"
    marker = tmp_path / "ran"
    with running(ROOT / "notebooks", idle=60, log=tmp_path / "voila.log", token=token, max_sessions=1,
                 teacher_key=key) as s:
        def get(path: str, **kw: object) -> requests.Response:
            return requests.get(s.url + path, allow_redirects=False, timeout=120, **kw)  # type: ignore[arg-type]

        # without the token: nothing but the login page
        for path in ("", "voila/tree", "voila/render/explore-merge.ipynb", "coalg/status?key=" + key):
            r = get(path)
            assert r.status_code in (302, 403), path
            assert r.status_code == 403 or "/login" in r.headers["Location"]
        assert s.kernels() == []  # no page, no kernel

        # with the token: no file listing or reading, no terminals, no other notebooks
        for path in ("tree", "api/contents", "files/explore-merge.ipynb", "api/kernels", "api/terminals",
                     "terminals/1", "api/sessions"):
            assert get(f"{path}?token={token}").status_code == 404, path
        for path in ("voila/files/explore-merge.ipynb", "voila/files/../tools/jupyter/voila.py"):
            assert get(f"{path}?token={token}").status_code in (403, 404), path
        for path in ("voila/render/../book/02-background.md", "voila/render/%2e%2e/README.md"):
            r = get(f"{path}?token={token}")
            assert r.status_code != 200 or "kernelId" not in r.text, path
        assert s.kernels() == []

        # a student's page, then a client that sends what the page never sends
        page = requests.get(f"{s.url}voila/render/explore-merge.ipynb?token={token}", timeout=300)
        assert page.status_code == 200 and "application/vnd.jupyter.widget-view+json" in page.text
        kid = re.search(r'"kernelId":\s*"([0-9a-f-]+)"', page.text).group(1)  # type: ignore[union-attr]
        with pytest.raises(websocket.WebSocketBadStatusException):
            websocket.create_connection(f"ws://127.0.0.1:{s.port}/api/kernels/{kid}/channels?session_id=x",
                                        timeout=10)
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{s.port}/api/kernels/{kid}/channels?session_id=y&token={token}", timeout=3)
        ws.send(_msg("comm_open", {"comm_id": "a"}))
        ws.send(_msg("comm_open", {"target_name": "jupyter.widget", "data": {"state": 5}, "comm_id": "b"}))
        ws.send(_msg("comm_msg", {"comm_id": "nonexistent", "data": {"method": "update"}}))
        ws.send(_msg("execute_request", {"code": f"open({str(marker)!r}, 'w')", "silent": False}))
        ws.send(_msg("execute_request", {"code": f"open({str(marker)!r}, 'w')"}, channel="control"))
        replies = []
        end = time.monotonic() + 8
        while time.monotonic() < end:
            try:
                replies.append(json.loads(ws.recv()))
            except Exception:  # noqa: BLE001, S112 — a receive timeout: keep listening until the end
                continue
        ws.close()
        said = json.dumps([m.get("content") for m in replies])
        assert "Traceback" not in said and str(ROOT) not in said and "site-packages" not in said
        assert not any(m["msg_type"] == "execute_reply" for m in replies)
        assert not marker.exists()

        # past the cap: the busy page, at once, and no kernel for it
        r = get(f"voila/render/explore-merge.ipynb?token={token}")
        assert r.status_code == 503 and "The class server is busy" in r.text and "reload" in r.text.lower()
        assert len(s.kernels()) == 1

        # the teacher's view needs the key as well as the token; it ends every session
        assert get(f"coalg/status?token={token}&key=wrong").status_code == 403
        status = get(f"coalg/status?token={token}&key={key}")
        assert status.status_code == 200 and "1 student sessions (cap: 1)" in status.text
        assert "explore-merge.ipynb: 1" in status.text
        ended = requests.post(f"{s.url}coalg/status/end-all?token={token}", data={"key": key},
                              allow_redirects=False, timeout=60)
        assert ended.status_code == 302
        assert s.wait_for_kernels(0, timeout=30)
        log = s.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-6000:]


@pytest.mark.book
def test_an_explorer_that_did_not_start_says_so(tmp_path: Path, chromium_browser: object) -> None:
    """A cell whose kernel fails leaves a message saying what to do, never an empty section."""
    import nbformat
    from explorers_server import running

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("## The live explorer"),
                nbformat.v4.new_code_cell("raise RuntimeError('no kernel for you')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    folder = tmp_path / "nb"
    folder.mkdir()
    nbformat.write(nb, folder / "explore-broken.ipynb")
    with running(folder, idle=60, log=tmp_path / "voila.log") as s:
        page = chromium_browser.new_page()  # type: ignore[attr-defined]
        try:
            page.goto(f"{s.url}voila/render/explore-broken.ipynb", timeout=180_000)
            page.wait_for_selector(".coalg-busy", timeout=60_000)
            text = page.inner_text(".coalg-busy")
        finally:
            page.close()
    assert "busy" in text and "Reload the page in a minute" in text
