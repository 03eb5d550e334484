"""The sandbox ContextFS runs in: its folders, its environment, where it lives, and what is said
when the package cannot be driven. Expected values are written out by hand."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import coalg.contextfs.offline as off


def test_the_sandbox_environment() -> None:
    root = Path("/some/where")
    assert off.Sandbox(root).variables() == {
        "HOME": "/some/where/home",
        "CONTEXTFS_DATA_DIR": "/some/where/data",
        "XDG_CACHE_HOME": "/some/where/cache",
        "HF_HOME": "/some/where/hf",
        "FASTEMBED_CACHE_PATH": "/some/where/fastembed",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "CONTEXTFS_BACKEND": "sqlite",
        "CONTEXTFS_FALKORDB_ENABLED": "false",
        "CONTEXTFS_AUTO_LINK_ENABLED": "false",
        "CONTEXTFS_AUTO_LOAD_ON_STARTUP": "false",
        "CONTEXTFS_AUTO_INDEX": "false",
    }


def test_a_sandbox_is_a_private_folder_with_its_subfolders(tmp_path: Path) -> None:
    box = off.Sandbox.create(str(tmp_path))
    assert box.root.parent == tmp_path and box.root.name.startswith("coalg-contextfs-")
    assert sorted(p.name for p in box.root.iterdir()) == ["cache", "data", "fastembed", "hf", "home", "stores"]
    assert (box.root.stat().st_mode & 0o077) == 0  # mkdtemp: this user's only
    box.remove()
    assert not box.root.exists()


def test_the_environment_is_set_for_the_block_and_then_restored(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    box = off.Sandbox(tmp_path)
    monkeypatch.setenv("HOME", "/home/before")
    monkeypatch.delenv("CONTEXTFS_BACKEND", raising=False)
    with box.env():
        assert os.environ["HOME"] == str(tmp_path / "home") and os.environ["CONTEXTFS_BACKEND"] == "sqlite"
    assert os.environ["HOME"] == "/home/before" and "CONTEXTFS_BACKEND" not in os.environ
    with pytest.raises(ZeroDivisionError), box.env():
        1 / 0  # noqa: B018 - restored when the block raises, too
    assert os.environ["HOME"] == "/home/before" and "CONTEXTFS_BACKEND" not in os.environ


def test_a_new_path_is_free_of_an_old_database_and_its_companions(tmp_path: Path) -> None:
    box = off.Sandbox(tmp_path)
    (tmp_path / "stores").mkdir()
    for suffix in ("", "-journal", "-wal", "-shm"):
        (tmp_path / "stores" / f"x.db{suffix}").write_text("old")
    (tmp_path / "stores" / "y.db").write_text("another")
    assert box.new_path("x.db") == tmp_path / "stores" / "x.db"
    assert sorted(p.name for p in (tmp_path / "stores").iterdir()) == ["y.db"]
    assert box.new_path("never.db") == tmp_path / "stores" / "never.db"  # nothing to remove: no error


def test_where_sandboxes_live(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COALG_CONTEXTFS_TMP", str(tmp_path))
    assert off._default_base() == str(tmp_path)
    monkeypatch.delenv("COALG_CONTEXTFS_TMP")
    shm = Path("/dev/shm")
    expected = "/dev/shm" if shm.is_dir() and os.access(shm, os.W_OK) else None
    if expected is not None:
        assert off._default_base() == expected
    monkeypatch.setattr(off.os, "access", lambda *a: False)  # no writable /dev/shm: the temporary folder
    import tempfile

    assert off._default_base() == tempfile.gettempdir()


def test_why_the_package_cannot_be_driven(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(off.importlib.util, "find_spec", lambda name: None)
    assert off.unavailable_reason() == ("the released contextfs package is not installed (`make setup` installs "
                                        "contextfs==0.2.35 minimally from requirements-contextfs.txt)")
    with pytest.raises(off.ContextFSUnavailable, match="not installed"):
        off.require()
    monkeypatch.setattr(off.importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(off, "version", lambda name: "0.3.0")
    assert off.unavailable_reason() == "contextfs 0.3.0 is installed; this adapter drives 0.2.35 (commit a93035d)"

    def broken(name: str) -> str:
        from importlib.metadata import PackageNotFoundError

        raise PackageNotFoundError(name)

    monkeypatch.setattr(off, "version", broken)
    assert off.unavailable_reason() == "contextfs is importable but has no package metadata"
    monkeypatch.setattr(off, "version", lambda name: "0.2.35")
    assert off.unavailable_reason() is None


def test_a_child_interpreter_under_a_hash_seed() -> None:
    code = "import os, sys; print(os.environ['PYTHONHASHSEED'], os.environ.get('EXTRA'), *sys.argv[1:])"
    assert off.run_with_hashseed(code, "a", "b", hashseed=7, what="the echo", env={"EXTRA": "x"}) == "7 x a b\n"
    with pytest.raises(RuntimeError) as e:
        off.run_with_hashseed("import sys; sys.stderr.write('first\\nlast words\\n'); sys.exit(3)",
                              hashseed=0, what="the child")
    assert str(e.value) == "the child failed: ['last words']"


@pytest.mark.skipif(not off.AVAILABLE, reason=f"needs contextfs 0.2.35: {off.unavailable_reason()}")
def test_the_package_s_modules_are_named_as_the_adapter_uses_them() -> None:
    m = off.modules()
    assert off.modules() is m  # imported once
    pkg = sys.modules
    assert m.package is pkg["contextfs"] and m.config is pkg["contextfs.config"] and m.core is pkg["contextfs.core"]
    assert m.lineage is pkg["contextfs.memory_lineage"] and m.runner is pkg["contextfs.migrations.runner"]
    assert m.schemas is pkg["contextfs.schemas"] and m.protocol is pkg["contextfs.storage_protocol"]
    assert m.router is pkg["contextfs.storage_router"]
    assert (m.Memory, m.MemoryType) == (m.schemas.Memory, m.schemas.MemoryType)
    assert m.EdgeRelation is m.protocol.EdgeRelation and m.StorageRouter is m.router.StorageRouter
    assert (m.MemoryLineage, m.MergeStrategy) == (m.lineage.MemoryLineage, m.lineage.MergeStrategy)
    assert m.ContextFS is m.core.ContextFS
