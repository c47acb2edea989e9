"""Accounting and statistics messages built from the spec with struct -> typed records."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pcf
from pcf.mqmd import MQMD
from tests.traceroute.stats.stats_pcf import CFT_ACCOUNTING, CFT_STATISTICS, Builder
from traceroute.stats import (
    ChannelStatistics,
    Kind,
    MQIAccounting,
    MQIStatistics,
    NotStatistics,
    QueueAccounting,
    QueueStatistics,
    decode_stats,
    join_sequences,
)
from traceroute.stats.params import params_for

# --- the spec's parameter lists (accounting-statistics.md §4, "In" column), by identifier ----
HEADER = [2015, 2711, 2712, 2707, 2708, 31]
MQI_COUNTERS = [733, 751, 709, 757, 727, 752, 744, 753, 735, 754, 734, 755, 748, 722, 725,
                747, 705, 708, 745, 710, 711, 704, 764, 765, 766, 786, 787, 788, 767, 768,
                769, 770, 771, 772, 773, 774, 779, 780, 781, 782, 783]
SPEC_IDS = {
    ("MA", False): [*HEADER, 7006, 1079, 3024, 1024, 1025, 3025, 2703, 2704, 3506, 3501, 3561,
                    3560, 2705, 2706, 716, *MQI_COUNTERS],
    ("MS", False): [*HEADER, 712, 749, 713, 714, *MQI_COUNTERS, 758, 760, 775, 776, 777, 778,
                    784, 785],
    ("QS", False): [*HEADER, 732],
    ("QS", True): [2016, 2004, 2005, 20, 7, 740, 739, 703, 735, 754, 734, 755, 748, 722, 747,
                   725, 705, 745, 708, 759, 758, 760],
    ("CS", False): [*HEADER, 732],
    ("CS", True): [3501, 1511, 2017, 3506, 728, 746, 731, 729, 730, 719, 717, 718, 720, 726,
                   702, 738],
    # CBCount/CBFailCount: the seed does not say whether they sit in the group; both accepted
    ("QA", False): [*HEADER, 732, 7006, 1079, 3024, 1024, 1025, 3025, 3506, 3501, 769, 770],
    ("QA", True): [2016, 2004, 2005, 20, 7, 2709, 2710, 2701, 2702, 733, 735, 754, 734, 755,
                   748, 737, 736, 722, 725, 747, 724, 723, 705, 708, 745, 707, 706, 743, 741,
                   742, 721, 769, 770],
}
CODES = {"MA": Kind.MQI_ACCOUNTING, "MS": Kind.MQI_STATISTICS, "QS": Kind.QUEUE_STATISTICS,
         "CS": Kind.CHANNEL_STATISTICS, "QA": Kind.QUEUE_ACCOUNTING}
# spec §1: (MQCFH.Type, MQCFH.Command, group)
HEADERS = {Kind.MQI_ACCOUNTING: (22, 167, None), Kind.QUEUE_ACCOUNTING: (22, 168, 8010),
           Kind.MQI_STATISTICS: (21, 164, None), Kind.QUEUE_STATISTICS: (21, 165, 8011),
           Kind.CHANNEL_STATISTICS: (21, 166, 8012)}
SHAPE_LENGTH = {"P": 2, "O": 13, "D": 3, "S": 3, "U": 2, "C": 4, "T": 4, "W": 4}
# spec §4 counts: MA 62, MS 59, QS group 22, CS group 16, QA group 30 + GeneratedMsgCount
SPEC_COUNTS = {("MA", False): 62, ("MS", False): 59, ("QS", True): 22, ("CS", True): 16}


@pytest.mark.parametrize("code,in_group", list(SPEC_IDS))
def test_parameter_table_matches_the_spec(code, in_group):
    assert sorted(params_for(CODES[code], in_group)) == sorted(SPEC_IDS[(code, in_group)])
    if (code, in_group) in SPEC_COUNTS:
        assert len(SPEC_IDS[(code, in_group)]) == SPEC_COUNTS[(code, in_group)]


def sample(param, salt: int) -> tuple[object, int | None]:
    """A distinctive value for a parameter of the table, and the string width to write."""
    s = param.structure
    if s == "MQCFST":
        if param.name.endswith("Date"):
            return f"20{salt % 90 + 10:02d}-0{salt % 9 + 1}-1{salt % 10}", 12
        if param.name.endswith("Time"):
            return f"1{salt % 10}.{salt % 60:02d}.0{salt % 10}", 8
        return f"{param.name.upper()}.{salt}", 48
    if s == "MQCFBS":
        return bytes(range(salt % 200, salt % 200 + 24)), None
    if s in ("MQCFIN", "MQCFIN64"):
        return (salt * 7919 + param.id) * (2**33 if s == "MQCFIN64" else 1), None
    n = SHAPE_LENGTH[param.shape]
    big = 2**40 if s == "MQCFIL64" else 1
    return [(salt + param.id + i) * big for i in range(n)], None


def build(b: Builder, kind: Kind, salt: int, groups: int = 1, seq: int = 1, control: int = 1,
          top_override: list[bytes] | None = None):
    """A message with every parameter of `kind`, and the values expected per record."""
    type_, command, group_id = HEADERS[kind]
    expected_top: dict[str, object] = {}
    top = []
    for p in params_for(kind, False).values():
        value, width = sample(p, salt)
        if p.id == 732:
            value = groups
        top.append(b.value(p.id, p.structure, value, width))
        expected_top[p.attr] = value
    grs, expected_groups = [], []
    if group_id is not None:
        for g in range(groups):
            members, exp = [], {}
            for p in params_for(kind, True).values():
                value, width = sample(p, salt * 1000 + g)
                members.append(b.value(p.id, p.structure, value, width))
                exp[p.attr] = value
            grs.append(b.cfgr(group_id, members))
            expected_groups.append(exp)
    data = b.message(type_, command, top_override if top_override is not None else top, grs,
                     seq, control)
    return data, expected_top, expected_groups


@pytest.mark.parametrize("order", ["<", ">"])
@pytest.mark.parametrize("kind", list(Kind))
def test_every_parameter_of_every_kind_decodes(order, kind):
    data, top, groups = build(Builder(order), kind, salt=3, groups=2)
    [joined] = list(join_sequences([decode_stats(None, data, source="t")]))
    recs = joined.records()
    assert len(recs) == max(1, len(groups))
    for i, r in enumerate(recs):
        assert r.kind is kind
        assert not r.unknown
        for attr, value in top.items():
            if groups and attr in groups[i]:
                continue  # CBCount: the group's value wins
            assert getattr(r, attr) == value, attr
        for attr, value in (groups[i] if groups else {}).items():
            assert getattr(r, attr) == value, attr
        if groups:
            assert r.group_index == i
        assert r.interval_start == f"{top['interval_start_date']}T" \
            f"{top['interval_start_time'].replace('.', ':')}"


@pytest.mark.parametrize("order,encoding,ccsid", [("<", 546, 1208), (">", 273, 819)])
def test_with_an_mqmd(order, encoding, ccsid):
    data, top, _ = build(Builder(order), Kind.MQI_STATISTICS, salt=5)
    md = MQMD(format="MQADMIN ", encoding=encoding, coded_char_set_id=ccsid)
    m = decode_stats(md, data, source="dump", line=7)
    [r] = next(join_sequences([m])).records()
    assert isinstance(r, MQIStatistics) and r.put_count == top["put_count"]
    assert r.sequence.sources == ("dump:7",)


def test_other_messages_are_not_statistics():
    b = Builder()
    event = b.message(7, 99, [b.cfin(1, 2)])
    with pytest.raises(NotStatistics):
        decode_stats(None, event)
    with pytest.raises(NotStatistics):
        decode_stats(MQMD(format="MQSTR   "), b"hello")
    data, _, _ = build(b, Kind.MQI_STATISTICS, salt=1)
    with pytest.raises(NotStatistics):
        decode_stats(MQMD(format="MQHEPCF "), data)


def test_unknown_parameters_and_other_forms_are_kept():
    b = Builder(">")
    top = [b.cfst(2015, "QM1", 48), b.cfin(31, 940), b.cfin(732, 1), b.cfin(9999, 42)]
    group = b.cfgr(8012, [b.cfst(3501, "TO.QM2", 20), b.cfin(1511, 1), b.cfin(728, 5),
                          b.cfin(746, 77),            # TotalBytes as MQCFIN, not MQCFIN64
                          b.cfil(8888, [1, 2, 3])])
    data = b.message(CFT_STATISTICS, 166, top, [group])
    [r] = next(join_sequences([decode_stats(None, data)])).records()
    assert isinstance(r, ChannelStatistics)
    assert (r.channel_name, r.channel_type, r.msg_count, r.total_bytes) == ("TO.QM2", 1, 5, 77)
    assert [(p.parameter, p.value) for p in r.unknown] == [(9999, 42), (8888, [1, 2, 3])]
    assert r.object_name == "TO.QM2" and r.queue_manager == "QM1"


def queue_stats_sequence(b: Builder, names: list[str], per_message: int = 100,
                         qmgr: str = "QM1", start: str = "10.00.00") -> list[bytes]:
    """Queue statistics for many queues, split into messages of at most `per_message`."""
    chunks = [names[i:i + per_message] for i in range(0, len(names), per_message)]
    out = []
    for n, chunk in enumerate(chunks, 1):
        top = [b.cfst(2015, qmgr, 48), b.cfst(2711, "2026-11-23", 12), b.cfst(2712, start, 8),
               b.cfst(2707, "2026-11-23", 12), b.cfst(2708, "10.30.00", 8), b.cfin(31, 940),
               b.cfin(732, len(chunk))]
        groups = [b.cfgr(8011, [b.cfst(2016, q, 48), b.cfin(20, 1), b.cfil(735, [i, 0])])
                  for i, q in enumerate(chunk)]
        out.append(b.message(CFT_STATISTICS, 165, top, groups, seq=n,
                             control=1 if n == len(chunks) else 0))
    return out


def test_sequences_of_more_than_100_queues_are_joined():
    b = Builder()
    names = [f"Q.{i:03d}" for i in range(250)]
    seq_a = queue_stats_sequence(b, names)
    seq_b = queue_stats_sequence(b, names[:120], qmgr="QM2")
    mixed = [seq_a[2], seq_b[1], seq_a[0], seq_b[0], seq_a[1]]
    joined = list(join_sequences(decode_stats(None, d) for d in mixed))
    assert [j.complete for j in joined] == [True, True]
    by_qm = {j.records()[0].queue_manager: j.records() for j in joined}
    assert [r.q_name for r in by_qm["QM1"]] == names
    assert len(by_qm["QM2"]) == 120
    assert by_qm["QM1"][0].sequence.numbers == (1, 2, 3)
    assert [r.object_count for r in by_qm["QM1"]][::100] == [100, 100, 50]


def test_incomplete_sequences_are_used_and_reported():
    b = Builder()
    names = [f"Q.{i:03d}" for i in range(250)]
    seq = queue_stats_sequence(b, names)
    [j] = list(join_sequences(decode_stats(None, d) for d in (seq[0], seq[2])))
    assert not j.complete and j.missing == ((2, 2),)
    recs = j.records()
    assert [r.q_name for r in recs] == names[:100] + names[200:]
    assert all(not r.sequence.complete and r.sequence.missing == ((2, 2),) for r in recs)
    [j] = list(join_sequences(decode_stats(None, d) for d in seq[:2]))
    assert not j.complete and j.missing == () and j.last is None


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 330), st.integers(1, 100), st.randoms(use_true_random=False),
       st.sampled_from(["<", ">"]))
def test_split_and_shuffled_sequences_give_the_unsplit_records(n, per, rnd: random.Random,
                                                               order):
    b = Builder(order)
    names = [f"Q{i}" for i in range(n)]
    whole = [r.q_name for r in next(join_sequences(
        [decode_stats(None, queue_stats_sequence(b, names, per_message=n)[0])])).records()]
    parts = queue_stats_sequence(b, names, per_message=per)
    rnd.shuffle(parts)
    joined = list(join_sequences(decode_stats(None, d) for d in parts))
    assert len(joined) == 1 and joined[0].complete
    assert [r.q_name for r in joined[0].records()] == whole == names


# --- the real vector (spec §7) -------------------------------------------------------------
VECTOR_ROWS = [  # queue suffix, CreateTime, QDefType, QMaxDepth, AvgTimeOnQ, Puts, PutBytes,
    # NonQueued
    ("SYSTEM.ADMIN.COMMAND.QUEUE", "10.09.36", 1, 0, 0, 14, 1056, 14),
    ("SYSTEM.CLUSTER.COMMAND.QUEUE", "10.09.36", 1, 0, 0, 0, 0, 0),
    ("64BE", "10.42.05", 3, 6, 1066, 13, 36432, 1),
    ("64C0", "10.42.06", 3, 1, 85, 1, 1224, 0),
    ("64C2", "10.42.06", 3, 2, 251, 2, 72, 0),
    ("64C4", "10.42.06", 3, 1, 26, 1, 1224, 0),
    ("64C6", "10.42.06", 3, 0, 0, 1, 1636, 1),
    ("64C8", "10.42.06", 3, 0, 0, 1, 356, 1),
    ("64CA", "10.42.06", 3, 0, 0, 1, 168, 1),
    ("64CF", "10.42.21", 3, 13, 2670, 13, 36432, 0),
    ("64D1", "10.42.21", 3, 1, 341, 1, 1224, 0),
    ("64D3", "10.42.21", 3, 2, 490, 2, 72, 0),
    ("64D5", "10.42.21", 3, 1, 256, 1, 1224, 0),
    ("64D7", "10.42.21", 3, 1, 268, 1, 1636, 0),
    ("64D9", "10.42.21", 3, 1, 388, 1, 356, 0),
    ("64DB", "10.42.21", 3, 1, 276, 1, 168, 0),
]


def test_real_statistics_vector(vectors):
    data = (vectors / "pymqi" / "statistics_q.dat").read_bytes()
    m = decode_stats(None, data, source="statistics_q.dat")
    assert (m.header.type, m.header.command, m.header.msg_seq_number, m.header.control) == \
        (21, 165, 1, 1)
    [j] = list(join_sequences([m]))
    recs = j.records()
    assert len(recs) == 16 and j.complete
    for r, row in zip(recs, VECTOR_ROWS, strict=True):
        assert isinstance(r, QueueStatistics) and not r.unknown
        assert (r.queue_manager, r.interval_start, r.interval_end, r.command_level,
                r.object_count) == ("mq_mgr1", "2020-06-15T10:41:58", "2020-06-15T10:42:28",
                                    911, 16)
        name, ctime, qdt, qmax, avg, puts, put_bytes, nonq = row
        assert r.q_name.endswith(name)
        assert (r.create_date, r.create_time, r.q_type, r.q_definition_type) == \
            ("2020-06-15", ctime, 1, qdt)
        assert (r.q_min_depth, r.q_max_depth, r.avg_time_on_q) == (0, qmax, [avg, 0])
        assert (r.put_count, r.get_count, r.put_bytes, r.get_bytes) == \
            ([puts, 0], [puts, 0], [put_bytes, 0], [put_bytes, 0])
        assert (r.put1_count, r.browse_count, r.browse_bytes) == ([0, 0], [0, 0], [0, 0])
        assert (r.put_fail_count, r.put1_fail_count, r.browse_fail_count,
                r.expired_msg_count, r.purge_count) == (0, 0, 0, 0, 0)
        assert r.non_queued_msg_count == nonq
        assert r.get_fail_count == (1 if name == "SYSTEM.CLUSTER.COMMAND.QUEUE" else 0)
    assert recs[2].q_name == "MQAI.REPLY.5EE748E023EA64BE"


@pytest.mark.parametrize("name", ["pymqi_issue204_statistics_q_TRUNCATED.bin",
                                  "pymqi_issue75_accounting_mqi_TRUNCATED.bin"])
def test_truncated_vectors_fail_with_an_offset(vectors, name):
    data = (vectors / "partial" / name).read_bytes()
    with pytest.raises(pcf.PCFError) as e:
        decode_stats(None, data)
    assert 0 < e.value.offset <= len(data)


def test_record_types():
    assert {Kind.MQI_ACCOUNTING: MQIAccounting, Kind.QUEUE_ACCOUNTING: QueueAccounting,
            Kind.CHANNEL_STATISTICS: ChannelStatistics}[Kind.QUEUE_ACCOUNTING].KIND \
        is Kind.QUEUE_ACCOUNTING
    assert CFT_ACCOUNTING == 22


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(Kind)), st.integers(0, 2**32 - 1), st.data())
def test_mutated_messages_fail_cleanly(kind, seed, data):
    """Any mutation of a valid message: records, NotStatistics or PCFError with an offset."""
    from traceroute.display.amqsmon import record_to_json, render_amqsmon

    raw = bytearray(build(Builder(data.draw(st.sampled_from("<>"))), kind, salt=seed % 97,
                          groups=2)[0])
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    try:
        m = decode_stats(None, bytes(raw[:cut] if data.draw(st.booleans()) else raw))
    except NotStatistics:
        return
    except pcf.PCFError as e:
        assert e.offset is not None and 0 <= e.offset <= len(raw)
        return
    for j in join_sequences([m]):
        recs = j.records()
        list(render_amqsmon(recs))
        for r in recs:
            record_to_json(r)


def test_a_group_where_a_value_belongs_is_kept_as_unknown():
    b = Builder()
    data = b.message(CFT_STATISTICS, 164, [b.cfgr(2015, [b.cfin(1, 2)]), b.cfin(31, 940)])
    [r] = next(join_sequences([decode_stats(None, data)])).records()
    assert r.queue_manager is None and r.command_level == 940
    assert [p.parameter for p in r.unknown] == [2015]
