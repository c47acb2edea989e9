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


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession for the whole test run: UI off, 2 shuffle partitions."""
    pytest.importorskip("pyspark", reason="pyspark is in the test extra: pip install -e '.[test]'")
    from graph.pipeline.session import LOCAL_TEST_CONFIG, spark_session

    session = spark_session("local[2]", app_name="mqroute-tests", config=LOCAL_TEST_CONFIG,
                            driver_memory="2g")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
