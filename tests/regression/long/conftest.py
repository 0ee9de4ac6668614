"""Tests too long for ``make test`` (an hour or more on a shared 2-core machine): collected only with
``LONG_TESTS=1``, e.g. ``LONG_TESTS=1 nice -n 10 .venv/bin/pytest tests/regression/long``."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.getenv("LONG_TESTS", "").strip() == "1" else ["test_*.py"]
