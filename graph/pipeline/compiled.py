"""The optional compiled paths of the analyze job, loaded when they were built and usable.

graph/pipeline/_ccolumns.c is built by `pip install` when a C compiler is present (setup.py
marks it optional, as pcf/_cdecode.c). It makes Arrow columns from Arrow columns: activity
reports and trace-route messages straight into `operations` rows (no PCF tree, no Record,
no Python object per value) and the routes of the common chain straight into `routes` and
`hops` rows. Each takes only what it answers exactly as the Python code does and names the
rest, which goes through that code (`classify.classify_message`, `rows.routes_of_columns`):
the Python path is the reference, and the tests hold the two equal. `MQROUTE_PCF_PURE=1`
ignores this module too; `STATUS` says which path is in use.
"""

from __future__ import annotations

import importlib
import os

from pcf import mqc
from pcf.limits import MAX_DEPTH

#: The MQ constants the compiled code has built in (checked at load against pcf.mqc).
_CONSTANTS = {
    "T_INT": mqc.MQCFT_INTEGER, "T_STR": mqc.MQCFT_STRING, "T_BSTR": mqc.MQCFT_BYTE_STRING,
    "T_GROUP": mqc.MQCFT_GROUP, "T_INT64": mqc.MQCFT_INTEGER64,
    "ACTIVITY": mqc.MQGACF_ACTIVITY, "TRACE_ROUTE": mqc.MQGACF_TRACE_ROUTE,
    "OPERATION": mqc.MQGACF_OPERATION, "MESSAGE": mqc.MQGACF_MESSAGE,
    "MQMD_GROUP": mqc.MQGACF_MQMD, "EMBEDDED_MQMD": mqc.MQGACF_EMBEDDED_MQMD,
    "MSG_ID": mqc.MQBACF_MSG_ID, "APPL_NAME": mqc.MQCACF_APPL_NAME,
    "APPL_TYPE": mqc.MQIA_APPL_TYPE, "ACTIVITY_DESC": mqc.MQCACF_ACTIVITY_DESC,
    "RECORDED": mqc.MQIACF_RECORDED_ACTIVITIES, "UNRECORDED": mqc.MQIACF_UNRECORDED_ACTIVITIES,
    "DISCONTINUITY": mqc.MQIACF_DISCONTINUITY_COUNT, "OP_DATE": mqc.MQCACF_OPERATION_DATE,
    "OP_TIME": mqc.MQCACF_OPERATION_TIME, "QMGR_NAME": mqc.MQCA_Q_MGR_NAME,
    "Q_NAME": mqc.MQCA_Q_NAME, "RESOLVED_Q": mqc.MQCACF_RESOLVED_Q_NAME,
    "REMOTE_Q": mqc.MQCA_REMOTE_Q_NAME, "REMOTE_QMGR": mqc.MQCA_REMOTE_Q_MGR_NAME,
    "TOPIC": mqc.MQCA_TOPIC_STRING, "CHANNEL": mqc.MQCACH_CHANNEL_NAME,
    "XMIT_Q": mqc.MQCACH_XMIT_Q_NAME, "OP_TYPE": mqc.MQIACF_OPERATION_TYPE,
    "CHANNEL_TYPE": mqc.MQIACH_CHANNEL_TYPE, "FEEDBACK": mqc.MQIACF_FEEDBACK,
    "CFT_REPORT": mqc.MQCFT_REPORT, "CMD_ACTIVITY": mqc.MQCMD_ACTIVITY_MSG,
    "CFT_TRACE_ROUTE": mqc.MQCFT_TRACE_ROUTE, "CMD_TRACE_ROUTE": mqc.MQCMD_TRACE_ROUTE,
    "MT_REPLY": mqc.MQMT_REPLY, "MAX_DEPTH": MAX_DEPTH,
}


def _load():
    """The compiled module, or None and why not."""
    if os.environ.get("MQROUTE_PCF_PURE", "") not in ("", "0"):
        return None, "disabled by MQROUTE_PCF_PURE"
    try:
        module = importlib.import_module("graph.pipeline._ccolumns")
    except ImportError as exc:
        return None, f"not built ({exc})"
    built = module.constants()
    wrong = sorted(k for k, v in _CONSTANTS.items() if built.get(k) != v)
    if wrong:
        return None, f"not usable: its constants {', '.join(wrong)} differ from pcf.mqc"
    return module, "compiled (graph.pipeline._ccolumns)"


_C, STATUS = _load()


def available() -> bool:
    """True when the analyze job uses the compiled paths."""
    return _C is not None


def _binary(array) -> tuple:
    """A binary/string array's buffers as the compiled code reads them."""
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_null(array.type):
        array = array.cast(pa.binary())
    wide = pa.types.is_large_binary(array.type) or pa.types.is_large_string(array.type)
    if not wide and not (pa.types.is_binary(array.type) or pa.types.is_string(array.type)):
        raise TypeError(f"not a binary or string array: {array.type}")
    valid, offsets, data = array.buffers()[:3]
    return (valid, offsets, data, array.offset, len(array), wide)


