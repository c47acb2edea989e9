"""traceroute.status: values <-> PCF response parameters both ways (what the simulated
command server writes, the client reads back), MQSC attributes <-> PCF for every object
type crtmqm makes, WHERE filters, runmqsc's layout and the one-line explanations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from pcf.decoder import decode
from pcf.encoder import encode
from pcf.model import Header, IntegerFilter, Message, StringFilter
from traceroute.sim.crtmqm import QMGR_DEFAULTS, SYSTEM_OBJECTS, type_default
from traceroute.status import ChannelStatus, QmgrStatus, QueueStatus
from traceroute.status import responses as resp
from traceroute.status.attributes import from_parameters, to_parameters
from traceroute.status.display import (
    columns,
    definition_items,
    item,
    qmstatus_items,
    queue_status_items,
)
from traceroute.status.explain import QUEUE, XMITQ, Stop, explain
from traceroute.status.values import Definition
from traceroute.status.where import where_filter

WORDS = ["RUNNING", "STOPPED", "RETRYING", "INACTIVE", "BINDING", "PAUSED"]
names = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/%", min_size=1, max_size=48)
moments = st.none() | st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 1, 1)
                                   ).map(lambda d: d.replace(microsecond=0, tzinfo=UTC))
pairs = st.none() | st.tuples(st.integers(0, 999_999_999), st.integers(0, 999_999_999))


def through_bytes(parameters) -> Message:
    """Parameters as a response, encoded and decoded again (big-endian, EBCDIC: not ours)."""
    message = Message(Header(mqc.MQCFT_RESPONSE, 41), parameters)
    data = encode(message, encoding=mqc.MQENC_NORMAL, ccsid=500)
    return decode(data, encoding=mqc.MQENC_NORMAL, ccsid=500)


@settings(max_examples=60, deadline=None)
@given(names, st.integers(0, 999_999_999), st.integers(0, 99), st.integers(0, 99),
       st.sampled_from(["OFF", "LOW", "MEDIUM", "HIGH"]), st.none() | st.integers(0, 999_999_999),
       pairs, moments, moments, st.none() | st.integers(0, 267_386_880))
def test_queue_status_round_trip(name, depth, ipprocs, opprocs, monq, age, qtime, put, got,
                                 fsize):
    s = QueueStatus("QM1", name, depth, ipprocs, opprocs, 0, monq, age, qtime, put, got,
                    fsize, None if fsize is None else 2_088_960)
    assert resp.queue_status_from(through_bytes(resp.queue_status_parameters(s)), "QM1") == s


@settings(max_examples=60, deadline=None)
@given(names.map(lambda n: n[:20]), st.sampled_from(["SDR", "RCVR", "SVR", "CLUSSDR"]),
       st.sampled_from(WORDS), st.integers(0, 10**6), pairs, pairs, moments, moments,
       st.none() | st.tuples(*[st.integers(0, 999_999_999)] * 4))
def test_channel_status_round_trip(name, chltype, status, msgs, xq, net, last, started,
                                   traffic):
    c = ChannelStatus("QM1", name, chltype, status, "CURRENT", "MQGET", "host(1414)", "XQ",
                      "QM2", msgs, msgs // 50, 0, msgs, msgs, False, False, "HIGH", xq, net,
                      last, started, None, None, None, *(traffic or (None,) * 4))
    assert resp.channel_status_from(through_bytes(resp.channel_status_parameters(c)),
                                    "QM1") == c


def test_dates_travel_in_the_queue_managers_time_zone():
    paris = timezone(timedelta(hours=1))
    s = QueueStatus("QM1", "Q", 1, last_put=datetime(2026, 11, 28, 23, 30, tzinfo=UTC))
    parameters = resp.queue_status_parameters(s, paris)
    [date] = [p.value for p in parameters if p.parameter == mqc.MQCACF_LAST_PUT_DATE]
    [time] = [p.value for p in parameters if p.parameter == mqc.MQCACF_LAST_PUT_TIME]
    assert (date, time) == ("2026-11-29", "00.30.00")  # as DISPLAY QSTATUS shows them there
    back = resp.queue_status_from(Message(Header(2, 41), parameters), "QM1", paris)
    assert back.last_put == s.last_put
    assert back.to_json()["last_put"] == "2026-11-28T23:30:00Z"


def test_the_json_objects_are_the_contracts():
    q = QueueStatus("QM1", "Q", 3, 1, 0, 0, "HIGH", 41, (5, 6))
    assert list(q.to_json()) == ["queue_manager", "object_type", "name", "curdepth", "ipprocs",
                                 "opprocs", "uncom", "msgage", "qtime", "last_put", "last_get"]
    c = ChannelStatus("QM1", "C", "SDR")
    assert list(c.to_json()) == ["queue_manager", "object_type", "name", "chltype", "status",
                                 "substate", "conname", "xmitq", "msgs", "batches", "xqtime",
                                 "nettime", "last_msg"]
    assert c.to_json()["status"] == "INACTIVE" and q.to_json()["qtime"] == [5, 6]


@pytest.mark.parametrize("kind, subtype", [
    ("QLOCAL", ""), ("QREMOTE", ""), ("QALIAS", ""), ("QMODEL", ""),
    *(("CHANNEL", t) for t in ("SDR", "RCVR", "SVR", "RQSTR", "CLUSSDR", "CLUSRCVR", "SVRCONN")),
])
def test_every_default_attribute_round_trips_through_pcf(kind, subtype):
    attrs = type_default(kind, {"CHLTYPE": subtype} if subtype else {})
    parameters, left = to_parameters(kind, attrs)
    back = from_parameters(kind, through_bytes(parameters).parameters)
    assert back == {k: v for k, v in attrs.items() if k not in left}
    assert len(left) <= 5, left  # the few with no PCF parameter here


def test_the_queue_managers_attributes_and_the_system_objects_round_trip():
    parameters, left = to_parameters("QMGR", dict(QMGR_DEFAULTS))
    back = from_parameters("QMGR", parameters)
    assert back == {k: v for k, v in QMGR_DEFAULTS.items() if k not in left}
    for (kind, name), own in SYSTEM_OBJECTS.items():
        if kind in ("QLOCAL", "QREMOTE", "QALIAS", "QMODEL", "CHANNEL"):
            attrs = {**type_default(kind, own), **own}
            parameters, left = to_parameters(kind, attrs)
            assert from_parameters(kind, parameters) == \
                {k: v for k, v in attrs.items() if k not in left}, name


def test_readonly_attributes_can_be_left_out():
    parameters, _ = to_parameters("QMGR", {"CMDLEVEL": "940", "DEADQ": "DLQ"})
    assert from_parameters("QMGR", parameters, readonly=False) == {"DEADQ": "DLQ"}


@pytest.mark.parametrize("kind, text, expected", [
    ("QSTATUS", "CURDEPTH GT 0", IntegerFilter(mqc.MQIA_CURRENT_Q_DEPTH, mqc.MQCFOP_GREATER, 0)),
    ("CHSTATUS", "STATUS EQ STOPPED",
     IntegerFilter(mqc.MQIACH_CHANNEL_STATUS, mqc.MQCFOP_EQUAL, mqc.MQCHS_STOPPED)),
    ("QLOCAL", "DESCR LK 'Order*'", StringFilter(mqc.MQCA_Q_DESC, mqc.MQCFOP_LIKE, "Order*")),
    ("QLOCAL", "USAGE EQ XMITQ", IntegerFilter(mqc.MQIA_USAGE, mqc.MQCFOP_EQUAL, 1)),
    ("CHANNEL", "XMITQ EQ QM2", StringFilter(mqc.MQCACH_XMIT_Q_NAME, mqc.MQCFOP_EQUAL, "QM2")),
])
def test_where_becomes_the_pcf_filter(kind, text, expected):
    assert where_filter(kind, text) == expected


@pytest.mark.parametrize("kind, text, says", [
    ("QSTATUS", "CURDEPTH", "keyword, operator and value"),
    ("QSTATUS", "CURDEPTH XX 1", "not an operator"),
    ("QSTATUS", "NOPE EQ 1", "cannot filter on NOPE"),
    ("CHSTATUS", "STATUS EQ SLEEPY", "not a value of STATUS"),
])
def test_a_bad_where_says_why(kind, text, says):
    with pytest.raises(ValueError, match=says):
        where_filter(kind, text)


def test_runmqsc_layout_and_hostile_names_stay_on_one_line():
    s = QueueStatus("QM1", "A", 2, monq="OFF")
    assert columns(queue_status_items(s, {"CURDEPTH"})) == [
        "   QUEUE(A)                                TYPE(QUEUE)", "   CURDEPTH(2)"]
    assert item("DESCR", "evil)\nQUEUE(X") == "DESCR('evil)\\x0aQUEUE(X')"
    # a blank value shows as DESCR( ), as runmqsc shows it
    d = Definition("QM1", "QLOCAL", "Q", {"SHARE": "NO", "TRIGGER": "YES", "DESCR": ""})
    assert definition_items(d) == ["QUEUE(Q)", "TYPE(QLOCAL)", "NOSHARE", "TRIGGER", "DESCR( )"]


def test_explanations_in_one_line():
    q = QueueStatus("QM1", "QM2", 8, monq="MEDIUM", msgage=41)
    c = ChannelStatus("QM1", "QM1.TO.QM2", "SDR", "STOPPED")
    assert explain(Stop(XMITQ, "QM1", "QM2", "QM1.TO.QM2"), queue=q, channel=c) == (
        "channel QM1.TO.QM2 is STOPPED; transmission queue QM2 holds 8 messages, the oldest "
        "41 s old")
    off = QueueStatus("QM1", "QM2", 1)
    assert explain(Stop(XMITQ, "QM1", "QM2"), queue=off) == (
        "no sender channel serves transmission queue QM2; transmission queue QM2 holds 1 "
        "message (MONQ is OFF: their age is not measured)")
    target = QueueStatus("QM2", "APP", 3, 0, monq="HIGH", msgage=7)
    assert explain(Stop(QUEUE, "QM2", "APP"), queue=target) == (
        "queue APP on QM2 holds 3 messages, the oldest 7 s old; no application has it open "
        "for input (IPPROCS 0)")
    assert "not running (INACTIVE" in explain(Stop(XMITQ, "QM1", "QM2", "C"), queue=q)


def test_no_two_keywords_of_a_table_share_a_parameter():
    from traceroute.status.attributes import TABLES

    for kind, table in TABLES.items():
        seen: dict[int, str] = {}
        for keyword, a in table.items():
            assert a.param not in seen, f"{kind}: {keyword} and {seen.get(a.param)}"
            seen[a.param] = keyword


def test_bytes_buffers_and_queue_file_travel_as_ibm_names_them():
    """BYTSSENT ... BUFSRCVD and CURFSIZE/CURMAXFS are MQCFIN under IBM's identifiers (checked
    against the numbers of IBM's cmqcfc.h, not only our constants); counts past 999,999,999
    travel wrapped as IBM's Inquire Channel Status response says; a response without them
    (an older queue manager, a SAVED instance) reads back as None."""
    c = ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING", bytssent=1_000_000_123,
                      bytsrcvd=472, bufssent=7, bufsrcvd=3)
    got = {p.parameter: (p.STRUCTURE, p.value) for p in resp.channel_status_parameters(c)}
    assert {k: got[k] for k in (1535, 1536, 1538, 1539)} == {
        1535: ("MQCFIN", 123), 1536: ("MQCFIN", 472), 1538: ("MQCFIN", 7),
        1539: ("MQCFIN", 3)}
    back = resp.channel_status_from(through_bytes(resp.channel_status_parameters(c)), "QM1")
    assert (back.bytssent, back.bytsrcvd, back.bufssent, back.bufsrcvd) == (123, 472, 7, 3)
    saved = ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING", "SAVED", bytssent=5)
    assert resp.channel_status_from(through_bytes(resp.channel_status_parameters(saved)),
                                    "QM1").bytssent is None
    q = QueueStatus("QM1", "APP.Q", 3, curfsize=1, curmaxfs=2_088_960)
    got = {p.parameter: (p.STRUCTURE, p.value) for p in resp.queue_status_parameters(q)}
    assert (got[1437], got[1438]) == (("MQCFIN", 1), ("MQCFIN", 2_088_960))
    plain = QueueStatus("QM1", "APP.Q", 3)
    assert not {1437, 1438} & {p.parameter for p in resp.queue_status_parameters(plain)}
    assert resp.queue_status_from(through_bytes(resp.queue_status_parameters(plain)),
                                  "QM1") == plain


def test_a_64_bit_counter_is_read_too():
    from pcf.model import Integer64

    params = resp.channel_status_parameters(ChannelStatus("QM1", "C", "SDR", "RUNNING"))
    params.append(Integer64(mqc.MQIACH_BYTES_SENT, 5_000_000_000))
    assert resp.channel_status_from(through_bytes(params), "QM1").bytssent == 5_000_000_000


def test_runmqsc_shows_and_filters_them():
    from traceroute.status.display import channel_status_items

    c = ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING", bytssent=900, bytsrcvd=500,
                      bufssent=3, bufsrcvd=2)
    shown = channel_status_items(c, None)
    at = shown.index("BATCHES( )")
    assert shown[at + 1:at + 5] == ["BUFSRCVD(2)", "BUFSSENT(3)", "BYTSRCVD(500)",
                                    "BYTSSENT(900)"]
    assert "BYTSSENT(900)" in channel_status_items(c, ["BYTSSENT"])
    assert "BYTSSENT" not in " ".join(channel_status_items(
        ChannelStatus("QM1", "TO.QM2", "SDR", "RUNNING", "SAVED", bytssent=9), None))
    q = queue_status_items(QueueStatus("QM1", "Q", 1, curfsize=1, curmaxfs=100))
    assert q[-2:] == ["CURFSIZE(1)", "CURMAXFS(100)"]
    assert "CURFSIZE" not in " ".join(queue_status_items(QueueStatus("QM1", "Q", 1)))
    assert where_filter("CHSTATUS", "BYTSSENT GT 1000") == IntegerFilter(
        mqc.MQIACH_BYTES_SENT, mqc.MQCFOP_GREATER, 1000)
    assert where_filter("QSTATUS", "CURFSIZE NL 1") == IntegerFilter(
        mqc.MQIACF_CUR_Q_FILE_SIZE, mqc.MQCFOP_NOT_LESS, 1)


# --- DISPLAY QMSTATUS (Inquire Queue Manager Status) -------------------------------------------

_QMSTATUS = st.builds(
    QmgrStatus, st.sampled_from(["QM1", "QM.X_1"]),
    st.sampled_from([mqc.MQQMSTA_STARTING, mqc.MQQMSTA_RUNNING, mqc.MQQMSTA_QUIESCING]),
    start=st.none() | st.datetimes(datetime(2000, 1, 1), datetime(2099, 1, 1)).map(
        lambda d: d.replace(microsecond=0, tzinfo=UTC)),
    connections=st.none() | st.integers(0, 999_999),
    command_server=st.none() | st.integers(0, 3), channel_initiator=st.none() | st.integers(0, 3),
    installation_name=st.sampled_from(["", "Installation1"]),
    installation_path=st.sampled_from(["", "/opt/mqm"]),
    host_name=st.sampled_from(["", "mq-host.example"]))


@given(_QMSTATUS, st.sampled_from([UTC, timezone(timedelta(hours=-5))]))
@settings(max_examples=60, deadline=None)
def test_qmgr_status_round_trips_through_pcf_and_rest(s, tz):
    from traceroute.rest import objects

    message = decode(encode(Message(Header(mqc.MQCFT_RESPONSE, mqc.MQCMD_INQUIRE_Q_MGR_STATUS,
                                           1, mqc.MQCFC_LAST),
                                    resp.qmgr_status_parameters(s, tz))))
    assert resp.qmgr_status_from(message, "QM1", tz) == s
    assert objects.qmgr_status_of(objects.qmgr_status_json(s, tz), "QM1", tz) == s


def test_qmgr_status_reads_ibm_shapes():
    # StartDate / StartTime as IBM gives them: MQCFST yyyy-mm-dd, hh.mm.ss in the queue
    # manager's zone; ConnectionCount etc. MQCFIN
    from pcf.model import Integer, String
    m = Message(Header(mqc.MQCFT_RESPONSE, mqc.MQCMD_INQUIRE_Q_MGR_STATUS, 1, mqc.MQCFC_LAST), [
        String(mqc.MQCA_Q_MGR_NAME, "QM1", width=48), Integer(mqc.MQIACF_Q_MGR_STATUS, 2),
        String(mqc.MQCACF_Q_MGR_START_DATE, "2026-11-22", width=12),
        String(mqc.MQCACF_Q_MGR_START_TIME, "05.00.00", width=8),
        Integer(mqc.MQIACF_CONNECTION_COUNT, 23)])
    s = resp.qmgr_status_from(m, "QM1", timezone(timedelta(hours=-5)))
    assert s.start == datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
    assert (s.status, s.connections, s.command_server) == (2, 23, None)


def test_display_qmstatus_items_as_runmqsc_shows_them():
    s = QmgrStatus("QM1", mqc.MQQMSTA_RUNNING, datetime(2026, 11, 22, 10, 0, tzinfo=UTC), 7,
                   mqc.MQSVC_STATUS_RUNNING, mqc.MQSVC_STATUS_STOPPED, "Installation1",
                   "/opt/mqm")
    assert qmstatus_items(s) == ["QMNAME(QM1)", "STATUS(RUNNING)"]
    assert qmstatus_items(s, {"CONNS", "STARTDA"}) == [
        "QMNAME(QM1)", "STATUS(RUNNING)", "CONNS(7)", "STARTDA(2026-11-22)"]
    every = qmstatus_items(s, None)
    assert "CHINIT(STOPPED)" in every and "CMDSERV(RUNNING)" in every
    assert "STARTTI(10.00.00)" in every and "INSTNAME(Installation1)" in every
