"""JupyterLab configuration for `make lab` (and tests/test_lab.py), passed with --config.

* Serves the project root on 127.0.0.1 and opens on scratch/START.ipynb, the landing notebook
  that tools/lab_prepare.py writes (chapters in book order, explorers, your copies).
* Project defaults live in tools/lab/settings (the *application* settings directory):
  overrides.json makes chapters open as notebooks and turns off news and update checks;
  your own JupyterLab settings (~/.jupyter/lab/user-settings) still win over them.
* tools/lab/labextensions/coalg-chapters adds the "coalg-chapter" file type that
  overrides.json refers to (chapters only; README.md and book/STYLE.md stay Markdown).
* Nothing is fetched from outside 127.0.0.1: no news feed, no update check, and the
  extension manager only lists what is installed (it never searches PyPI).
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tools" / "lab"

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

c.ServerApp.ip = "127.0.0.1"
c.ServerApp.open_browser = False
c.ServerApp.root_dir = str(ROOT)
c.LabApp.default_url = "/lab/tree/scratch/START.ipynb"

c.LabApp.app_settings_dir = str(HERE / "settings")
c.LabApp.extra_labextensions_path = [str(HERE / "labextensions")]
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"
c.LabApp.extension_manager = "readonly"
