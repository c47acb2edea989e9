"""z/OS SMF records of IBM MQ: statistics (type 115) and accounting (type 116).

`frames` reads the records of a data set (RDWs, spanned records, or none); `decode_record`
turns one into rows, one per MQ structure (QJST, QPST, WTAS, WQ, QCST ...), read through the
layout tables in layouts/; `row_to_ibm` shows a row as IBM's formatter mq-smf-csv prints it.
"""

from traceroute.smf.decode import (
    ACCOUNTING,
    NOT_DECODED,
    SECTIONS,
    STATISTICS,
    Decoded,
    Header,
    Row,
    decode_record,
    record_type,
)
from traceroute.smf.framing import Frame, FrameProblem, frames
from traceroute.smf.ibmjson import row_to_ibm
from traceroute.smf.layout import ENUMS, STRUCTURES, Field, Layout, layout

__all__ = [
    "ACCOUNTING", "ENUMS", "NOT_DECODED", "SECTIONS", "STATISTICS", "STRUCTURES", "Decoded",
    "Field", "Frame", "FrameProblem", "Header", "Layout", "Row", "decode_record", "frames",
    "layout", "record_type", "row_to_ibm",
]
