#!/usr/bin/env python3
"""Generate data/sample-contextfs.db with the REAL contextfs 0.2.35, reproducibly.

Usage:  .venv/bin/python tools/make_sample_db.py [OUT.db] [--check]

The store is written by the package's own code (StorageRouter, MemoryLineage,
and the facade's soft delete), offline, through coalg.contextfs.LiveStore: a
small team memory in three namespaces in which every finding of
`coalg audit` occurs once or twice:

* L7  a dangling prefix-evolve edge (evolve by the 8-character handle the CLI
      prints), a supersede of an id that does not exist, the edges of a
      soft-deleted record;
* L2  metadata ancestry that edges do not state: inherited through evolve and
      split, and an edge write refused by a SQLite trigger during a merge
      (the trigger is dropped afterwards; ContextFS is not modified);
* L3  the one-way edge that refused write leaves;
* L4ii  a merge across two namespaces;
* 5.2 a hard-deleted and a soft-deleted parent with surviving children;
* 6.3 two records in two namespaces sharing one 8-character handle.

Reproducibility.  The package decides three things we cannot pass in:
(1) evolve, merge and split allocate ``str(uuid4())[:12]`` identifiers; (2) it
stamps ``datetime.now()`` (naive, local) on records and edges and UTC ISO
strings in lineage metadata; (3) ``list(set(tags))`` and the merge-type
tie-break follow string hashing.  So: (3) the script re-runs itself under
``PYTHONHASHSEED=0``; (1) after the package has written the store, each
allocated identifier is renamed, with plain SQL UPDATEs on ``memories.id``,
``memory_edges`` and the ids inside metadata, to a fixed identifier of the same
shape (sha256 of the creation ordinal and content); (2) every clock reading is
replaced by a fixed one chosen by position (creation order), keeping its format
(naive or UTC); see ``_pin``.  Nothing else is touched: contents, types, tags,
namespaces, metadata keys and which edges exist are exactly what the package wrote.  Saves are given fixed ids and ``created_at`` directly.  The file is
then VACUUMed.  Two runs produce byte-identical files (``--check`` verifies the
committed file against a fresh run).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "data" / "sample-contextfs.db"
BASE = datetime(2026, 1, 12, 9, 0, 0)
"""The first pinned clock reading; later readings follow at one-minute steps, in their original order."""


def _reexec_with_fixed_hashseed() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        sys.exit(subprocess.run([sys.executable, *sys.argv], env=env, check=False).returncode)


def build(out: Path) -> dict[str, str]:
    """Write the sample store with the real package into ``out``; return {allocated id: fixed id}."""
    sys.path.insert(0, str(ROOT))
    from coalg.contextfs import LiveStore

    live = LiveStore.open("sample.db")
    created: list[tuple[str, str]] = []  # (allocated id, content), in creation order

    def keep(mem):
        created.append((mem.id, mem.content))
        return mem

    t = iter(BASE + timedelta(minutes=k) for k in range(1000))

    # --- team-backend: a decision that evolves twice, then is hard-deleted in the middle (5.2, L2)
    be = "team-backend"
    d1 = live.save("Use SQLite for the local cache.", type="decision", namespace=be, id="5a1e0c41-b01",
                   tags=["storage"], created_at=next(t))
    d2 = keep(live.evolve(d1.id, "Use SQLite for the local cache; WAL off, one writer."))
    keep(live.evolve(d2.id, "Use SQLite for the local cache; one writer; nightly VACUUM."))
    live.delete(d2.id)  # StorageRouter.delete: hard, incident edges removed

    # --- team-backend: an API fact evolved by the 8-character handle the CLI prints (L7 W2)
    live.save("The auth API issues JWTs with a 1 h expiry.", type="fact", namespace=be, id="c0ffee12-a01",
                    tags=["auth"], created_at=next(t))
    api2 = keep(live.evolve("c0ffee12", "The auth API issues JWTs with a 15 min expiry and refresh tokens."))
    # ... and split by its full id: each part inherits evolved_from from its parent (L2)
    parts = live.split(api2.id, ["JWTs expire after 15 min.", "Refresh tokens rotate on use."])
    for p in parts:
        keep(p)

    # --- team-frontend and team-backend share an 8-character handle (6.3)
    fe = "team-frontend"
    live.save("Design tokens live in tokens.json.", type="fact", namespace=fe, id="8874780e-24d",
              tags=["ui"], created_at=next(t))
    live.save("Rate limit: 100 requests per minute per key.", type="fact", namespace=be, id="8874780e-7be",
              tags=["api"], created_at=next(t))

    # --- a merge across namespaces: filed in team-backend with team-frontend's payload (L4ii)
    ui = live.save("The login page calls /v2/session with the user's email.", type="procedural", namespace=fe,
                   id="f1e2d3c4-b05", tags=["login", "frontend-only"], metadata={"owner": "dana"},
                   created_at=next(t))
    srv = live.save("POST /v2/session returns a JWT.", type="fact", namespace=be, id="0b5e55ed-006",
                    tags=["login"], metadata={"owner": "sam"}, created_at=next(t))
    merged = keep(live.merge([srv.id, ui.id], type="fact"))
    # evolving the merged record inherits merged_from into metadata only (L2, fault-free)
    keep(live.evolve(merged.id, "Login: POST /v2/session with email; returns a 15 min JWT."))

    # --- an edge write refused by a trigger during a merge: metadata names both, edges one (L2, L3)
    n1 = live.save("Deploys run from the main branch.", type="procedural", namespace=be, id="d3b10e00-007",
                   created_at=next(t))
    n2 = live.save("Deploys need a green CI run.", type="procedural", namespace=be, id="d3b10e00-108",
                   created_at=next(t))
    live.inject_edge_fault(f"NEW.relation = 'merged_into' AND NEW.from_id = '{n2.id}'", name="sample_fault")
    keep(live.merge([n1.id, n2.id], merged_content="Deploy from main after a green CI run.", type="procedural"))
    conn = sqlite3.connect(live.path)
    conn.execute("DROP TRIGGER sample_fault")
    conn.commit()
    conn.close()

    # --- supersede of an id that never existed (L7, strong form W1)
    live.supersede("0ld5tuff-999", n1.id)

    # --- personal: a note evolved, then soft-deleted by the facade's default delete (L7 via kept edges, 5.2)
    pe = "personal"
    p1 = live.save("Standup moved to 9:30.", type="episodic", namespace=pe, id="9e4a1b2c-010", created_at=next(t))
    p2 = keep(live.evolve(p1.id, "Standup moved to 9:45 on Mondays."))
    keep(live.evolve(p2.id, "Standup at 9:45 on Mondays, 9:30 otherwise."))
    live.soft_delete(p2.id)

    # --- rename the allocated identifiers to fixed ones
    rename: dict[str, str] = {}
    for k, (real, content) in enumerate(created, start=1):
        h = hashlib.sha256(f"{k}:{content}".encode()).hexdigest()
        rename[real] = f"{h[:8]}-{h[8:11]}"
    _pin(live.path, rename)
    shutil.copyfile(live.path, out)
    return rename


_ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d)?")


def _pin(path: Path, rename: dict[str, str]) -> None:
    """Rename allocated ids and pin every clock reading by position; then VACUUM.

    Records, in rowid (= creation) order, get ``created_at = updated_at`` one
    minute apart from :data:`BASE`; a lineage timestamp in metadata gets the
    (UTC) time of the first record that carries it, i.e. the record whose
    derivation stamped it (later records inherit it); the k-th soft-deleted
    record is deleted at BASE + 12 h + k min, and so are its soft-deleted edges;
    edges get BASE + 6 h + rowid min, and ``superseded_at`` their own time.
    Naive readings stay naive and UTC ones stay UTC.
    """
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT rowid, id, updated_at, deleted_at, metadata FROM memories ORDER BY rowid").fetchall()
        meta_time: dict[str, str] = {}
        deleted_time: dict[str, str] = {}
        for k, (r, i, u, d, meta) in enumerate(rows):
            t = BASE + timedelta(minutes=k)
            for x in _ISO.findall(meta or ""):
                meta_time.setdefault(x, t.replace(tzinfo=UTC).isoformat())
            new_d = None
            if d is not None:
                new_d = (BASE + timedelta(hours=12, minutes=len(deleted_time))).replace(tzinfo=UTC)
                deleted_time[i] = new_d.isoformat()
            new_u = deleted_time[i] if d is not None and u and datetime.fromisoformat(u).tzinfo else t.isoformat()
            meta2 = _ISO.sub(lambda m: meta_time[m.group(0)], meta) if meta else meta
            for real, ours in rename.items():
                meta2 = meta2.replace(real, ours) if meta2 else meta2
            conn.execute("UPDATE memories SET id = ?, created_at = ?, updated_at = ?, deleted_at = ?, metadata = ? "
                         "WHERE rowid = ?", (rename.get(i, i), t.isoformat(), new_u, deleted_time.get(i), meta2, r))
        for r, f, to, d, meta in conn.execute(
                "SELECT rowid, from_id, to_id, deleted_at, metadata FROM memory_edges ORDER BY rowid").fetchall():
            t = BASE + timedelta(hours=6, minutes=r)
            new_d = None if d is None else deleted_time.get(f, deleted_time.get(to))
            stamp = t.replace(tzinfo=UTC).isoformat()
            meta2 = _ISO.sub(lambda m, x=stamp: x, meta) if meta else meta
            conn.execute("UPDATE memory_edges SET from_id = ?, to_id = ?, created_at = ?, deleted_at = ?, "
                         "metadata = ? WHERE rowid = ?",
                         (rename.get(f, f), rename.get(to, to), t.isoformat(), new_d, meta2, r))
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()


def main(argv: list[str]) -> int:
    _reexec_with_fixed_hashseed()
    args = [a for a in argv if not a.startswith("--")]
    check = "--check" in argv
    out = Path(args[0]) if args else DEFAULT_OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "sample.db"
        build(fresh)
        data = fresh.read_bytes()
        if check:
            same = out.is_file() and out.read_bytes() == data
            print(f"{out}: {'identical to a fresh run' if same else 'DIFFERS from a fresh run'} "
                  f"(sha256 {hashlib.sha256(data).hexdigest()[:16]})")
            return 0 if same else 1
        tmp_out = out.with_suffix(".tmp")
        tmp_out.write_bytes(data)
        os.replace(tmp_out, out)
    sys.path.insert(0, str(ROOT))
    from coalg.contextfs import audit

    report = audit(out)
    print(f"wrote {out} ({out.stat().st_size} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]}): "
          f"{report['records']} records, {report['edges']} edges; findings {json.dumps(report['counts'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
