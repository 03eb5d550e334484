"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .detect import inspect_layer
from .kit import (
    WALK_LENGTH,
    LawViolation,
    check_layer,
    conform,
)
from .order import HASHSEEDS
from .protocol import (
    CAPABILITIES,
    PREFIX_RULES,
    BadLayer,
    Capabilities,
    ProtocolMisuse,
    load_factory,
)
from .report import (
    exit_status,
    format_report,
)

__all__ = [
    "inspect_layer",
    "WALK_LENGTH",
    "LawViolation",
    "check_layer",
    "conform",
    "HASHSEEDS",
    "CAPABILITIES",
    "PREFIX_RULES",
    "BadLayer",
    "Capabilities",
    "ProtocolMisuse",
    "load_factory",
    "exit_status",
    "format_report",
]
