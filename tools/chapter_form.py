"""Keep the chapters in the form JupyterLab saves them, so a save without edits changes nothing.

    python tools/chapter_form.py            rewrite the chapters that are not in that form
    python tools/chapter_form.py --check    only name them (exit 1 if there are any)
    python tools/chapter_form.py FILE ...   the same for the given files only

A chapter is a MyST Markdown notebook (book/*.md with a jupytext header). JupyterLab opens it
through jupytext and, on save, writes it back the way jupytext writes MyST, filtered by
jupytext.toml. That way differs from hand-written MyST in a few details (a blank line after
a cell's `:tags:` line, YAML wrapped at 80 columns) and JupyterLab sets the kernelspec from
the running kernel. This script performs exactly that save, through jupytext's contents
manager (the one JupyterLab uses) with the kernel's metadata filled in as JupyterLab fills it.
The result reads the same as before for the book and for jupytext; only its bytes change.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = "book"
JUPYTEXT_HEADER = "---\njupytext:"


def chapters(root: Path = ROOT) -> list[Path]:
    """Every MyST notebook in book/ (plain Markdown pages such as STYLE.md are not chapters)."""
    return sorted(p for p in (root / CHAPTERS).glob("*.md")
                  if p.read_text(encoding="utf-8").startswith(JUPYTEXT_HEADER))


def kernel_metadata() -> dict[str, Any]:
    """The notebook metadata JupyterLab sets once the python3 kernel is running."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    return {
        # the order JupyterLab writes: name, display_name, language
        "kernelspec": {"name": "python3", "display_name": spec.display_name, "language": spec.language},
        "language_info": {"name": "python", "pygments_lexer": "ipython3", "mimetype": "text/x-python",
                          "file_extension": ".py", "nbconvert_exporter": "python",
                          "codemirror_mode": {"name": "ipython", "version": 3}},
    }


async def _lab_save(root: Path, relative: str, metadata: dict[str, Any]) -> None:
    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
    from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class

    manager = build_async_jupytext_contents_manager_class(AsyncLargeFileManager)(root_dir=str(root))
    model = await manager.get(relative, type="notebook", content=True)
    model["content"]["metadata"].update(metadata)
    await manager.save({"type": "notebook", "format": "json", "content": model["content"]}, relative)


def lab_form(path: Path, metadata: dict[str, Any] | None = None) -> bytes:
    """The bytes JupyterLab writes when `path` is opened, run and saved without an edit."""
    metadata = kernel_metadata() if metadata is None else metadata
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copyfile(ROOT / "jupytext.toml", root / "jupytext.toml")
        shutil.copyfile(path, root / path.name)
        # In a thread of its own: asyncio.run refuses to start inside a running event loop
        # (a caller such as a test session may have one, e.g. playwright's).
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, _lab_save(root, path.name, metadata)).result()
        return (root / path.name).read_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a chapter would change")
    parser.add_argument("files", nargs="*", type=Path, help="chapters to treat (default: all of book/)")
    args = parser.parse_args(argv)
    files = [f.resolve() for f in args.files] or chapters()
    for f in files:
        if not f.is_file() or not f.read_text(encoding="utf-8").startswith(JUPYTEXT_HEADER):
            print(f"chapter_form: {f} is not a MyST notebook (no jupytext header)", file=sys.stderr)
            return 2
    metadata = kernel_metadata()
    changed = []
    for f in files:
        new = lab_form(f, metadata)
        if new != f.read_bytes():
            changed.append(f)
            if not args.check:
                f.write_bytes(new)
    verb = "not in the form JupyterLab saves" if args.check else "rewritten"
    for f in changed:
        print(f"chapter_form: {verb}: {f.relative_to(ROOT) if ROOT in f.parents else f}")
    print(f"chapter_form: {len(files) - len(changed)} of {len(files)} chapters already in form")
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
