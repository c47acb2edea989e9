"""DISPLAY CHSTATUS's BYTSSENT/BYTSRCVD/BUFSSENT/BUFSRCVD and DISPLAY QSTATUS's CURFSIZE/
CURMAXFS from the simulated command server: expected values computed here from IBM's sizes
(MQXQH 428 bytes with its MQMD version 1; MQMD version 2 364 bytes; 512-byte blocks; DEFAULT
= 2,088,960 MB) and the documented models (traceroute/sim/cmdserver/flows.py,
traceroute/sim/qfile.py), read back byte by byte from the responses; the flow model
reproduces seed 002's channel accounting example number for number."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pcf import mqc
from pcf.mqmd import MQMD
from tests.support import pcfbytes as b
from tests.traceroute.sim.cmdserver.test_command_server import NET, ask, q_name
from traceroute.sim.cmdserver import attach, flows
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

XQH = 428            # IBM: MQXQH_LENGTH_1 (the MQXQH, its MQMD version 1 included)
SEGMENT_DATA = 32_768 - 28
START = (472, 2)     # the start exchange, each way: bytes, buffers


@pytest.fixture
def sim():
    net = parse_mqsc(NET)
    parse_mqsc("DEFINE QLOCAL(R)", qmgr="QM2", network=net)  # QM2's replies come here
    s = Simulator(net, seed=5)
    attach(s)
    return s


def channel_counts(sim, qmgr: str, channel: str) -> dict[int, int]:
    """The four counts of a channel instance, read from the response's bytes."""
    _, [(_md, data)] = ask(sim, mqc.MQCMD_INQUIRE_CHANNEL_STATUS, [
        b.cfst(mqc.MQCACH_CHANNEL_NAME, channel.encode()),
        b.cfil(mqc.MQIACH_CHANNEL_INSTANCE_ATTRS, [mqc.MQIACF_ALL])], qmgr=qmgr)
    params = {pid: (kind, v) for kind, pid, v in b.read_parameters(data)}
    # MQIACH_BYTES_SENT 1535, _RECEIVED 1536, MQIACH_BUFFERS_SENT 1538, _RECEIVED 1539
    assert all(params[p][0] == 3 for p in (1535, 1536, 1538, 1539))  # MQCFT_INTEGER
    return {p: params[p][1] for p in (1535, 1536, 1538, 1539)} | {
        "batches": params[mqc.MQIACH_BATCHES][1], "msgs": params[mqc.MQIACH_MSGS][1]}


def test_a_channel_instance_counts_what_it_sends_and_receives(sim):
    sizes = [3, 1_000, 40_000]  # the last one needs two buffers
    for n in sizes:
        assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"m" * n).ok
    sim.run()
    assert sim.depth("QM2", "APP.C") == 3
    sender = channel_counts(sim, "QM1", "QM1.TO.QM2")
    batches = sender["batches"]
    assert sender["msgs"] == 3 and batches >= 1
    on_wire = [XQH + n for n in sizes]
    buffers = [math.ceil(w / SEGMENT_DATA) for w in on_wire]
    assert buffers == [1, 1, 2]
    sent = START[0] + sum(on_wire) + 28 * sum(buffers)
    assert sender == {1535: sent, 1536: START[0] + 28 * batches,
                      1538: START[1] + sum(buffers), 1539: START[1] + batches,
                      "batches": batches, "msgs": 3}
    receiver = channel_counts(sim, "QM2", "QM1.TO.QM2")  # the other end, mirrored
    assert (receiver[1535], receiver[1536], receiver[1538], receiver[1539]) == (
        sender[1536], sender[1535], sender[1539], sender[1538])


def test_a_new_instance_starts_counting_again(sim):
    assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"m" * 100).ok
    sim.run()
    assert channel_counts(sim, "QM1", "QM1.TO.QM2")[1535] > START[0]
    sim.stop_channel("QM1", "QM1.TO.QM2")
    sim.run()
    sim.start_channel("QM1", "QM1.TO.QM2")
    sim.run()
    again = channel_counts(sim, "QM1", "QM1.TO.QM2")
    assert (again[1535], again[1536], again[1538], again[1539]) == (
        START[0], START[0], START[1], START[1])
    assert again["msgs"] == 0


