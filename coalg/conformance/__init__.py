"""Check your own memory layer: the laws L1–L7 and the schema S1–S4 as a conformance kit.

Any Python object with ``save``, ``evolve``, ``merge``, ``split``,
``supersede``, ``delete``, ``records`` and ``edges`` is a *memory layer*
(:mod:`~coalg.conformance.protocol`).  The kit drives it as a black box --
every word of protocol calls up to a length from a fresh layer, then seeded
random walks -- and judges every step with the predicates the law search of
:mod:`coalg.laws` uses on the paper's model, so the paper's check and a
user's are one code path.  Every failure comes with a minimal word and a
replay script.

=============================================  ==========================================
the protocol, capabilities, misuse             :mod:`~coalg.conformance.protocol`
one fresh layer checked before exploring       :mod:`~coalg.conformance.detect`
``records()``/``edges()`` as a renamed store   :mod:`~coalg.conformance.snapshot`
one live layer driven by calls                 :mod:`~coalg.conformance.session`
the layer as a realisation (replayed words)    :mod:`~coalg.conformance.blackbox`
the words tried                                :mod:`~coalg.conformance.alphabet`
breadth first, random walks, shrinking         :mod:`~coalg.conformance.explore`
the clause judgments                           :mod:`~coalg.conformance.judge`
L5 across interpreters and save orders         :mod:`~coalg.conformance.order`
two runs compared up to renaming               :mod:`~coalg.conformance.compare`
replayable witnesses                           :mod:`~coalg.conformance.witness`
the report                                     :mod:`~coalg.conformance.report`
``conform`` and ``check_layer``                :mod:`~coalg.conformance.kit`
ContextFS and REPAIRED through the protocol    :mod:`~coalg.conformance.examples`
=============================================  ==========================================

From a test suite: ``def test_memory_laws(): check_layer(MyMemory)``; from
the command line: ``coalg conform mypackage.memory:MyMemory``.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

