"""The ``coalg`` command line: ``bisim``, ``laws``, ``witness``, ``audit``."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .laws import (
        run_laws_command,
    )
    from .main import (
        main,
    )
