"""Column lists ((name, Spark SQL type) pairs) as Spark DDL and as Arrow schemas; writing a
partitioned table that stays readable when empty."""

from __future__ import annotations

from collections.abc import Sequence


def ddl(columns: Sequence[tuple[str, str]]) -> str:
    """Columns as a Spark DDL schema string."""
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def write_partitioned(df, path: str, column: str, rows: int) -> None:
    """Write `df` as Parquet partitioned by `column`; with no rows, unpartitioned: Spark writes
    no file at all for an empty partitioned table, which then has no schema to read."""
    writer = df.write.mode("overwrite")
    (writer.partitionBy(column) if rows else writer).parquet(path)


def row_arrays(fields: Sequence, rows: Sequence[tuple]) -> list:
    """Arrow arrays of `fields` (pyarrow fields) from rows of values in their order."""
    import pyarrow as pa

    columns = zip(*rows, strict=True) if rows else ([] for _ in fields)
    return [pa.array(values, f.type) for f, values in zip(fields, columns, strict=True)]


def row_batch(schema, rows: Sequence[tuple]):
    """Rows (tuples in the pyarrow schema's order) as one record batch, column by column."""
    import pyarrow as pa

    return pa.RecordBatch.from_arrays(row_arrays(list(schema), rows), schema=schema)


def arrow_schema(columns: Sequence[tuple[str, str]]):
    """Columns as a pyarrow schema (imported lazily: executors only)."""
    import pyarrow as pa

    kinds = {"string": pa.string(), "long": pa.int64(), "int": pa.int32(),
             "boolean": pa.bool_(), "binary": pa.binary()}
    return pa.schema([(name, kinds[kind]) for name, kind in columns])
