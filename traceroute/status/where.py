"""MQSC's WHERE(keyword operator value) as the PCF filter it stands for (MQCFIF / MQCFSF).

    where_filter("QSTATUS", "CURDEPTH GT 0")   -> IntegerFilter(MQIA_CURRENT_Q_DEPTH, GT, 0)
    where_filter("CHSTATUS", "STATUS EQ STOPPED")
    where_filter("QUEUE", "DESCR LK 'Order*'")

Operators as MQSC spells them: LT GT EQ NE NL NG (numbers and words), LK NK (generic
text), CT EX (a list contains / excludes), CTG EXG (a list contains / excludes a generic
value). Keywords are those the display shows (status fields, or the object's attributes);
words (STOPPED, YES, XMITQ ...) become the numbers MQ uses for them. ValueError says what is
wrong.
"""

from __future__ import annotations

from pcf import mqc
from pcf.model import IntegerFilter, Parameter, StringFilter
from traceroute.status.attributes import INT, LIST, STR, table_for
from traceroute.status.words import (
    CHANNEL_STATUS,
    CHANNEL_SUBSTATE,
    CHANNEL_TYPE,
    MONITORING,
    reverse,
)

OPERATORS = {"LT": mqc.MQCFOP_LESS, "GT": mqc.MQCFOP_GREATER, "EQ": mqc.MQCFOP_EQUAL,
             "NE": mqc.MQCFOP_NOT_EQUAL, "NL": mqc.MQCFOP_NOT_LESS,
             "NG": mqc.MQCFOP_NOT_GREATER, "LK": mqc.MQCFOP_LIKE, "NK": mqc.MQCFOP_NOT_LIKE,
             "CT": mqc.MQCFOP_CONTAINS, "EX": mqc.MQCFOP_EXCLUDES,
             "CTG": mqc.MQCFOP_CONTAINS_GEN, "EXG": mqc.MQCFOP_EXCLUDES_GEN}

_N = None  # a number, no words
#: Status keywords: (parameter, words or None for numbers, text?).
STATUS_KEYWORDS: dict[str, dict[str, tuple[int, dict[str, int] | None, bool]]] = {
    "QSTATUS": {
        "CURDEPTH": (mqc.MQIA_CURRENT_Q_DEPTH, _N, False),
        "IPPROCS": (mqc.MQIA_OPEN_INPUT_COUNT, _N, False),
        "OPPROCS": (mqc.MQIA_OPEN_OUTPUT_COUNT, _N, False),
        "UNCOM": (mqc.MQIACF_UNCOMMITTED_MSGS, {"NO": 0}, False),
        "MSGAGE": (mqc.MQIACF_OLDEST_MSG_AGE, _N, False),
        "MONQ": (mqc.MQIA_MONITORING_Q, reverse(MONITORING), False),
        "CURFSIZE": (mqc.MQIACF_CUR_Q_FILE_SIZE, _N, False),
        "CURMAXFS": (mqc.MQIACF_CUR_MAX_FILE_SIZE, _N, False),
        "APPLTAG": (mqc.MQCACF_APPL_TAG, _N, True),
        "CHANNEL": (mqc.MQCACH_CHANNEL_NAME, _N, True),
        "CONNAME": (mqc.MQCACH_CONNECTION_NAME, _N, True),
    },
    "CHSTATUS": {
        "STATUS": (mqc.MQIACH_CHANNEL_STATUS, reverse(CHANNEL_STATUS), False),
        "SUBSTATE": (mqc.MQIACH_CHANNEL_SUBSTATE, reverse(CHANNEL_SUBSTATE), False),
        "CHLTYPE": (mqc.MQIACH_CHANNEL_TYPE, reverse(CHANNEL_TYPE), False),
        "MSGS": (mqc.MQIACH_MSGS, _N, False),
        "BATCHES": (mqc.MQIACH_BATCHES, _N, False),
        "BYTSSENT": (mqc.MQIACH_BYTES_SENT, _N, False),
        "BYTSRCVD": (mqc.MQIACH_BYTES_RECEIVED, _N, False),
        "BUFSSENT": (mqc.MQIACH_BUFFERS_SENT, _N, False),
        "BUFSRCVD": (mqc.MQIACH_BUFFERS_RECEIVED, _N, False),
        "CURSEQNO": (mqc.MQIACH_CURRENT_SEQ_NUMBER, _N, False),
        "LSTSEQNO": (mqc.MQIACH_LAST_SEQ_NUMBER, _N, False),
        "MONCHL": (mqc.MQIA_MONITORING_CHANNEL, reverse(MONITORING), False),
        "XMITQ": (mqc.MQCACH_XMIT_Q_NAME, _N, True),
        "CONNAME": (mqc.MQCACH_CONNECTION_NAME, _N, True),
        "RQMNAME": (mqc.MQCA_REMOTE_Q_MGR_NAME, _N, True),
    },
}


def _split(text: str) -> tuple[str, str, str]:
    parts = [p for p in text.replace(",", " ").split(" ") if p]
    if len(parts) < 3:
        raise ValueError(f"WHERE({text}): give keyword, operator and value")
    keyword, op, value = parts[0].upper(), parts[1].upper(), " ".join(parts[2:])
    if value.startswith("'") and value.endswith("'") and len(value) >= 2:
        value = value[1:-1].replace("''", "'")
    return keyword, op, value


def where_filter(kind: str, text: str) -> Parameter:
    """The MQCFIF/MQCFSF of WHERE(`text`) on a DISPLAY of `kind` (QSTATUS, CHSTATUS, QMGR,
    CHANNEL, or a queue kind)."""
    keyword, op_word, value = _split(text)
    op = OPERATORS.get(op_word)
    if op is None:
        raise ValueError(f"WHERE: {op_word} is not an operator ({', '.join(OPERATORS)})")
    status = STATUS_KEYWORDS.get(kind)
    if status is not None:
        if keyword not in status:
            raise ValueError(f"WHERE: DISPLAY {kind} cannot filter on {keyword}")
        pid, words, is_text = status[keyword]
        if is_text:
            return StringFilter(pid, op, value)
        return IntegerFilter(pid, op, _number(keyword, value, words))
    table = table_for("QLOCAL" if kind in ("QUEUE", "QCLUSTER") else kind)
    a = table.get(keyword)
    if a is None:
        raise ValueError(f"WHERE: DISPLAY {kind} cannot filter on {keyword}")
    if a.kind in (STR, LIST):
        return StringFilter(a.param, op, value)
    if a.kind == INT:
        return IntegerFilter(a.param, op, _number(keyword, value, None))
    return IntegerFilter(a.param, op, _number(keyword, value, dict(a.words)))


def _number(keyword: str, value: str, words: dict[str, int] | None) -> int:
    if words and value.upper() in words:
        return words[value.upper()]
    try:
        return int(value)
    except ValueError:
        known = f" ({', '.join(words)})" if words else ""
        raise ValueError(f"WHERE: {keyword} {value}: not a value of {keyword}{known}") from None
