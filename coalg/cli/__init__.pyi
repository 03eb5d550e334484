"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .app import (
    main,
)
from .laws import (
    BadJobs,
    BadLength,
    LengthNotForRuntime,
    UnknownRealisation,
    realisation_law_table,
)

__all__ = [
    "main",
    "BadJobs",
    "BadLength",
    "LengthNotForRuntime",
    "UnknownRealisation",
    "realisation_law_table",
]
