"""``python -m coalg``: the command line (see :mod:`coalg.cli`)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