def test_the_flow_model_gives_seed_002s_channel_accounting_example():
    """Seed 002's receiver: 1,102 messages of 4,572 bytes in 335 batches; buffers sent 337,
    total bytes sent 9,852; total bytes received 5,043,520 (with 1,272 buffers, 168 of them
    control buffers the model does not produce)."""
    receiver = flows.Traffic()
    receiver.start()
    message = 4_572 - flows.TSH  # the message as on the transmission queue
    out_bytes, out_bufs, back_bytes, back_bufs = flows.batch_flows([message] * 1_102, 335)
    receiver.bytes_sent += back_bytes
    receiver.bufs_sent += back_bufs
    receiver.bytes_rcvd += out_bytes
    receiver.bufs_rcvd += out_bufs
    assert (receiver.bufs_sent, receiver.bytes_sent) == (337, 9_852)
    assert receiver.bytes_rcvd + 168 * flows.TSH == 5_043_520
    assert receiver.bufs_rcvd + 168 == 1_272
    seed = Path(__file__).resolve().parents[4].parent / "shared" / "seeds"
    found = sorted(seed.glob("002_*.txt")) if seed.is_dir() else []
    if found:  # the numbers above are the seed's
        text = found[0].read_text(errors="replace")
        for line in ("Buffers sent             337", "Total bytes sent         9,852",
                     "Total bytes received     5,043,520", "Buffers received         1,272",
                     "Number of batches        335", "Number of messages       1,102"):
            assert line in text, line


def queue_file(sim, queue: bytes, qmgr: str = "QM1") -> tuple[int, int]:
    _, [(_md, data)] = ask(sim, mqc.MQCMD_INQUIRE_Q_STATUS, [
        q_name(queue), b.cfin(mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_STATUS)], qmgr=qmgr)
    params = {pid: v for _, pid, v in b.read_parameters(data)}
    return params[1437], params[1438]  # MQIACF_CUR_Q_FILE_SIZE, MQIACF_CUR_MAX_FILE_SIZE


def test_queue_file_sizes(sim):
    assert queue_file(sim, b"APP.A") == (0, 2_088_960)  # empty; IBM: a new default queue
    for _ in range(3):
        assert sim.put("QM1", "APP.A", MQMD(), b"x" * 100).ok
    assert queue_file(sim, b"APP.A") == (1, 2_088_960)  # 3 blocks of 512: rounded up
    for _ in range(3):
        assert sim.put("QM1", "APP.A", MQMD(), b"x" * 1_048_576).ok
    blocks = 3 * 1 + 3 * math.ceil((364 + 1_048_576) / 512)
    assert queue_file(sim, b"APP.A")[0] == math.ceil(blocks * 512 / 2**20) == 4
    queue = sim.network.qmgrs["QM1"].queues["APP.A"]
    queue.attrs["MAXFSIZE"] = "100"
    assert queue_file(sim, b"APP.A")[1] == 100
    # more than 512-byte blocks allow: adopted only once the queue is empty (IBM's example)
    queue.attrs["MAXFSIZE"] = "4177920"
    assert queue_file(sim, b"APP.A")[1] == 2_088_960
    while sim.get("QM1", "APP.A") is not None:
        pass
    assert queue_file(sim, b"APP.A") == (0, 4_177_920)
    assert sim.put("QM1", "APP.A", MQMD(), b"x" * 700).ok  # 364 + 700 bytes: one 1024 block
    assert queue_file(sim, b"APP.A") == (1, 4_177_920)
    queue.attrs["MAXFSIZE"] = "DEFAULT"  # the block in use stays
    assert queue_file(sim, b"APP.A") == (1, 4_177_920)


