"""The ``coalg`` command line: ``bisim``, ``laws``, ``witness``, ``audit``, ``differential``, ``conform``.

======================================  ==================================
the parser, the subcommands' wiring     :mod:`~coalg.cli.app`
what every subcommand shares            :mod:`~coalg.cli.common`
``coalg bisim``                         :mod:`~coalg.cli.bisim`
``coalg laws`` (Table 2, Def. 3.21)     :mod:`~coalg.cli.laws`
``coalg witness`` (numbered items)      :mod:`~coalg.cli.witness`
``coalg audit`` (ContextFS databases)   :mod:`~coalg.cli.audit`
``coalg differential`` (model vs. pkg)  :mod:`~coalg.cli.differential`
``coalg conform`` (your memory layer)   :mod:`~coalg.cli.conform`
======================================  ==================================
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

