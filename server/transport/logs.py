"""Log filters: hostile input costs at most one log line, never a traceback (a cheap flood)."""

from __future__ import annotations

import logging


class QuietBadText(logging.Filter):
    """uvicorn logs a text frame that is not UTF-8 (closed with 1007, as it should be) at
    error level with a traceback: one line each for anyone sending junk, a cheap log flood.
    This filter makes it one line at info level, shown only when info is (a real error in
    the same logger keeps its level and traceback)."""

    MESSAGE = "Invalid UTF-8 sequence received from client."

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != self.MESSAGE:
            return True
        record.levelno, record.levelname = logging.INFO, "INFO"
        record.exc_info = record.exc_text = None
        record.msg = "a text frame was not UTF-8: closed it with 1007"
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)


def quiet_bad_text(logger: logging.Logger | None = None) -> None:
    """Install ``QuietBadText`` on uvicorn's error logger (once; the app factory calls it)."""
    logger = logger or logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietBadText) for f in logger.filters):
        logger.addFilter(QuietBadText())
