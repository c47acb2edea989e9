"""Shared test fixtures: the real vectors in ../shared/vectors (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of real MQ messages; skips the test when this checkout has none."""
    if not VECTORS.is_dir():
        pytest.skip(f"real vectors not found at {VECTORS} (a fresh clone has no ../shared)")
    return VECTORS
