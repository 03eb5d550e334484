"""The findings of the audit (coalg.contextfs.auditing) on small databases, each text written out in full.

Each database is built with plain sqlite3 (the helper of ``test_audit``); the
expected findings are those the laws give on it, worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from test_audit import _db as cfs_db

from coalg.contextfs import audit, format_report

NO_RECORD = "no such record (hard-deleted, or never existed)"


def _findings(path: Path, law: str | None = None) -> list[tuple[str, list[str], str]]:
    return [(f["law"], f["records"], f["detail"]) for f in audit(path)["findings"] if law in (None, f["law"])]


def test_edge_record_disagreements_say_what_each_side_holds(tmp_path: Path) -> None:
    """L2: metadata without edges, edges without metadata, and both naming different parents."""
    path = cfs_db(tmp_path, [
        ("aaaa0000-001", "n", {}),
        ("bbbb0000-002", "n", {}),
        ("cccc0000-003", "n", {"evolved_from": "aaaa0000-001"}),
        ("dddd0000-004", "n", {}),
        ("eeee0000-005", "n", {"split_from": "aaaa0000-001"}),
    ], [
        ("dddd0000-004", "merged_from", "bbbb0000-002"), ("bbbb0000-002", "merged_into", "dddd0000-004"),
        ("dddd0000-004", "merged_from", "aaaa0000-001"), ("aaaa0000-001", "merged_into", "dddd0000-004"),
        ("eeee0000-005", "split_from", "bbbb0000-002"), ("bbbb0000-002", "split_into", "eeee0000-005"),
    ])
    assert _findings(path) == [
        ("L2", ["cccc0000-003", "aaaa0000-001"],
         "cccc0000-003: metadata evolved_from = [aaaa0000-001], but it has no evolved_from edge"),
        ("L2", ["dddd0000-004", "aaaa0000-001", "bbbb0000-002"],
         "dddd0000-004: no merged_from metadata, but its merged_from edges go to [aaaa0000-001, bbbb0000-002]"),
        ("L2", ["eeee0000-005", "aaaa0000-001", "bbbb0000-002"],
         "eeee0000-005: metadata split_from = [aaaa0000-001], but its split_from edges go to [bbbb0000-002]"),
    ]


def test_merges_across_namespaces_and_cut_ancestry(tmp_path: Path) -> None:
    """L4ii lists every foreign source with its namespace; 5.2 says why each named parent is missing."""
    path = cfs_db(tmp_path, [
        ("a1000000-001", "team-a", {}),
        ("b2000000-002", "team-b", {}),
        ("c3000000-003", "team-c", {}),
        ("d4000000-004", "team-a", {"merged_from": ["a1000000-001", "b2000000-002", "c3000000-003"]}),
        ("e5000000-005", "team-a", {}, True),
        ("f6000000-006", "team-a", {"merged_from": ["a1000000-001", "e5000000-005"]}),
        ("g7000000-007", "team-a", {"evolved_from": "zzzz0000-999"}),
        ("h8000000-008", "team-a", {"split_from": "a1000000"}),  # a prefix of a stored id, not a cut parent
    ], [
        ("d4000000-004", "merged_from", "a1000000-001"), ("a1000000-001", "merged_into", "d4000000-004"),
        ("d4000000-004", "merged_from", "b2000000-002"), ("b2000000-002", "merged_into", "d4000000-004"),
        ("d4000000-004", "merged_from", "c3000000-003"), ("c3000000-003", "merged_into", "d4000000-004"),
    ])
    assert _findings(path) == [
        ("L2", ["f6000000-006", "a1000000-001", "e5000000-005"],
         "f6000000-006: metadata merged_from = [a1000000-001, e5000000-005], but it has no merged_from edge"),
        ("L2", ["g7000000-007", "zzzz0000-999"],
         "g7000000-007: metadata evolved_from = [zzzz0000-999], but it has no evolved_from edge"),
        ("L2", ["h8000000-008", "a1000000"],
         "h8000000-008: metadata split_from = [a1000000], but it has no split_from edge"),
        ("L4ii", ["d4000000-004", "b2000000-002", "c3000000-003"],
         ("merged record d4000000-004 is filed in namespace 'team-a' but merged from b2000000-002 (namespace "
         "'team-b'), c3000000-003 (namespace 'team-c')")),
        ("5.2", ["f6000000-006", "e5000000-005"],
         ("survivor f6000000-006: its metadata merged_from names e5000000-005, which is soft-deleted (deleted_at "
         "is set); its ancestry was cut by a delete")),
        ("5.2", ["g7000000-007", "zzzz0000-999"],
         (f"survivor g7000000-007: its metadata evolved_from names zzzz0000-999, which is {NO_RECORD}; its "
         "ancestry was cut by a delete")),
    ]


def test_one_way_and_dangling_edges_are_described_in_full(tmp_path: Path) -> None:
    """L3 names the missing inverse and a soft-deleted edge; L7 names each missing endpoint and the form."""
    path = cfs_db(tmp_path, [("a0000000-001", "n", {}), ("b0000000-002", "n", {})], [
        ("a0000000-001", "references", "b0000000-002"),
        ("a0000000-001", "supersedes", "b0000000-002", True),
        ("x0000000-098", "evolved_from", "y0000000-099"),
    ])
    rep = audit(path)
    assert [(f["law"], f["records"], f["detail"], f.get("edge"), f.get("form")) for f in rep["findings"]] == [
        ("L3", ["a0000000-001", "b0000000-002"],
         "one-way edge (a0000000-001, references, b0000000-002): no (b0000000-002, referenced_by, a0000000-001)",
         ["a0000000-001", "references", "b0000000-002"], None),
        ("L3", ["a0000000-001", "b0000000-002"],
         ("one-way edge (a0000000-001, supersedes, b0000000-002): no (b0000000-002, superseded_by, a0000000-001) "
         "(the edge itself is soft-deleted)"),
         ["a0000000-001", "supersedes", "b0000000-002"], None),
        ("L3", ["x0000000-098", "y0000000-099"],
         "one-way edge (x0000000-098, evolved_from, y0000000-099): no (y0000000-099, evolved_into, x0000000-098)",
         ["x0000000-098", "evolved_from", "y0000000-099"], None),
        ("L7", ["x0000000-098", "y0000000-099"],
         (f"dangling evolved_from edge (x0000000-098 -> y0000000-099): x0000000-098 is {NO_RECORD}; "
         f"y0000000-099 is {NO_RECORD}"),
         ["x0000000-098", "evolved_from", "y0000000-099"], "lineage"),
    ]
    assert rep["counts"] == {"L3": 3, "L7": 1}


def test_endpoints_that_are_prefixes_name_their_owners(tmp_path: Path) -> None:
    """A prefix endpoint names up to three ids it begins (case-insensitively), then how many more."""
    ids = ["Abc-1", "Mid-1", "abc-2", "pre-1", "pre-2", "pre-3", "qre-1", "qre-2", "qre-3", "qre-4"]
    path = cfs_db(tmp_path, [(i, "n", {}) for i in ids],
                  [("Mid-1", "references", "abc-"), ("Mid-1", "references", "pre-"),
                   ("Mid-1", "references", "qre-"), ("Mid-1", "references", "")])
    prefix = "(evolve/split by prefix write the prefix)"
    assert [(f["records"], f["detail"]) for f in audit(path)["findings"] if f["law"] == "L7"] == [
        (["Mid-1", ""], f"dangling references edge (Mid-1 -> ):  is {NO_RECORD}"),
        (["Mid-1", "abc-"],
         f"dangling references edge (Mid-1 -> abc-): abc- is not an id but a prefix of Abc-1, abc-2 {prefix}"),
        (["Mid-1", "pre-"],
         f"dangling references edge (Mid-1 -> pre-): pre- is not an id but a prefix of pre-1, pre-2, pre-3 {prefix}"),
        (["Mid-1", "qre-"],
         ("dangling references edge (Mid-1 -> qre-): qre- is not an id but a prefix of qre-1, qre-2, qre-3 and 1 "
         f"more {prefix}")),
    ]


def test_a_shared_handle_names_the_row_recall_meets_first(tmp_path: Path) -> None:
    """6.3: recall returns the first row in table order, delete the first id; namespaces are listed."""
    path = cfs_db(tmp_path, [("abcd1234-b", "team-b", {}), ("zzzz0000-1", "team-a", {}),
                             ("abcd1234-a", "team-a", {})], [])
    assert _findings(path) == [
        ("6.3", ["abcd1234-a", "abcd1234-b"],
         ("handle 'abcd1234' names 2 records in namespace(s) team-a, team-b; recall('abcd1234') returns abcd1234-b "
         "(first in row order), delete('abcd1234') removes abcd1234-a (first by id)")),
    ]


def test_limit_zero_keeps_no_finding_but_counts_them_all(tmp_path: Path) -> None:
    """With limit 0 nothing is listed, yet the counts and the number left out cover every finding."""
    path = cfs_db(tmp_path, [("a0000000-001", "n", {})], [("a0000000-001", "references", "gone0000-1")])
    rep = audit(path, limit=0)
    assert rep["findings"] == [] and rep["counts"] == {"L3": 1, "L7": 1} and rep["left_out"] == 2
    one = audit(path, limit=1)
    assert [f["law"] for f in one["findings"]] == ["L3"] and one["left_out"] == 1


def test_the_report_lists_fifty_findings_by_default(tmp_path: Path) -> None:
    """51 findings: the terminal report shows 50 and says one more is left."""
    path = cfs_db(tmp_path, [(f"r{k:03d}", "n", {}) for k in range(51)],
                  [(f"r{k:03d}", "references", f"r{(k + 1) % 51:03d}") for k in range(51)])
    text = format_report(audit(path))
    assert "51 finding(s): L3 ×51" in text
    assert sum(line.startswith("  L3 ") for line in text.splitlines()) == 50
    assert "  … 1 more (use --limit N for more, --json --limit 0 for all)" in text.splitlines()


def test_a_report_without_a_left_out_entry_counts_only_its_findings(tmp_path: Path) -> None:
    """A report that does not say how many findings were left out is taken as complete."""
    path = cfs_db(tmp_path, [("a0000000-001", "n", {})], [("a0000000-001", "references", "gone0000-1")])
    rep = audit(path)
    del rep["left_out"]
    lines = format_report(rep).splitlines()
    assert lines[3] == "2 finding(s): L3 ×1, L7 ×1"
    assert not any(line.startswith("  …") for line in lines)


def test_an_identifier_holding_a_line_break_cannot_forge_a_line_of_the_report(tmp_path: Path) -> None:
    """The text report has one line per finding whatever the file's identifiers hold; the JSON keeps them."""
    forged = "x\n  L1    nothing is wrong here"
    path = cfs_db(tmp_path, [("c0000000-1", "ns", {})], [("c0000000-1", "references", forged)])
    report = audit(path)
    assert [f["records"] for f in report["findings"]] == [["c0000000-1", forged]] * 2  # L3 and L7, exact
    text = format_report(report)
    body = [line for line in text.splitlines() if line.startswith("  L")]
    assert [line.split()[0] for line in body] == ["L3", "L7"]
    assert body[1] == (r"  L7    dangling references edge (c0000000-1 -> x\n  L1    nothing is wrong here): "
                       rf"x\n  L1    nothing is wrong here is {NO_RECORD}")