def test_a_transmission_queue_file_holds_the_transmission_headers(sim):
    sim.stop_channel("QM1", "QM1.TO.QM2")
    for _ in range(2):
        assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"y" * 600_000).ok
    sim.run()
    per = math.ceil((364 + XQH + 600_000) / 512) * 512
    assert queue_file(sim, b"QM2") == (math.ceil(2 * per / 2**20), 2_088_960)


def test_an_estate_folder_keeps_the_counts(tmp_path):
    from traceroute.sim.estate import Estate

    Estate.create(tmp_path / "e", parse_mqsc(NET))
    with Estate.open(tmp_path / "e") as e:
        assert e.sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"z" * 2_000).ok
        e.sim.run(until=e.sim.now + 5)
        queue = e.sim.network.qmgrs["QM1"].queues["APP.B"]
        queue.attrs["MAXFSIZE"] = "4177920"
        before = e.server.monitor.channel_status("QM1", "QM1.TO.QM2")
        assert e.server.monitor.queue_file("QM1", "APP.B") == (0, 4_177_920)
    with Estate.open(tmp_path / "e") as e:
        after = e.server.monitor.channel_status("QM1", "QM1.TO.QM2")
        assert e.server.monitor.queues[("QM1", "APP.B")].block == 1024
    assert (after.bytssent, after.bytsrcvd, after.bufssent, after.bufsrcvd) == (
        before.bytssent, before.bytsrcvd, before.bufssent, before.bufsrcvd)
    assert before.bytssent == START[0] + XQH + 2_000 + 28


def test_runmqsc_displays_and_filters_them(tmp_path):
    from datetime import UTC, datetime

    from traceroute.sim.estate import Estate
    from traceroute.sim.estate.runmqsc import run_mqsc

    t0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    Estate.create(tmp_path / "e", parse_mqsc(NET), now=t0)
    with Estate.open(tmp_path / "e", now=t0) as e:
        assert e.sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"z" * 72).ok
        e.sim.run(until=e.sim.now + 5)
        text = "\n".join(run_mqsc(e, "QM1", "DISPLAY CHSTATUS(*) WHERE(BYTSSENT GT 1000)\n"
                                  "DISPLAY CHSTATUS(*) WHERE(BYTSSENT GT 999)\n"
                                  "DISPLAY CHSTATUS(*) BYTSSENT BUFSRCVD\n"
                                  "DISPLAY QSTATUS(APP.A) CURFSIZE CURMAXFS\n").lines)
    first, second = text.split(": DISPLAY CHSTATUS(*) WHERE(BYTSSENT GT 999)")
    assert "AMQ8417I" not in first and "AMQ8417I" in second  # 472 + 428 + 72 + 28 = 1000
    assert "BYTSSENT(1000)" in text and "BUFSRCVD(3)" in text  # 2 start + 1 confirmation
    assert "CURFSIZE(0)" in text and "CURMAXFS(2088960)" in text


def test_an_instance_ended_by_discint_starts_afresh(sim):
    """After DISCINT seconds without a message the instance ends normally (no current
    status at either end); the next message starts a new one: MSGS, bytes, buffers and
    CHSTADA/CHSTATI from its start, the sequence number going on. (Before, the counts of
    the ended instance went on.)"""
    monitor = attach(sim).monitor
    assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"m" * 10).ok
    sim.run(until=sim.now + 30)
    first = monitor.channel_status("QM1", "QM1.TO.QM2")
    sim.run(until=sim.now + 6_000 + 60)  # DISCINT: 6000 s by default
    assert monitor.channel_status("QM1", "QM1.TO.QM2") is None
    assert monitor.channel_status("QM2", "QM1.TO.QM2") is None
    assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"m" * 10).ok
    sim.run(until=sim.now + 30)
    for qmgr in ("QM1", "QM2"):
        again = monitor.channel_status(qmgr, "QM1.TO.QM2")
        assert again.msgs == 1 and again.started > first.started
        assert sorted((again.bytssent, again.bytsrcvd)) == [472 + 28, 472 + XQH + 10 + 28]
        assert again.curseqno == 2


