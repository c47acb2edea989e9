"""The analyze job on Spark, and the same computation in one process.

Holds the storage layer every input and output goes through (`storage`: plain paths and
URIs), the readers of dumps, raw files and Parquet (`inputs`, `dumpsplit`), the one pass that
decodes every raw message for the stage of its kind (`classify`), the reports' view of it
and the route-building stage (`reports`; with `inputs.read_inputs`, the DataFrame API for
composing Spark work), the pure row conversions both paths share (`rows`), the job that
writes the Parquet tables (`job`) all at once through a staging folder (`commit`), its
reports in one Spark job whose tasks read their own input units and write their own parts
(`units`),
the zip it ships to bare executors (`ship`, `zipcodecs`), the single-process reference
(`local`) and the SparkSession defaults (`session`). May import `pcf`, `traceroute` and
pyspark/pyarrow (lazily, inside functions, so that importing this package needs neither).
"""

from graph.pipeline import zipcodecs  # noqa: F401  (first: EBCDIC code pages in a shipped zip)
from graph.pipeline.inputs import DEFAULT_SPLIT_BYTES, read_inputs
from graph.pipeline.job import Summary, run
from graph.pipeline.local import LocalResult, run_local
from graph.pipeline.reports import build_routes, decode
from graph.pipeline.rows import HOP_COLUMNS, OPERATION_COLUMNS, ROUTE_COLUMNS
from graph.pipeline.schema import arrow_schema, ddl
from graph.pipeline.session import LOCAL_TEST_CONFIG, spark_session

__all__ = [
    "DEFAULT_SPLIT_BYTES", "HOP_COLUMNS", "LOCAL_TEST_CONFIG", "OPERATION_COLUMNS",
    "ROUTE_COLUMNS", "LocalResult", "Summary", "arrow_schema", "build_routes", "ddl", "decode",
    "read_inputs", "run", "run_local", "spark_session",
]
