"""Run the book's notebooks in parallel before Sphinx reads them (part of ``coalg_book``).

With ``execute_notebooks: cache`` MyST-NB runs a notebook when Sphinx reads its page,
one page after another, so a 2-core machine runs one kernel at a time.  Before the
read starts (``env-before-read-docs``), this module looks up every page to be read
in the execution cache, runs the ones that miss on ``coalg_execution_workers``
worker processes at once (default: the number of cores), and puts the executed
notebooks in the cache.  MyST-NB then finds every page cached and only renders.

The notebook is read exactly as MyST-NB reads it (its own reader and
configuration), so the cache key is the one MyST-NB looks up.  A notebook that fails
here is not cached: MyST-NB runs it again in the read and reports the error as it
always does.  Chapters also share their law verdicts through
``COALG_VERDICT_CACHE`` (see :mod:`coalg.laws.verdict_cache`), set here to a
folder beside the execution cache, so a verdict several chapters show is
computed once per build; the law tables of the realisations named in
``coalg_verdicts_first`` are computed before any chapter, one shared exploration
per worker, so the longest searches run side by side instead of one chapter
waiting for all of them.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path, PurePosixPath
from typing import Any

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


def _verdicts(realisation: str, clauses: tuple[str, ...]) -> tuple[float, str | None]:
    """In a worker: check ``clauses`` on ``realisation``, sharing the verdicts; the time, the error."""
    start = time.perf_counter()
    try:
        from coalg.laws.clause import check_many
        from coalg.laws.table import get_clause
        from coalg.model import get_realisation

        check_many([get_clause(k) for k in clauses], get_realisation(realisation))
    except Exception as exc:  # the chapters then compute the verdicts themselves
        return time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
    return time.perf_counter() - start, None


def _verdict_jobs(names: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The law tables of ``names``, one job per exploration their clauses share."""
    if not names or not os.environ.get("COALG_VERDICT_CACHE"):
        return []
    try:
        from coalg.laws.clause import exploration_groups
        from coalg.laws.table import CLAUSE_TABLE
        from coalg.model import get_realisation

        return [(name, tuple(c.key for c in group))
                for name in names for group in exploration_groups(CLAUSE_TABLE, get_realisation(name))]
    except Exception as exc:
        logger.info(f"coalg_book: no law tables computed first ({type(exc).__name__}: {exc})")
        return []


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
    # Many chapters show verdicts of these law tables: they are computed first, one
    # exploration per worker, so no chapter waits alone for a long search.
    jobs = _verdict_jobs(list(app.config.coalg_verdicts_first))
    timeout = env.mystnb_config.execution_timeout
    workers = min(workers, len(todo))
    logger.info(f"coalg_book: running {len(todo)} notebooks on {workers} workers")
    start, done = time.perf_counter(), 0
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            tables = {pool.submit(_verdicts, name, clauses): f"law table of {name} ({', '.join(clauses)})"
                      for name, clauses in jobs}
            chapters = {pool.submit(_execute, nbformat.writes(nb), str(Path(path).parent), timeout): path
                        for path, nb in todo}
            for future in as_completed([*tables, *chapters]):
                if future in tables:
                    seconds, error = future.result()
                    logger.info(f"coalg_book: {tables[future]}: "
                                + (f"{seconds:.1f} s" if error is None else f"not computed ({error})"))
                    continue
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


def share_verdicts(app: Sphinx, config: Any) -> None:
    """``config-inited``: every kernel of the build shares law verdicts in a folder under ``_build``."""
    if config.nb_execution_mode == "cache" and config.nb_execution_cache_path:
        os.environ["COALG_VERDICT_CACHE"] = str(Path(config.nb_execution_cache_path) / "verdicts")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("coalg_execution_workers", 0, "")
    app.add_config_value("coalg_verdicts_first", [], "")
    app.connect("config-inited", share_verdicts, priority=600)
    app.connect("env-before-read-docs", execute_in_parallel, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
