"""The paper's numbered items: one table, verdicts, the witness registry and the traceability table.

The table is :mod:`coalg.paper.items`; ``coalg witness`` reads the registry
(:mod:`coalg.paper.registry`), the book's appendix the traceability table, and the book's
pages show tables through :mod:`coalg.paper.tables`.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

