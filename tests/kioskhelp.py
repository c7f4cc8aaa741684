"""Shared fixtures of the kiosk tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from game.logs import LOGGER_NAME


@pytest.fixture(autouse=True)
def isolated_logging() -> Iterator[None]:
    """Remove the log handlers a test installed (setup_logging), closing their files."""
    logger = logging.getLogger(LOGGER_NAME)
    before = list(logger.handlers)
    yield
    for handler in list(logger.handlers):
        if handler not in before:
            logger.removeHandler(handler)
            handler.close()
