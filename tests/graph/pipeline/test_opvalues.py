"""classify's flat path (opvalues.operation_tuples) gives exactly the Record path's rows.

The reference is operation_values(parse_message(...)) (tests/support/stage_reference.py): the
Record tree flattened. Both are fed the corpus the pipeline benchmark replicates and
hypothesis-made activity messages built with struct from the spec (tests/support/pcfbytes),
with repeated members, members of the wrong structure type, unknown members, missing MQMDs and
truncated data.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.pipeline.opvalues import operation_tuples
from graph.pipeline.rows import OPERATION_NAMES
from pcf import mqc
from pcf.mqmd import MQMD
from tests.support import pcfbytes as b
from tests.support.stage_reference import operation_values
from traceroute.records.parse import OPERATION_INT, OPERATION_TEXT, parse_message


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # both paths must fail alike
        return "error", type(e).__name__, str(e)


def _both(md, data, position=7):
    flat = _outcome(lambda: operation_tuples(md, data, source="src", position=position))
    tree = _outcome(lambda: list(operation_values(
        parse_message(md, data, source="src", line=position), position=position)))
    return flat, tree


def test_corpus_rows_are_the_record_paths():
    from traceroute.sim.corpus import corpus

    seen = 0
    for c in corpus(60, seed=1):
        flat, tree = _both(c.md, c.data)
        assert flat == tree
        seen += flat[0] == "ok"
    assert seen > 100


def test_one_report_by_hand():
    """A report built from the spec: the row's columns are what its members say."""
    mqmd = b.cfgr(mqc.MQGACF_MQMD, [b.cfbs(mqc.MQBACF_MSG_ID, b"\x01" * 24),
                                    b.cfbs(mqc.MQBACF_MSG_ID, b"\x02" * 24)])
    op = b.cfgr(mqc.MQGACF_OPERATION, [
        b.cfin(mqc.MQIACF_OPERATION_TYPE, mqc.MQOPER_PUT),
        b.cfst(mqc.MQCA_Q_MGR_NAME, b"QM1".ljust(48)),
        b.cfst(mqc.MQCA_Q_NAME, b"Q.A"), b.cfst(mqc.MQCA_Q_NAME, b"Q.B"),  # the last counts
        b.cfin(mqc.MQCA_REMOTE_Q_NAME, 5),  # wrong structure: ignored
        b.cfgr(mqc.MQGACF_MESSAGE, [mqmd])])
    tr = b.cfgr(mqc.MQGACF_TRACE_ROUTE, [b.cfin64(mqc.MQIACF_RECORDED_ACTIVITIES, 3),
                                         b.cfin(mqc.MQIACF_RECORDED_ACTIVITIES, 9)])
    act = b.cfgr(mqc.MQGACF_ACTIVITY, [b.cfst(mqc.MQCACF_APPL_NAME, b"amqrmppa"), op, tr])
    data = b.message([act])
    md = MQMD(format="MQADMIN", msg_id=b"\x0a" * 24, correl_id=b"\x0b" * 24, encoding=546,
              coded_char_set_id=1208)
    flat, tree = _both(md, data)
    assert flat == tree
    (row,) = flat[1]
    got = dict(zip(OPERATION_NAMES, row, strict=True))
    assert got["correl_id"] == "0b" * 24 and got["report_msg_id"] == "0a" * 24
    assert got["record_kind"] == "report" and got["appl_name"] == "amqrmppa"
    assert (got["queue_manager"], got["queue"], got["remote_queue"]) == ("QM1", "Q.B", None)
    assert (got["recorded"], got["unrecorded"], got["discontinuity"]) == (3, 0, 0)
    assert got["msg_id"] == "02" * 24 and got["has_embedded_md"] is False
    assert got["operation"] == "Put" and got["final_recorded"] is None


def test_without_an_mqmd_the_key_is_the_first_non_zero_original_msg_id():
    """As parse_message: the embedded MQMD's MsgId (else the MQMD's) of the first operation
    that has a non-zero one; no report MsgId."""
    def op(*groups):
        return b.cfgr(mqc.MQGACF_OPERATION, [b.cfgr(mqc.MQGACF_MESSAGE, [
            b.cfgr(pid, [b.cfbs(mqc.MQBACF_MSG_ID, msg_id)]) for pid, msg_id in groups])])

    zero = op((mqc.MQGACF_MQMD, bytes(24)))
    both = op((mqc.MQGACF_MQMD, b"\x01" * 24), (mqc.MQGACF_EMBEDDED_MQMD, b"\x02" * 24))
    data = b.message([b.cfgr(mqc.MQGACF_ACTIVITY, [zero, both])])
    flat, tree = _both(None, data)
    assert flat == tree
    assert {(r[0], r[2]) for r in flat[1]} == {("02" * 24, None)}


_OP_IDS = [*OPERATION_TEXT, *OPERATION_INT, mqc.MQBACF_SUB_ID, 4321]
_TEXT = st.binary(max_size=12).map(lambda t: t.replace(b"\x00", b"").rstrip() +
                                   b" " * (len(t) % 3))