@pytest.mark.parametrize("receiver_hbint, beats", [(None, 3), ("600", 1), ("2000", 0)])
def test_an_idle_instance_exchanges_heartbeats(sim, receiver_hbint, beats):
    """HBINT: the larger of the two ends' (300 s by default); 1000 idle seconds give 3, 1
    or 0 heartbeats, one buffer of 28 bytes each way, counted at both ends; folded into the
    counts when the next batch goes."""
    if receiver_hbint is not None:
        sim.network.qmgrs["QM2"].channels["QM1.TO.QM2"].attrs["HBINT"] = receiver_hbint
    monitor = attach(sim).monitor
    assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"m" * 10).ok
    sim.run(until=sim.now + 30)
    busy = monitor.channel_status("QM1", "QM1.TO.QM2")
    sim.run(until=sim.now + 1_000)
    sending = monitor.channel_status("QM1", "QM1.TO.QM2")
    assert sending.status == "RUNNING"
    assert (sending.bufssent - busy.bufssent, sending.bufsrcvd - busy.bufsrcvd,
            sending.bytssent - busy.bytssent, sending.bytsrcvd - busy.bytsrcvd) == (
        beats, beats, 28 * beats, 28 * beats)
    receiving = monitor.channel_status("QM2", "QM1.TO.QM2")  # the other end, mirrored
    assert (receiving.bytssent, receiving.bufssent, receiving.bytsrcvd, receiving.bufsrcvd) \
        == (sending.bytsrcvd, sending.bufsrcvd, sending.bytssent, sending.bufssent)
    assert sim.put("QM1", "TO.QM2", MQMD(format="MQSTR"), b"m" * 10).ok
    sim.run(until=sim.now + 30)
    after = monitor.channel_status("QM1", "QM1.TO.QM2")
    assert after.bufssent == sending.bufssent + 1 and after.msgs == 2  # beats kept
    assert monitor.channel_status("QM2", "QM1.TO.QM2").bytsrcvd == after.bytssent


def test_a_full_queue_file_refuses_puts_with_2056(sim):
    """MAXFSIZE(20), IBM's smallest: 1 MB messages fill it (each 1 MB + one 512-byte block
    for its descriptor: 19 fit, the 20th would take the file past 20 MB); the put fails
    MQRC_Q_SPACE_NOT_AVAILABLE, CURFSIZE shows the file at its limit; a get makes room. A
    message for a full queue that arrives over a channel goes to the dead-letter queue with
    that reason."""
    sim.network.qmgrs["QM1"].queues["APP.A"].attrs["MAXFSIZE"] = "20"
    data = b"x" * 2**20
    reasons = [sim.put("QM1", "APP.A", MQMD(), data).reason for _ in range(20)]
    assert reasons == [0] * 19 + [mqc.MQRC_Q_SPACE_NOT_AVAILABLE]
    assert sim.depth("QM1", "APP.A") == 19
    assert queue_file(sim, b"APP.A") == (20, 20)  # 19 x (1 MB + 512) rounded up
    assert sim.get("QM1", "APP.A") is not None
    assert sim.put("QM1", "APP.A", MQMD(), data).ok
    sim.network.qmgrs["QM2"].queues["APP.C"].attrs["MAXFSIZE"] = "20"
    parse_mqsc("ALTER QMGR DEADQ(DLQ)\nDEFINE QLOCAL(DLQ)", qmgr="QM2", network=sim.network)
    for _ in range(20):
        assert sim.put("QM1", "TO.QM2", MQMD(), data).ok
    sim.run()
    assert sim.depth("QM2", "APP.C") == 19 and sim.depth("QM2", "DLQ") == 1
    md, dlh = sim.get("QM2", "DLQ")
    assert dlh[:4] == b"DLH " and int.from_bytes(
        dlh[8:12], "little" if md.encoding & 0xF == 2 else "big") \
        == mqc.MQRC_Q_SPACE_NOT_AVAILABLE  # MQDLH StrucId, Version, Reason
