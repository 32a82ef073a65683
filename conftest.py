"""Configuration for every test of the repository."""

import os
import shutil
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # The command line keeps snapshots in the user's cache (wargamekit.snapshot_cache): tests
    # write theirs to a directory of their own, removed at the end, never to the user's.
    if "WARGAMEKIT_CACHE_DIR" not in os.environ:
        config._wargamekit_cache = tempfile.mkdtemp(prefix="wargamekit-test-cache-")  # type: ignore[attr-defined]
        os.environ["WARGAMEKIT_CACHE_DIR"] = config._wargamekit_cache  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    where = getattr(config, "_wargamekit_cache", None)
    if where is not None:
        shutil.rmtree(where, ignore_errors=True)
        os.environ.pop("WARGAMEKIT_CACHE_DIR", None)