_ORDER = "<"


def _leaf(pids):
    """One member: an id of `pids` as an MQCFIN, MQCFIN64, MQCFST or MQCFBS."""
    return st.one_of(
        st.builds(lambda p, v: b.cfin(p, v), st.sampled_from(pids),
                  st.integers(-(2 ** 31), 2 ** 31 - 1)),
        st.builds(lambda p, v: b.cfin64(p, v), st.sampled_from(pids),
                  st.integers(-(2 ** 63), 2 ** 63 - 1)),
        st.builds(lambda p, t, c: b.cfst(p, t, c), st.sampled_from(pids), _TEXT,
                  st.sampled_from([0, 819, 1208, 37, 65535])),
        st.builds(lambda p, v: b.cfbs(p, v), st.sampled_from(pids), st.binary(max_size=30)))


_MSG_ID = st.one_of(st.just(bytes(24)), st.binary(min_size=24, max_size=24),
                    st.binary(max_size=28))
_MD_MEMBER = st.one_of(
    st.builds(lambda v: b.cfbs(mqc.MQBACF_MSG_ID, v), _MSG_ID),
    st.builds(lambda t: b.cfst(mqc.MQBACF_MSG_ID, t), _TEXT),
    _leaf([mqc.MQBACF_CORREL_ID, mqc.MQIACF_MSG_TYPE]))
_MD_GROUP = st.builds(lambda pid, members: b.cfgr(pid, members),
                      st.sampled_from([mqc.MQGACF_MQMD, mqc.MQGACF_EMBEDDED_MQMD]),
                      st.lists(_MD_MEMBER, max_size=4))
_NOTHING = st.nothing()


def _group(pid, *members, extra=_NOTHING, max_size=6):
    """An MQCFGR of `pid`: one of each of `members` (in any order, some repeated), plus
    any number of `extra` members."""
    return st.builds(lambda required, more, order: b.cfgr(pid, [
        m for _, m in sorted(zip(order, required + more, strict=False))]),
        st.tuples(*members).map(list), st.lists(st.one_of(*members, extra), max_size=max_size),
        st.lists(st.integers(0, 99), min_size=len(members) + max_size,
                 max_size=len(members) + max_size))


_MESSAGE = _group(mqc.MQGACF_MESSAGE, _MD_GROUP,
                  extra=_leaf([mqc.MQGACF_MQMD, mqc.MQIACF_MSG_LENGTH]), max_size=3)
_OPERATION = _group(mqc.MQGACF_OPERATION, _leaf(_OP_IDS), _MESSAGE, max_size=8)
_COUNTERS = [mqc.MQIACF_RECORDED_ACTIVITIES, mqc.MQIACF_UNRECORDED_ACTIVITIES,
             mqc.MQIACF_DISCONTINUITY_COUNT, mqc.MQIACF_MAX_ACTIVITIES]
_TRACE_ROUTE = _group(mqc.MQGACF_TRACE_ROUTE, _leaf(_COUNTERS), max_size=5)
_ACTIVITY = _group(mqc.MQGACF_ACTIVITY, _OPERATION, _TRACE_ROUTE, extra=_leaf(
    [mqc.MQCACF_APPL_NAME, mqc.MQIA_APPL_TYPE, mqc.MQCACF_ACTIVITY_DESC, 4321]), max_size=4)
_HEADERS = [(b.MQCFT_REPORT, b.MQCMD_ACTIVITY_MSG), (b.MQCFT_TRACE_ROUTE, b.MQCMD_TRACE_ROUTE),
            (b.MQCFT_REPORT, b.MQCMD_TRACE_ROUTE), (21, 164)]


@st.composite
def _messages(draw):
    params = [draw(_ACTIVITY), *draw(st.lists(st.one_of(
        _ACTIVITY, _TRACE_ROUTE, _leaf([4321, mqc.MQCA_Q_MGR_NAME])), max_size=3))]
    params = draw(st.permutations(params))
    typ, command = draw(st.sampled_from(_HEADERS[:2] * 4 + _HEADERS[2:]))
    data = b.message(params, typ=typ, command=command)
    if draw(st.integers(0, 9)) == 0:
        data = data[:len(data) - draw(st.integers(1, len(data)))]  # truncated: both fail alike
    md = draw(st.one_of(st.none(), st.builds(
        lambda t, m, c, f: MQMD(msg_type=t, msg_id=m, correl_id=c, format=f, encoding=546,
                                coded_char_set_id=1208),
        st.sampled_from([mqc.MQMT_REPLY, mqc.MQMT_DATAGRAM, mqc.MQMT_REPORT]),
        st.binary(min_size=24, max_size=24), st.binary(min_size=24, max_size=24),
        st.sampled_from(["MQADMIN", "MQPCF"] * 4 + ["MQSTR"]))))
    return md, data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_messages(), st.one_of(st.none(), st.integers(0, 2 ** 40)))
def test_flat_rows_equal_the_record_paths(message, position):
    md, data = message
    flat, tree = _both(md, data, position)
    assert flat == tree
