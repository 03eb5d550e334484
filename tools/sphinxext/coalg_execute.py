"""Run the book's notebooks in parallel before Sphinx reads them (part of ``coalg_book``).

With ``execute_notebooks: cache`` MyST-NB runs a notebook when Sphinx reads its page,
one page after another, so a 2-core machine runs one kernel at a time.  Before the
read starts (``env-before-read-docs``), this module looks up every page to be read
in the execution cache, runs the ones that miss on ``coalg_execution_workers``
worker processes at once (default: the number of cores), and puts the executed
notebooks in the cache.  The pages named in ``coalg_execution_first`` (the slowest,
slowest first) are handed out before the others, so that the build does not end
with one long chapter running on one core while the other waits.  MyST-NB then finds every page cached and only renders.

The notebook is read exactly as MyST-NB reads it (its own reader and
configuration), so the cache key is the one MyST-NB looks up.  A notebook that fails
here is not cached: MyST-NB runs it again in the read and reports the error as it
always does.

The law tables of the realisations named in ``coalg_verdicts_first`` are
computed before any chapter runs, one shared exploration per worker, and written
to a private folder beside the execution cache; an IPython startup file hands
them to every kernel of the build (:mod:`law_tables`), so a verdict several
chapters show is computed once per build.  Tables already written by the same
code are not computed again.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path, PurePosixPath
from typing import Any

import law_tables  # beside this file: the folder is on sys.path as a local extension
import nbformat
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

logger = logging.getLogger(__name__)


def join_streams(nb: Any) -> None:
    """Join the consecutive pieces of a cell's stdout (or stderr) into one output, exactly.

    The kernel sends what a cell prints in pieces, flushed on a timer, so under load one
    ``print`` can arrive as two outputs and show as two blocks on the page; where it is
    cut changes from run to run.  Joined, the page is the same in every build.  (MyST-NB's
    ``nb_merge_streams`` is no help: it puts a line break at every cut.)
    """
    for cell in nb.cells:
        joined: list[Any] = []
        for out in cell.get("outputs", []):
            last = joined[-1] if joined else None
            if (out.get("output_type") == "stream" and last is not None
                    and last.get("output_type") == "stream" and last.get("name") == out.get("name")):
                last["text"] = last["text"] + out["text"]
            else:
                joined.append(out)
        if "outputs" in cell:
            cell["outputs"] = joined


def _execute(nb_text: str, cwd: str, timeout: int | None) -> tuple[str | None, float, str | None]:
    """In a worker: run one notebook; its executed JSON (or ``None``), the time, the error."""
    from jupyter_cache.executors.utils import single_nb_execution

    nb = nbformat.reads(nb_text, as_version=4)
    result = single_nb_execution(nb, cwd=cwd, timeout=timeout, allow_errors=False, meta_override=True)
    if result.err is not None:
        return None, result.time, f"{type(result.err).__name__}: {result.err}"
    join_streams(nb)
    return nbformat.writes(nb), result.time, None


def _verdicts(realisation: str, clauses: tuple[str, ...]) -> tuple[list[dict[str, Any]] | None, float, str | None]:
    """In a worker: the verdicts of ``clauses`` on ``realisation`` as JSON; the time, the error."""
    start = time.perf_counter()
    try:
        entries = law_tables.compute(realisation, clauses)
    except Exception as exc:  # noqa: BLE001 (the chapters then compute the verdicts themselves)
        return None, time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    return entries, time.perf_counter() - start, None


def _verdict_jobs(names: list[str], folder: Path, digest: str) -> list[tuple[str, tuple[str, ...]]]:
    """The law tables of ``names`` that ``folder`` lacks, one job per exploration their clauses share."""
    try:
        from coalg.laws.clause import exploration_groups
        from coalg.laws.table import CLAUSE_TABLE
        from coalg.model import get_realisation

        jobs = []
        for name in names:
            text = law_tables._read(folder / f"{name}.json")
            if text is not None and law_tables.parse(text, digest) is not None:
                continue
            jobs += [(name, tuple(c.key for c in group))
                     for group in exploration_groups(CLAUSE_TABLE, get_realisation(name))]
        return jobs
    except Exception as exc:  # noqa: BLE001 (any failure: the chapters compute their own)
        logger.info(f"coalg_book: no law tables computed first ({type(exc).__name__}: {exc})")
        return []


def _law_tables(pool: ProcessPoolExecutor, names: list[str], folder: Path | None) -> None:
    """Compute the law tables of ``names`` on ``pool`` and write each one whole into ``folder``."""
    if not names or folder is None:
        return
    digest = law_tables.code_digest()
    jobs = _verdict_jobs(names, folder, digest)
    tables = {pool.submit(_verdicts, name, clauses): (name, clauses) for name, clauses in jobs}
    parts: dict[str, list[dict[str, Any]] | None] = {name: [] for name, _ in jobs}
    for future in as_completed(tables):
        name, clauses = tables[future]
        entries, seconds, error = future.result()
        logger.info(f"coalg_book: law table of {name} ({', '.join(clauses)}): "
                    + (f"{seconds:.1f} s" if error is None else f"not computed ({error})"))
        done = parts[name]
        parts[name] = None if entries is None or done is None else done + entries
    from coalg.laws.table import CLAUSES

    for name, entries in parts.items():
        if entries is None:
            continue
        entries.sort(key=lambda e: CLAUSES.index(e["clause"]))
        if [e["clause"] for e in entries] == list(CLAUSES):
            law_tables.write(folder, name, law_tables.table_json(name, entries, digest))


def _to_run(env: BuildEnvironment, cache: Any, docnames: list[str]) -> list[tuple[str, Any]]:
    """The pages among ``docnames`` that MyST-NB would execute and whose outputs ``cache`` lacks."""
    from myst_nb.core.read import create_nb_reader

    nb_config = env.mystnb_config
    todo = []
    for docname in sorted(docnames):
        path = str(env.doc2path(docname))
        if not path.endswith((".md", ".ipynb")):
            continue
        text = Path(path).read_text(encoding="utf-8")
        reader = create_nb_reader(path, env.myst_config, nb_config, text)
        if reader is None:
            continue
        nb = reader.read(text)
        mode = nb.metadata.get(nb_config.metadata_key, {}).get("execution_mode", nb_config.execution_mode)
        posix = PurePosixPath(Path(path).as_posix())
        if mode != "cache" or any(posix.match(p) for p in nb_config.execution_excludepatterns):
            continue
        try:
            cache.match_cache_notebook(nb)
        except KeyError:
            todo.append((path, nb))
    return todo


def execute_in_parallel(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: fill the execution cache for ``docnames``, several notebooks at once."""
    workers = app.config.coalg_execution_workers or os.cpu_count() or 1
    if env.mystnb_config.execution_mode != "cache" or workers < 2:
        return
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(env.mystnb_config.execution_cache_path)
    todo = _to_run(env, cache, docnames)
    if len(todo) < 2:
        return
    first = [str(env.doc2path(d)) for d in app.config.coalg_execution_first]
    todo.sort(key=lambda item: first.index(item[0]) if item[0] in first else len(first))
    timeout = env.mystnb_config.execution_timeout
    workers = min(workers, len(todo))
    logger.info(f"coalg_book: running {len(todo)} notebooks on {workers} workers")
    start, done = time.perf_counter(), 0
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            # Many chapters show verdicts of these law tables: they are computed first, one
            # exploration per worker, and every chapter's kernel starts with them.
            _law_tables(pool, list(app.config.coalg_verdicts_first), _table_folder(env.app.config))
            chapters = {pool.submit(_execute, nbformat.writes(nb), str(Path(path).parent), timeout): path
                        for path, nb in todo}
            for future in as_completed(chapters):
                path = chapters[future]
                executed, seconds, error = future.result()
                done += 1
                if executed is None:
                    logger.info(f"{path}: failed in the parallel run ({error}); it runs again when read")
                    continue
                cache.cache_notebook_bundle(
                    CacheBundleIn(nbformat.reads(executed, as_version=4), path,
                                  data={"execution_seconds": seconds}),
                    check_validity=False, overwrite=True)
                logger.info(f"{path}: Executed notebook in {seconds:.2f} seconds [{done}/{len(todo)}]")
    except BrokenProcessPool as exc:
        logger.info(f"coalg_book: the parallel run stopped ({exc}); the rest run one by one")
    logger.info(f"coalg_book: {len(todo)} notebooks ran in {time.perf_counter() - start:.1f} s")


def _table_folder(config: Any) -> Path | None:
    """The private folder of the build's law tables, beside the execution cache (``None``: none)."""
    if config.nb_execution_mode != "cache" or not config.nb_execution_cache_path:
        return None
    return law_tables.private_folder(Path(config.nb_execution_cache_path) / "law-tables")


def share_verdicts(app: Sphinx, config: Any) -> None:
    """``config-inited``: every kernel of the build starts by loading the build's law tables.

    The startup file goes to the private ``IPYTHONDIR`` that ``coalg_book`` gives
    the build's kernels (after it, by priority); without one, nothing is shared.
    """
    ipython_dir = os.environ.get("IPYTHONDIR")
    folder = _table_folder(config)
    if not ipython_dir or folder is None:
        return
    startup = Path(ipython_dir) / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "50-coalg-law-tables.py").write_text(law_tables.startup_file(folder), encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("coalg_execution_workers", 0, "")
    app.add_config_value("coalg_verdicts_first", [], "")
    app.add_config_value("coalg_execution_first", [], "")
    app.connect("config-inited", share_verdicts, priority=600)
    app.connect("env-before-read-docs", execute_in_parallel, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
