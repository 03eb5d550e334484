# IPython kernel configuration for the explorers' kernels (serve_explorers.py puts it in a private
# IPYTHONDIR made at start, so it applies to the kernels of `make explorers` and nowhere else).
#
# A kernel forwards what is written to sys.stderr, and to its file descriptor 2, to every
# connected page. Log records with no handler of their own land there as well (Python's
# last-resort handler writes to sys.stderr): a malformed `comm_open` from a client came back to
# that client as a traceback naming the server's paths. Here the kernels' log records go to the
# kernel process's original stderr, and that descriptor is not forwarded, so they stay in the
# server's log, where the teacher reads them. What Python code prints still reaches the page.
import logging
import sys

from traitlets.config.application import LevelFormatter

c = get_config()  # noqa: F821 (IPython's config loader provides it)
c.IPKernelApp.capture_fd_output = False
c.HistoryManager.enabled = False



class _OneLine(LevelFormatter):
    """A record on one line: a client's malformed message is worth a line, not a traceback."""

    def __init__(self, fmt=None, datefmt=None, format=None, **_ignored):
        super().__init__(fmt or format, datefmt)

    def formatException(self, ei):
        return f"({ei[0].__name__}: {str(ei[1])[:200]})" if ei and ei[0] else ""

    def format(self, record):
        cached, record.exc_text = record.exc_text, None  # another handler's full traceback
        try:
            return super().format(record).replace("\n", " ")
        finally:
            record.exc_text = cached


_to_server_log = logging.StreamHandler(sys.__stderr__)
_to_server_log.setFormatter(_OneLine("[kernel %(name)s] %(levelname)s | %(message)s"))
logging.getLogger().addHandler(_to_server_log)
# The kernel gives the "tornado" logger a handler of its own, which prints a whole traceback (e.g.
# of a socket closed while the kernel shuts down). tornado's records are logged on its three
# children, so they get the one-line handler and go no further up.
for _name in ("tornado.access", "tornado.application", "tornado.general"):
    logging.getLogger(_name).addHandler(_to_server_log)
    logging.getLogger(_name).propagate = False
# the kernel application's own log (e.g. "Exception in message handler" for a malformed message)
c.IPKernelApp.logging_config = {"formatters": {"console": {"()": _OneLine}}}
