"""A corpus of small memory layers, each written from scratch against the documented protocol.

Every module is one layer design and says, at module level, what the kit must
find: ``FACTORY`` (the layer's factory), ``DESIGN`` (one line), ``FLAW``
(``None`` for a correct layer, else the one planted flaw) and ``EXPECTED``
(per clause of Table 2: ``True`` holds, ``False`` fails, ``None`` does not
apply).  ``tests/conformance/test_layer_corpus.py`` runs the kit over all of them.
"""

MODULES = (
    "dict_both", "sqlite_edges", "event_log", "snapshots", "prefix_oldest", "prefix_least", "recall_newest",
    "tombstones",
    "unmarked_tombstone",
    "frozen_versions", "lineage_graph", "json_rows", "namespace_shards", "interval_time", "dotted_prefix",
    "slots_keyed", "short_first_id", "word_ids", "version_fields", "noted_ids", "ids_in_text", "typed_merge_notes",
    "post_titles", "digest_sources", "clock_stamps", "status_rows",
    "no_valid_time",
    "flaw_merge_inverse", "flaw_meta_root", "flaw_recall_first", "flaw_hidden_tombstone", "flaw_sqlite_refusal",
    "flaw_hash_order", "flaw_refuses_duplicates", "flaw_least_declared",
)
"""The corpus, in the order the chapter's table lists it."""
