"""A dict-backed layer whose identifiers are words: the second record is called "missing".

Design: the layer of ``dict_both`` (ancestry as edges both ways and as
metadata, in sync; delete cascades; valid time inherited when not given), with
identifiers handed out from a list of words ("apple", "missing", "cedar", ...;
never reused).  An identifier is any string the layer chooses, so a word the
kit might use for "no such record" can name a live one here.
"""

from __future__ import annotations

from .dict_both import Memory

DESIGN = "dict; identifiers are words, one of them 'missing'; edges and metadata in sync; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

WORDS = ("apple", "missing", "cedar", "delta", "ember", "fjord", "grove", "harbor", "iris", "juniper")


class WordIds(Memory):
    def _put(self, content, type, namespace, tags, metadata, valid_time):
        key = WORDS[self.counter] if self.counter < len(WORDS) else f"word{self.counter}"
        self.counter += 1
        self.data[key] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": dict(metadata), "valid_time": valid_time}
        return key


FACTORY = WordIds
