"""The explorers' server: Voila, plus what a class needs (run by ``serve_explorers.py``).

What it adds to Voila 0.5.13's standalone app, and why:

* **A cap.**  Each student's page holds a kernel (about 100 MB).  Past ``max_sessions`` kernels a
  student gets a page that says the class server is busy and reloads itself a minute later,
  instead of a page that waits for a kernel the machine cannot start in time.
* **No empty explorer.**  Voila's notebook runner waits only ``iopub_timeout`` (4 s by default)
  for a cell's output after the cell has finished; while thirty kernels start on two cores that is
  too short and the explorer silently vanishes from the page.  The launcher raises the wait (see
  ``serve_explorers.voila_command``), and the page template shows "busy, reload" if a live
  explorer still fails to appear.
* **The tab-close shutdown works.**  The page handler touches ``xsrf_token`` before rendering,
  which sets the ``_xsrf`` cookie that Voila's shutdown call sends back (Voila never sets it).
  (Voila's ``prelaunch_hook`` did this before; it cannot be combined with pre-started kernels.)
* **A status page for the teacher** at ``/coalg/status``: the open sessions per explorer, their
  age and memory, the server's total, and a button that ends every session after class.  It asks
  for the *teacher key*, a secret printed only on the teacher's console, distinct from the token
  the students type.
* **TLS** when a certificate and key are given (``certfile``/``keyfile``).
* **A quiet log.**  The culler may look at a kernel that a closing tab has just shut down;
  jupyter_server then logs a ``KeyError`` traceback.  Such a kernel is gone, which is what the
  culler wanted: it is skipped without a traceback.  Error pages (a refused websocket, an unknown
  address) render instead of logging a traceback of their own template.
"""

from __future__ import annotations

import html
import secrets
import shutil
import ssl
import time
from typing import Any

import psutil
import tornado.web
from jupyter_server import DEFAULT_STATIC_FILES_PATH
from jupyter_server.base.handlers import JupyterHandler
from traitlets import Integer, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

__all__ = ["BUSY_PAGE", "ExplorersApp", "session_rows"]

BUSY_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="60">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The class server is busy</title>
<style>body{font:20px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}</style>
</head><body>
<h1>The class server is busy</h1>
<p>Every place on this server is taken right now. Reload this page in a minute (it reloads
itself after 60 seconds); a place frees up as soon as a classmate closes a tab.</p>
</body></html>
"""


def _app(handler: tornado.web.RequestHandler) -> ExplorersApp:
    app = handler.settings["voila"]
    assert isinstance(app, ExplorersApp)
    return app


class ExplorerPage(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's page handler, with the cap and the ``_xsrf`` cookie."""

    async def prepare(self) -> None:
        await super().prepare()
        if self._finished:
            return
        self.xsrf_token  # noqa: B018 — the property sets the _xsrf cookie the shutdown call needs
        app = _app(self)
        if app.max_sessions and len(app.student_kernels()) >= app.max_sessions:
            self.log.warning("explorers: %d sessions open, the cap; sending the busy page",
                             app.max_sessions)
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Cache-Control", "no-store")
            self.finish(BUSY_PAGE)


def session_rows(app: ExplorersApp) -> list[dict[str, Any]]:
    """One row per kernel: explorer, whether it is a student's or a pre-started one, age, memory."""
    rows = []
    now = time.time()
    for kid in sorted(app.kernel_manager.list_kernel_ids()):
        km = app.kernel_manager.get_kernel(kid)
        pid = getattr(getattr(km, "provisioner", None), "pid", None)
        notebook, age, mib, pooled = "?", 0.0, 0.0, False
        if pid is not None:
            try:
                proc = psutil.Process(pid)
                env = proc.environ()
                from_pool = getattr(app.kernel_manager, "_get_notebook_from_kernel", lambda _k: None)(kid)
                notebook = (from_pool or env.get("SCRIPT_NAME", "")).rsplit("/", 1)[-1] or "?"
                pooled = env.get("VOILA_PREHEAT") == "True" and kid not in app.taken
                age = now - proc.create_time()
                mib = proc.memory_full_info().uss / 2**20
            except psutil.Error:
                pass
        rows.append({"kernel": kid, "explorer": notebook, "pooled": pooled,
                     "age_s": round(age), "memory_mib": round(mib, 1)})
    return rows


class StatusPage(JupyterHandler):  # type: ignore[misc]
    """``/coalg/status?key=…``: the room at a glance, and "end every session"."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """One plain line (Jupyter Server's error template is not there under Voila)."""
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {self._reason}\n")

    def check_xsrf_cookie(self) -> None:  # the teacher key in the form is the check
        return None

    def _key_ok(self) -> bool:
        given = self.get_argument("key", "")
        return bool(given) and secrets.compare_digest(given, _app(self).teacher_key)

    async def get(self) -> None:
        if not self._key_ok():
            raise tornado.web.HTTPError(403, reason="the status page needs the teacher key")
        app = _app(self)
        rows = session_rows(app)
        students = [r for r in rows if not r["pooled"]]
        body = ["<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.0f} s</td><td>{:.0f} MiB</td></tr>".format(
            html.escape(r["explorer"]), "waiting (pre-started)" if r["pooled"] else "student",
            html.escape(r["kernel"][:8]), r["age_s"], r["memory_mib"]) for r in rows]
        per: dict[str, int] = {}
        for r in students:
            per[r["explorer"]] = per.get(r["explorer"], 0) + 1
        total = sum(r["memory_mib"] for r in rows)
        try:
            server = psutil.Process().memory_full_info().uss / 2**20
        except psutil.Error:
            server = 0.0
        cap = app.max_sessions or "none"
        key = html.escape(self.get_argument("key"))
        self.set_header("Cache-Control", "no-store")
        self.finish(f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="10"><title>Explorers: the room</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;margin:2em}}td,th{{padding:.2em .8em;text-align:left}}</style>
