"""How `make explorers` runs Voila: 127.0.0.1 by default, kernels culled, the tab-close shutdown
allowed, only the extensions the explorers need, and an index page that says what each explorer is.

No server here (tests/widgets/test_voila_load.py, test_class_server.py and
test_explorers_browser.py run one): the command line, the configuration file as traitlets reads
it, the page handler's cookie, and the index template rendered with jinja.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
JUPYTER = ROOT / "tools" / "jupyter"
sys.path.insert(0, str(JUPYTER))

from serve_explorers import cull_interval, voila_command, voila_env  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("explore-*.ipynb"))


def _flag(cmd: list[str], name: str) -> str:
    return next(a.split("=", 1)[1] for a in cmd if a.startswith(f"--{name}="))


def test_the_server_listens_on_loopback_and_culls_idle_kernels() -> None:
    cmd = voila_command(ROOT / "notebooks", port=8866, idle=600)
    assert _flag(cmd, "Voila.ip") == "127.0.0.1" and _flag(cmd, "port") == "8866"
    assert _flag(cmd, "template") == "coalg" and _flag(cmd, "Voila.config_file_paths") == str(JUPYTER)
    assert _flag(cmd, "MappingKernelManager.cull_idle_timeout") == "600"
    assert _flag(cmd, "MappingKernelManager.cull_interval") == "60"  # well below the idle time
    assert _flag(cmd, "MappingKernelManager.cull_connected") == "False"  # an open tab keeps its kernel
    assert [cull_interval(s) for s in (1, 5, 30, 600, 3600)] == [1, 1, 3, 60, 60]
    assert voila_env({"PATH": "/bin"})["JUPYTER_PATH"] == str(JUPYTER)
    with pytest.raises(ValueError, match="at least 1 second"):
        voila_command("x", port=1, idle=0)


def test_make_explorers_uses_the_launcher_with_a_two_minute_default() -> None:
    make = (ROOT / "Makefile").read_text()
    assert "EXPLORERS_IDLE ?= 120" in make
    assert "tools/jupyter/serve_explorers.py notebooks --port=$(EXPLORERS_PORT) --idle=$(EXPLORERS_IDLE)" in make


def _config() -> Any:
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("voila.py", path=str(JUPYTER)).load_config()


def test_only_the_extensions_the_explorers_need_are_loaded() -> None:
    c = _config().VoilaConfiguration
    assert c.extension_allowlist == ["@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8"]
    assert c.classic_tree is True


def test_the_page_sets_the_xsrf_cookie_the_shutdown_call_sends_back() -> None:
    # Voila's prelaunch hook cannot be combined with kernels started ahead, so the page handler
    # of the explorers' app sets the cookie; the configuration no longer carries a hook.
    # (explorers_app.py is read as text: importing it here would find tools/jupyter/voila.py, the
    # configuration, in place of the voila package; the server runs it with `python -P`.)
    import ast

    assert "prelaunch_hook" not in _config().VoilaConfiguration
    tree = ast.parse((JUPYTER / "explorers_app.py").read_text(encoding="utf-8"))
    page = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ExplorerPage")
    prepare = next(n for n in page.body if isinstance(n, ast.AsyncFunctionDef) and n.name == "prepare")
    assert any(isinstance(n, ast.Attribute) and n.attr == "xsrf_token" for n in ast.walk(prepare))


def test_the_index_page_describes_every_explorer() -> None:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(JUPYTER / "voila" / "templates" / "coalg")),
                             autoescape=True, extensions=["jinja2.ext.i18n"])
    env.install_null_translations()  # type: ignore[attr-defined]
    contents = {"content": iter([{"name": p.name, "path": p.name, "type": "notebook"} for p in NOTEBOOKS]
                                + [{"name": "other.ipynb", "path": "other.ipynb", "type": "notebook"}])}
    page = env.get_template("tree.html").render(contents=contents, base_url="/", frontend="voila", query="",
                                                 include_css=False, theme="light")
    for path in NOTEBOOKS:
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["coalg"]
        assert f'href="/voila/render/{path.name}?"' in page
        assert f">{meta['title']}</a>" in page and meta["description"] in page.replace("&#39;", "'")
    assert "other.ipynb" in page  # a notebook without a description is still listed
    assert "https://" not in page and "http://" not in page  # nothing fetched from outside