def _array(kind, column):
    """An Arrow array of `kind` from the compiled code's (n, nulls, validity, values, data)."""
    import pyarrow as pa

    n, nulls, valid, values, data = column
    buffers = [None if valid is None else pa.py_buffer(valid), pa.py_buffer(values)]
    if data is not None:
        buffers.append(pa.py_buffer(data))
    return pa.Array.from_buffers(kind, n, buffers, null_count=nulls)


def operation_arrays(md, data, error) -> tuple[dict, object]:
    """The compiled operation rows of raw-message arrays: ({column: array} of the operation
    columns but source and position, plus `row` (the input row of each) and `first`), and
    the input rows it did not take (an int32 array), for the Python path."""
    import pyarrow as pa

    from graph.pipeline.rows import OPERATION_COLUMNS
    from graph.pipeline.schema import arrow_schema

    columns, rest = _C.operations(_binary(md), _binary(data), _binary(error))
    schema = arrow_schema(tuple((n, k) for n, k in OPERATION_COLUMNS
                                if n not in ("source", "position", *_PYTHON_ONLY)))
    fields = [*schema, pa.field("row", pa.int32()), pa.field("first", pa.bool_())]
    made = {f.name: _array(f.type, c) for f, c in zip(fields, columns, strict=True)}
    return _without_publications(made, _array(pa.int32(), rest))


#: Operation columns the compiled code does not fill: only publish operations have them,
#: and messages holding those go through the Python path (`_without_publications`).
_PYTHON_ONLY = ("sub_id", "sub_level")
_PUBLISHES = (mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH, mqc.MQOPER_EXCLUDED_PUBLISH)


def _hide_publications(types):
    """The operation types with each publish operation's a null: the compiled routes leave
    a message with a null type to the Python ordering, which gives a publication its
    branches (`traceroute.routes.ordering.published_branches`)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    publish = pc.is_in(types, value_set=pa.array(_PUBLISHES, types.type))
    if not pc.any(publish).as_py():
        return types
    return pc.if_else(publish, pa.scalar(None, types.type), types)


def _without_publications(made: dict, rest) -> tuple[dict, object]:
    """The compiled rows less those of messages with a publish operation (their SubId and
    SubLevel are the Python path's), those messages' rows added to `rest` (sorted)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    publish = pc.is_in(made["operation_type"], value_set=pa.array(_PUBLISHES, pa.int32()))
    if not pc.any(publish).as_py():
        return made, rest
    moved = pc.unique(pc.filter(made["row"], publish))
    keep = pc.invert(pc.is_in(made["row"], value_set=moved))
    kept = {name: pc.filter(array, keep) for name, array in made.items()}
    both = pa.concat_arrays([rest, moved.cast(pa.int32())])
    return kept, both.take(pc.sort_indices(both))


#: The routes input columns (rows.ROUTES_READ) as the compiled code reads them.
_IN_KIND = {"string": 0, "int": 1, "long": 2, "boolean": 3}


def _column(array, kind: str) -> tuple:
    """An array's buffers as the compiled routes read them (cast to its column type)."""
    import pyarrow as pa

    from graph.pipeline.schema import arrow_schema

    want = arrow_schema((("c", kind),)).field("c").type
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if array.type != want:
        array = array.cast(want)
    buffers = array.buffers()
    code = _IN_KIND[kind]
    data = buffers[2] if kind == "string" else None
    return (code, buffers[0], buffers[1], data, array.offset, len(array))


def route_arrays(batch) -> tuple:
    """The compiled routes of operation rows grouped by correl_id (rows.ROUTES_READ
    columns): (route arrays in ROUTE_COLUMNS order, hop arrays in HOP_COLUMNS order, hop
    offsets per route, the first row of each route's message, and the (lo, hi) row ranges of
    the messages left to the Python ordering, flat)."""
    import pyarrow as pa

    from graph.pipeline.rows import HOP_COLUMNS, OPERATION_COLUMNS, ROUTE_COLUMNS, ROUTES_READ
    from graph.pipeline.schema import arrow_schema

    kinds = dict(OPERATION_COLUMNS)
    routes, hops, offsets, firsts, rest = _C.routes(
        [_column(_hide_publications(batch.column(n)) if n == "operation_type"
                 else batch.column(n), kinds[n])
         for n in ROUTES_READ if n not in _PYTHON_ONLY])
    route_arrays = [_array(f.type, c) for f, c in zip(arrow_schema(ROUTE_COLUMNS), routes,
                                                       strict=True)]
    hop_arrays = [_array(f.type, c) for f, c in zip(arrow_schema(HOP_COLUMNS), hops,
                                                     strict=True)]
    return (route_arrays, hop_arrays, _array(pa.int32(), offsets), _array(pa.int32(), firsts),
            _array(pa.int32(), rest))
