"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .allocation import next_allocation
from .ancestry import AncestryExplorer
from .base import SCALES, Explorer
from .bitemporal_stepper import BitemporalStepper
from .figures import render
from .merge_lab import MergeLab
from .operations import OPERATIONS
from .playground import DerivationPlayground
from .refinement_stepper import RefinementStepper
from .session import SessionError, dumps_session, loads_session, read_session, write_session
from .tenants_lab import TenantsLab
from .tour import Tour, TourFrame, tour_widget
from .tours import (
    TOURS,
    ancestry_tour,
    bitemporal_tour,
    merge_tour,
    playground_tour,
    refinement_tour,
    tenants_tour,
)

__all__ = [
    "next_allocation",
    "AncestryExplorer",
    "SCALES",
    "Explorer",
    "BitemporalStepper",
    "render",
    "MergeLab",
    "OPERATIONS",
    "DerivationPlayground",
    "RefinementStepper",
    "SessionError",
    "dumps_session",
    "loads_session",
    "read_session",
    "write_session",
    "TenantsLab",
    "Tour",
    "TourFrame",
    "tour_widget",
    "TOURS",
    "ancestry_tour",
    "bitemporal_tour",
    "merge_tour",
    "playground_tour",
    "refinement_tour",
    "tenants_tour",
]
