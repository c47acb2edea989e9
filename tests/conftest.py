"""Shared test fixtures: the real vectors in ../shared/vectors (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT.parent / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of real MQ messages; skips the test when this checkout has none."""
    if not VECTORS.is_dir():
        pytest.skip(f"real vectors not found at {VECTORS} (a fresh clone has no ../shared)")
    return VECTORS


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """One local SparkSession for the whole test run: UI off, 2 shuffle partitions, and the
    GraphFrames jar of ../shared/jars on spark.jars when that folder has one (the GraphFrames
    tests skip, saying so, when it does not); a checkpoint folder for its algorithms."""
    pytest.importorskip("pyspark", reason="pyspark is in the test extra: pip install -e '.[test]'")
    from graph.engines import graphframes_config, shared_graphframes_jars
    from graph.pipeline.session import LOCAL_TEST_CONFIG, spark_session

    config = graphframes_config(shared_graphframes_jars(ROOT) or None, environ={},
                                config=LOCAL_TEST_CONFIG)
    session = spark_session("local[2]", app_name="mqroute-tests", config=config,
                            driver_memory="2g")
    session.sparkContext.setLogLevel("ERROR")
    session.sparkContext.setCheckpointDir(str(tmp_path_factory.mktemp("spark-checkpoints")))
    yield session
    session.stop()