</head><body><h1>Explorers: the room</h1>
<p>{len(students)} student sessions (cap: {cap}); {len(rows) - len(students)} pre-started kernels waiting.
Memory: kernels {total:.0f} MiB, server {server:.0f} MiB, in all {total + server:.0f} MiB.</p>
<p>Per explorer: {html.escape(", ".join(f"{k}: {v}" for k, v in sorted(per.items())) or "none open")}</p>
<table><tr><th>explorer</th><th>kind</th><th>kernel</th><th>age</th><th>memory</th></tr>
{"".join(body)}</table>
<form method="post" action="status/end-all"><input type="hidden" name="key" value="{key}">
<button type="submit">End every student session</button></form>
<p>This page refreshes every 10 seconds.</p></body></html>""")


class EndAll(StatusPage):
    """``POST /coalg/status/end-all``: shut down every student kernel (the pre-started ones stay)."""

    async def get(self) -> None:
        raise tornado.web.HTTPError(405)

    async def post(self) -> None:
        if not self._key_ok():
            raise tornado.web.HTTPError(403, reason="ending sessions needs the teacher key")
        app = _app(self)
        ended = 0
        for kid in app.student_kernels():
            try:
                await app.kernel_manager.shutdown_kernel(kid)
                ended += 1
            except KeyError:  # shut down meanwhile
                pass
        self.log.info("explorers: the teacher ended %d sessions", ended)
        self.redirect(f"../status?key={self.get_argument('key')}")


class ExplorersApp(Voila):  # type: ignore[misc]
    """Voila for a class: a cap, a status page, TLS, a quiet culler (see the module docstring)."""

    name = "voila"
    max_sessions = Integer(0, config=True, help="Most student kernels at once (0: no cap)")
    teacher_key = Unicode("", config=True, help="Secret for /coalg/status (generated if empty)")
    certfile = Unicode("", config=True, help="TLS certificate (PEM); with keyfile, serve https")
    keyfile = Unicode("", config=True, help="TLS private key (PEM)")
    private_ipython_dir = Unicode("", config=True, help="The kernels' IPYTHONDIR, removed at exit")
    ready = Unicode("", config=True, help="Kernels kept ready per notebook: explore-x.ipynb=N,…")

    def initialize(self, argv: Any = None) -> None:
        super().initialize(argv)
        if not self.teacher_key:
            self.teacher_key = secrets.token_urlsafe(24)
        self.taken: set[str] = set()
        if self.ready:  # read by Voila's kernel manager when start() makes it
            pools = {"default": {"pool_size": self.voila_configuration.default_pool_size}}
            for part in self.ready.split(","):
                name, _, count = part.partition("=")
                pools[name] = {"pool_size": int(count)}
            self.config.VoilaKernelManager.kernel_pools_config = pools

    def student_kernels(self) -> list[str]:
        """The kernels that serve a student's page (not those waiting in the pre-started pool)."""
        return [r["kernel"] for r in session_rows(self) if not r["pooled"]]

    def init_handlers(self) -> list[Any]:
        handlers = []
        for h in super().init_handlers():
            if len(h) > 1 and h[1] is TornadoVoilaHandler:
                h = (h[0], ExplorerPage, *h[2:])
            handlers.append(h)
        base = self.server_url.rstrip("/")
        return [(f"{base}/coalg/status", StatusPage), (f"{base}/coalg/status/end-all", EndAll), *handlers]

    def init_settings(self) -> dict[str, Any]:
        settings = super().init_settings()
        _quiet_culler(self.kernel_manager, self)
        # Jupyter Server's error page (a refused websocket, a 404) links its stylesheets with
        # static_url; Voila sets no static path, so every error page became a traceback in the log.
        settings["static_path"] = DEFAULT_STATIC_FILES_PATH  # also among Voila's static paths
        settings["static_url_prefix"] = f"{self.base_url.rstrip('/')}/voila/static/"
        return settings

    def listen(self) -> None:
        if self.certfile or self.keyfile:
            ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ctx.load_cert_chain(self.certfile, self.keyfile)
            self.tornado_settings = {**self.tornado_settings}
            listen = self.app.listen

            def listen_tls(port: int, address: str = "", **kw: Any) -> Any:
                return listen(port, address, ssl_options=ctx, **kw)

            self.app.listen = listen_tls
        super().listen()

    def stop(self) -> None:
        try:
            super().stop()
        finally:
            if self.private_ipython_dir:
                shutil.rmtree(self.private_ipython_dir, ignore_errors=True)

    @property
    def display_url(self) -> str:
        url = super().display_url
        return url.replace("http://", "https://", 1) if self.certfile else url


def _quiet_culler(km: Any, app: ExplorersApp) -> None:
    """Make the culler skip a kernel that is already gone, and remember which kernels a page took."""
    cull = km.cull_kernel_if_idle

    async def cull_kernel_if_idle(kernel_id: str) -> Any:
        if kernel_id not in km:
            return None
        try:
            return await cull(kernel_id)
        except KeyError:  # shut down between the check and the cull
            return None

    km.cull_kernel_if_idle = cull_kernel_if_idle
    if hasattr(km, "get_rendered_notebook"):
        get_rendered = km.get_rendered_notebook

        async def get_rendered_notebook(*args: Any, **kwargs: Any) -> Any:
            task, cache, kid = await get_rendered(*args, **kwargs)
            app.taken.add(kid)
            return task, cache, kid

        km.get_rendered_notebook = get_rendered_notebook


if __name__ == "__main__":
    ExplorersApp.launch_instance()
