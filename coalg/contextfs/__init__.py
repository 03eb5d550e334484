"""The real ContextFS 0.2.35: the paper's claims observed at runtime, and ContextFS databases audited.

==========================================  ===================================
the package offline: sandbox, availability  :mod:`~coalg.contextfs.offline`
the two tables as a coalg store (§3.1)      :mod:`~coalg.contextfs.tables`
a store written into the schema; faults     :mod:`~coalg.contextfs.materialise`
the package's objects: ``LiveStore``        :mod:`~coalg.contextfs.live`
the package as a realisation (§3.3)         :mod:`~coalg.contextfs.adapter`
Table 2 observed (Def. 3.21)                :mod:`~coalg.contextfs.observed`
runtime observations (5.2 … 6.3, 7.3)       :mod:`~coalg.contextfs.runtime`
behaviours the paper does not state         :mod:`~coalg.contextfs.behaviours`
a database read read-only                   :mod:`~coalg.contextfs.database`
the audit: findings and report              :mod:`~coalg.contextfs.auditing`
databases written without the package       :mod:`~coalg.contextfs.synthetic`
random words of the memory API              :mod:`~coalg.contextfs.random_words`
a word run on the package, one database     :mod:`~coalg.contextfs.package_run`
the model against the package on words      :mod:`~coalg.contextfs.differential_testing`
==========================================  ===================================
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

