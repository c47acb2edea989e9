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
#: The driver JVM's options in local mode (before any the caller gives): its own work there is
#: moving Arrow batches and shuffle blocks, for which the quick compiler alone does as well
#: as the optimising one (1M reports: 42.9 against 44.6 CPU s) at a fraction of the
#: compiling, and one collector thread; about 7 CPU s less fixed cost per run (benchmarks/
#: README.md, "Figures (issue 33, two-pass plan)"). Left out when the caller gives -XX:
#: options of its own, and on local masters of more than QUICK_JVM_CORES cores (measured on
#: 2 cores: one collector thread and no optimising compiler are no bargain for a big
#: machine's long local runs).
LOCAL_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
QUICK_JVM_CORES = 4
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


#: log4j2 levels `--spark-log` takes.
LOG_LEVELS = ("off", "fatal", "error", "warn", "info", "debug", "trace", "all")
_LOG4J2 = """\
status = error
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = stderr
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{{HH:mm:ss}} %p %c{{1}}: %m%n
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = {level}
"""


def quiet_config(level: str = "off", *, console_progress: bool = False) -> dict[str, str]:
    """Settings that keep the driver's JVM quiet from its first line: log4j2 at `level`
    (a properties file written once per level in the temp folder, given to the JVM as it
    starts; the REPL logger too, which PySpark's gateway otherwise sets to WARN with a
    "Setting default log level" line) and, unless asked for, no console progress bars."""
    import tempfile

    level = level.lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"{level}: a log level is one of {', '.join(LOG_LEVELS)}")
    path = os.path.join(tempfile.gettempdir(), f"mqroute-log4j2-{level}.properties")
    text = _LOG4J2.format(level=level)
    try:
        with open(path, encoding="utf-8") as f:
            current = f.read()
    except OSError:
        current = None
    if current != text:
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    return {"spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{path}",
            "spark.ui.showConsoleProgress": "true" if console_progress else "false"}


def session_settings(master: str | None, config: dict[str, str] | None = None,
                     driver_memory: str = "4g") -> dict[str, str]:
    """The settings a session of `master` gets: BASE_CONFIG, in local mode a few shuffle
    partitions per core and LOCAL_JVM_OPTIONS before the caller's JVM options (unless
    those set -XX: options themselves), the driver's memory, then `config`."""
    local = {}
    if master is not None and master.startswith("local"):
        # a few tasks per core: Spark's default of 200 shuffle partitions costs a Python
        # worker round trip each, which dominates on a small machine
        local = {"spark.sql.shuffle.partitions": str(4 * (os.cpu_count() or 2))}
    settings = {**BASE_CONFIG, **local, "spark.driver.memory": driver_memory, **(config or {})}
    if local and _local_cores(master) <= QUICK_JVM_CORES:
        given = settings.get("spark.driver.extraJavaOptions", "")
        if "-XX:" not in given:
            settings["spark.driver.extraJavaOptions"] = f"{LOCAL_JVM_OPTIONS} {given}".strip()
    return settings


def _local_cores(master: str) -> int:
    """The cores a local master runs tasks on: local = 1, local[N] or local[N,F] = N,
    local[*] = the machine's; anything else (local-cluster[...]) counts as many."""
    import re

    if master == "local":
        return 1
    found = re.fullmatch(r"local\[(\*|\d+)(?:,\s*\d+)?\]", master)
    if found is None:
        return 1 << 30
    return (os.cpu_count() or 2) if found.group(1) == "*" else int(found.group(1))


def spark_session(master: str | None = None, *, app_name: str = "mqroute",
                  config: dict[str, str] | None = None, driver_memory: str = "4g"):
    """Get (or create) a SparkSession; `master` defaults to local[*]."""
    from pyspark.sql import SparkSession

    if master is None and "SPARK_MASTER" not in os.environ \
            and not os.environ.get("SPARK_ENV_LOADED"):
        master = "local[*]"  # not under spark-submit: local mode
    if master is not None and master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # no hostname lookups
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app_name)
    if master is not None:
        builder = builder.master(master)
    settings = session_settings(master, config, driver_memory)
    for key, value in settings.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()
