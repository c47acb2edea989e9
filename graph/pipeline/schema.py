"""Column lists ((name, Spark SQL type) pairs) as Spark DDL and as Arrow schemas; writing a
partitioned table that stays readable when empty."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter


def ddl(columns: Sequence[tuple[str, str]]) -> str:
    """Columns as a Spark DDL schema string."""
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


def write_partitioned(df, path: str, column: str, rows: int) -> None:
    """Write `df` as Parquet partitioned by `column`; with no rows, unpartitioned: Spark writes
    no file at all for an empty partitioned table, which then has no schema to read."""
    writer = df.write.mode("overwrite")
    (writer.partitionBy(column) if rows else writer).parquet(path)


def row_arrays(fields: Sequence, rows: Sequence[tuple]) -> list:
    """Arrow arrays of `fields` (pyarrow fields) from rows of values in their order (each
    value that does not fit its column made null: see `fit_array`)."""
    columns = zip(*rows, strict=True) if rows else ([] for _ in fields)
    return [fit_array(list(values), f.type) for f, values in zip(fields, columns, strict=True)]


def fit_array(values: list, kind):
    """An Arrow array of `kind` from Python values read from messages: a value that cannot
    be one (a number past the column's range, a sum of claimed counts past int64, text
    with an unpaired surrogate, a value of another type) becomes null (text: its
    undecodable characters shown as backslash escapes), never a failed batch, job or run."""
    import pyarrow as pa

    try:
        return pa.array(values, kind)
    except (OverflowError, pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError,
            UnicodeError):
        return pa.array([_fit(v, kind) for v in values], kind)


_RANGES = {8: (-(2**7), 2**7 - 1), 16: (-(2**15), 2**15 - 1), 32: (-(2**31), 2**31 - 1),
           64: (-(2**63), 2**63 - 1)}


def _fit(value: object, kind) -> object:
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_integer(kind):
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        low, high = _RANGES.get(kind.bit_width, (0, -1)) if pa.types.is_signed_integer(kind) \
            else (0, 2**kind.bit_width - 1)
        return value if low <= value <= high else None
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        if not isinstance(value, str):
            return None
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return value if isinstance(value, bytes | bytearray | memoryview) else None
    if pa.types.is_boolean(kind):
        return value if isinstance(value, bool) else None
    try:
        pa.array([value], kind)
    except (OverflowError, pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError,
            UnicodeError):
        return None
    return value


def dict_batch(rows: Sequence, schema):
    """Rows as dicts (missing keys null) as one record batch of `schema`, column by column,
    each value fitted to its column (`fit_array`)."""
    import pyarrow as pa

    if len(schema) > 1:
        try:  # every key there (the usual case): one pass in C makes the rows' tuples
            tuples = list(map(itemgetter(*schema.names), rows))
        except KeyError:
            pass
        else:
            return pa.RecordBatch.from_arrays(row_arrays(list(schema), tuples), schema=schema)
    return pa.RecordBatch.from_arrays(
        [fit_array([r.get(f.name) for r in rows], f.type) for f in schema], schema=schema)


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
