"""A module that ends the interpreter while it is imported (for the hostile-layer tests)."""

import sys

sys.exit(0)
