"""SparkSession for the pipeline: local mode by default, the same code on a cluster."""

from __future__ import annotations

import os
import sys

#: Settings every session gets: Arrow on, workers on this interpreter.
BASE_CONFIG = {
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.sql.execution.arrow.maxRecordsPerBatch": "2000",
    "spark.python.worker.reuse": "true",
    "spark.sql.session.timeZone": "UTC",
}
#: Extra settings for tests and small local runs: fast start, loopback only, no UI.
LOCAL_TEST_CONFIG = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
    "spark.sql.adaptive.enabled": "false",
}


def spark_session(master: str | None = None, *, app_name: str = "mqroute",
                  config: dict[str, str] | None = None, driver_memory: str = "4g"):
    """Get (or create) a SparkSession; `master` defaults to local[*]."""
    from pyspark.sql import SparkSession

    if master is None and "SPARK_MASTER" not in os.environ \
            and not os.environ.get("SPARK_ENV_LOADED"):
        master = "local[*]"  # not under spark-submit: local mode
    local = {}
    if master is not None and master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # no hostname lookups
        # a few tasks per core: Spark's default of 200 shuffle partitions costs a Python
        # worker round trip each, which dominates on a small machine
        local = {"spark.sql.shuffle.partitions": str(4 * (os.cpu_count() or 2))}
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app_name)
    if master is not None:
        builder = builder.master(master)
    settings = {**BASE_CONFIG, **local, "spark.driver.memory": driver_memory, **(config or {})}
    for key, value in settings.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()
