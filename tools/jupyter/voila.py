"""Voila's configuration for the explorers (`make explorers`, read through ``--Voila.config_file_paths``).

* **The shutdown call works.**  When a tab closes, Voila 0.5.13's page posts
  ``/voila/api/shutdown/<kernel>`` with the ``_xsrf`` cookie's value, but the
  page handler never sets that cookie, so the call is refused
  (``403 … '_xsrf' argument missing``) and the kernel lives on.  The page
  handler of ``explorers_app.py`` asks tornado for the token while the page is
  served, which sets the cookie; the shutdown then carries it and passes the
  XSRF check.  (Kernel culling remains the backstop for a tab that never says
  goodbye.)  Voila's own ``prelaunch_hook`` could do this too, but it cannot be
  combined with kernels started ahead (``--pool``).
* **A quiet console.**  Only the two extensions the explorers need are loaded:
  the ipywidgets 8 manager and the controls it registers.  The others installed
  in the environment (jupytext, the lab preview, the ipywidgets 7 manager,
  pygments) are not, so their version warnings and the jupytext error are gone.
* **An index that says what each explorer is** (``tree.html`` of the ``coalg``
  template, the classic jinja tree).
"""

c = get_config()  # type: ignore[name-defined]  # noqa: F821 — provided by traitlets when it reads this file

c.VoilaConfiguration.extension_allowlist = [
    "@jupyter-widgets/jupyterlab-manager",
    "@voila-dashboards/widgets-manager8",
]
c.VoilaConfiguration.classic_tree = True
