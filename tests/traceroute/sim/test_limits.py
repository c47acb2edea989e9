"""Issue 35: limits and dead letters case by case, as IBM MQ documents them.

Each case puts N messages where only one fits (the target queue has MAXDEPTH(1)) and
accounts for every one of them: delivered, refused (the application's put fails),
on a dead-letter queue with an MQDLH carrying the reason, discarded (only a nonpersistent
message on an NPMSPEED(FAST) channel with no usable dead-letter queue), or waiting on the
sending transmission queue with the channel RETRYING. Nothing is lost: the counts add up
to N, and the messages that wait are all delivered once the target has room again.

The rules, from IBM MQ's documentation (checked pages named in docs/simulator.md):
* a put by an application that fails returns the reason and puts nothing anywhere
  ("Messages are not put on the dead-letter queue when the application that issued the put
  request has been notified synchronously of the problem": DeadLetterQName);
* the receiving MCA retries a put that failed because the queue is full or put-inhibited
  (MRRTY times, MRTMR apart), then puts the message on the dead-letter queue; "If the
  dead-letter queue is not available, the sending MCA leaves the message on the
  transmission queue, and the channel stops. On a fast channel, nonpersistent messages that
  cannot be written to a dead-letter queue are lost." ("What happens when a message cannot
  be delivered?"); a sender channel that ends in error goes to RETRY ("Channel errors");
* USEDLQ(NO), a DEADQ naming no queue, a queue that is not local, or a full one: no usable
  dead-letter queue;
* MAXMSGL: 2030 when the message is too big for the queue, 2031 when too big for the queue
  manager but not for the queue; a message bigger than the channel's negotiated MAXMSGL
  ("the lower of the two numbers at each end") is MQRC_MSG_TOO_BIG_FOR_CHANNEL (2218) at the
  sending end, dead-lettered there or left on the transmission queue by the same rules.
"""

from __future__ import annotations

import itertools

import pytest

from pcf import mqc
from pcf.headers import unpack_dlh
from pcf.mqmd import MQMD
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

N = 3
XMITQ = "QM2"
CHANNEL = "QM1.TO.QM2"
SPEEDS = ["FAST", "NORMAL"]
PERSISTENCE = {"persistent": mqc.MQPER_PERSISTENT, "nonpersistent": mqc.MQPER_NOT_PERSISTENT}
#: Dead-letter queue set-ups: the usable one, and each way of having none usable.
DLQS = ["usable", "none", "undefined", "not_local", "full", "usedlq_no"]


def _dlq_lines(dlq: str) -> str:
    return {
        "usable": "ALTER QMGR DEADQ(DLQ)\nDEFINE QLOCAL(DLQ)\n",
        "none": "",  # crtmqm leaves DEADQ blank
        "undefined": "ALTER QMGR DEADQ(NO.SUCH.DLQ)\n",
        "not_local": "ALTER QMGR DEADQ(DLQ)\nDEFINE QALIAS(DLQ) TARGET(ELSEWHERE)\n"
                     "DEFINE QLOCAL(ELSEWHERE)\n",
        "full": "ALTER QMGR DEADQ(DLQ)\nDEFINE QLOCAL(DLQ) MAXDEPTH(0)\n",
        "usedlq_no": "ALTER QMGR DEADQ(DLQ)\nDEFINE QLOCAL(DLQ)\n",
    }[dlq]


def estate(*, speed: str = "FAST", dlq: str = "usable", qm1: str = "", qm2: str = "",
           receiver: str = "", sender: str = "") -> str:
    """QM1 sends to QM2's TARGET (MAXDEPTH 1) through QM1.TO.QM2; both have the same
    dead-letter set-up (QM1's counts for local puts and the sending end)."""
    usedlq = " USEDLQ(NO)" if dlq == "usedlq_no" else ""
    return f"""\
* Queue manager name: QM1
{_dlq_lines(dlq)}DEFINE QLOCAL(TARGET) MAXDEPTH(1)
DEFINE QREMOTE(TARGET.AT.QM2) RNAME(TARGET) RQMNAME(QM2) XMITQ({XMITQ})
DEFINE QLOCAL({XMITQ}) USAGE(XMITQ)
DEFINE CHANNEL({CHANNEL}) CHLTYPE(SDR) CONNAME('qm2(1414)') XMITQ({XMITQ}) +
       NPMSPEED({speed}) SHORTRTY(2) SHORTTMR(30) LONGRTY(3) LONGTMR(600){usedlq} {sender}
DEFINE QLOCAL(REPLY.Q)
DEFINE QLOCAL(QM1.REPLIES) USAGE(XMITQ)
{qm1}
* Queue manager name: QM2
{_dlq_lines(dlq)}DEFINE QLOCAL(TARGET) MAXDEPTH(1)
DEFINE CHANNEL({CHANNEL}) CHLTYPE(RCVR) NPMSPEED({speed}) MRRTY(2) MRTMR(500){usedlq} {receiver}
DEFINE QREMOTE(QM1) RQMNAME(QM1) XMITQ(QM1.REPLIES)
DEFINE QLOCAL(QM1.REPLIES) USAGE(XMITQ)
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(SDR) CONNAME('qm1(1414)') XMITQ(QM1.REPLIES)
* Queue manager name: QM1
DEFINE CHANNEL(QM2.TO.QM1) CHLTYPE(RCVR)
{qm2}"""


def simulator(**kw) -> Simulator:
    return Simulator(parse_mqsc(estate(**kw), source="limits.mqsc"), seed=7)


def message(persistence: int, n: int = 0, *, report: int = 0) -> tuple[MQMD, bytes]:
    md = MQMD(persistence=persistence, format="MQSTR", report=report,
              reply_to_q="REPLY.Q" if report else "")
    return md, f"order {n}".encode()


def dead_letters(sim: Simulator, qmgr: str) -> list:
    """The MQDLHs on qmgr's dead-letter queue (DLQ), in order."""
    return [unpack_dlh(data) for _md, data in sim.browse(qmgr, "DLQ")]


def usable(dlq: str) -> bool:
    return dlq == "usable"


def outcome(sim: Simulator, *, refused: int = 0, total: int = N) -> dict[str, int]:
    """Where the `total` messages put are: counted, with discarded as what is left over."""
    where = {"delivered": sim.depth("QM2", "TARGET") + sim.depth("QM1", "TARGET"),
             "refused": refused,
             "dead_lettered": sim.depth("QM1", "DLQ") + sim.depth("QM2", "DLQ"),
             "waiting": sim.depth("QM1", XMITQ)}
    where["discarded"] = total - sum(where.values())
    assert where["discarded"] >= 0, where
    return where


# --- local puts: the application sees the reason, nothing goes anywhere else ---------------

@pytest.mark.parametrize("persistence,speed,dlq", itertools.product(
    PERSISTENCE, SPEEDS, DLQS))
def test_local_put_to_a_full_queue_is_refused(persistence, speed, dlq):
    sim = simulator(speed=speed, dlq=dlq)
    reasons = [sim.put("QM1", "TARGET", *message(PERSISTENCE[persistence], n)).reason
               for n in range(N)]
    sim.run()
    assert reasons == [0] + [mqc.MQRC_Q_FULL] * (N - 1)
    assert outcome(sim, refused=N - 1) == {"delivered": 1, "refused": N - 1,
                                           "dead_lettered": 0, "waiting": 0, "discarded": 0}


# --- remote puts: message retry, then the dead-letter rules ------------------------------

@pytest.mark.parametrize("persistence,speed,dlq", itertools.product(
    PERSISTENCE, SPEEDS, DLQS))
def test_remote_put_to_a_full_queue(persistence, speed, dlq):
    sim = simulator(speed=speed, dlq=dlq)
    calls: list = []
    sim.add_observer(calls.append)
    for n in range(N):
        assert sim.put("QM1", "TARGET.AT.QM2", *message(PERSISTENCE[persistence], n)).ok
    sim.run()
    may_discard = persistence == "nonpersistent" and speed == "FAST"
    late = N - 1
    expected = {"delivered": 1, "refused": 0, "dead_lettered": 0, "waiting": 0,
                "discarded": 0}
    if usable(dlq):
        expected["dead_lettered"] = late
    elif may_discard:
        expected["discarded"] = late
    else:
        expected["waiting"] = late
    assert outcome(sim) == expected
    assert sim.channel_status("QM1", CHANNEL) == ("RETRYING" if expected["waiting"]
                                                  else "RUNNING")
    if usable(dlq):
        for dlh in dead_letters(sim, "QM2"):
            assert (dlh.reason, dlh.dest_q_name, dlh.dest_q_mgr_name) == \
                (mqc.MQRC_Q_FULL, "TARGET", "QM2")
        assert sim.depth("QM1", "DLQ") == 0
    # message retry: the receiving MCA tried each late message MRRTY+1 times
    failed = [c for c in calls if c.verb == "MQPUT1" and c.conn.mca and c.reason]
    assert {c.reason for c in failed} == {mqc.MQRC_Q_FULL}
    if not expected["waiting"]:
        assert len(failed) == late * 3
    else:  # and again after each channel retry while the target stays full
        assert len(failed) >= late * 3 and len(failed) % 3 == 0
        _consume_until_all_arrive(sim, expected["waiting"] + 1)


def _consume_until_all_arrive(sim: Simulator, total: int) -> None:
    """Nothing is lost: as the target is emptied the waiting messages are all delivered
    (channel retries, long retries included) and the channel runs again."""
    got = []
    for _ in range(4 * total):
        while (m := sim.get("QM2", "TARGET")) is not None:
            got.append(m[1])
        if len(got) == total:
            break
        sim.run(until=sim.now + 700)  # past the next long retry
    assert sorted(got) == [f"order {n}".encode() for n in range(total)]
    assert sim.depth("QM1", XMITQ) == 0
    assert sim.channel_status("QM1", CHANNEL) == "RUNNING"


def test_message_retry_delivers_when_room_is_made_in_time():
    sim = simulator(dlq="none", qm2=f"* Queue manager name: QM2\nALTER CHANNEL({CHANNEL}) "
                                    "CHLTYPE(RCVR) MRRTY(5) MRTMR(1000)\n")
    for n in range(2):
        assert sim.put("QM1", "TARGET.AT.QM2", *message(mqc.MQPER_PERSISTENT, n)).ok
    sim.run(until=sim.now + 1.5)  # the second message is being retried
    assert sim.depth("QM2", "TARGET") == 1 and sim.depth("QM1", XMITQ) == 0
    assert sim.get("QM2", "TARGET")[1] == b"order 0"
    sim.run()
    assert sim.get("QM2", "TARGET")[1] == b"order 1"
    assert sim.channel_status("QM1", CHANNEL) == "RUNNING"


def test_report_discard_msg_is_discarded_not_left_waiting():
    """MQRO_DISCARD_MSG: a message that cannot be delivered is discarded, whatever its
    persistence, and the channel goes on (with an exception report if one was asked)."""
    sim = simulator(dlq="none", speed="NORMAL")
    report = mqc.MQRO_DISCARD_MSG | mqc.MQRO_EXCEPTION_WITH_FULL_DATA
    for n in range(N):
        assert sim.put("QM1", "TARGET.AT.QM2",
                       *message(mqc.MQPER_PERSISTENT, n, report=report)).ok
    sim.run()
    assert outcome(sim) == {"delivered": 1, "refused": 0, "dead_lettered": 0, "waiting": 0,
                            "discarded": N - 1}
    exceptions = sim.browse("QM1", "REPLY.Q")
    assert [md.feedback for md, _ in exceptions] == [mqc.MQRC_Q_FULL] * (N - 1)
    assert sim.channel_status("QM1", CHANNEL) == "RUNNING"


def test_retries_used_up_stop_the_channel_and_keep_the_message():
    sim = simulator(dlq="none", speed="NORMAL")
    for n in range(2):
        assert sim.put("QM1", "TARGET.AT.QM2", *message(mqc.MQPER_PERSISTENT, n)).ok
    sim.run(until=sim.now + 10_000)  # SHORTRTY(2) x 30 s, LONGRTY(3) x 600 s: all used
    assert sim.channel_status("QM1", CHANNEL) == "STOPPED"
    assert sim.depth("QM1", XMITQ) == 1  # still there, for START CHANNEL
    sim.get("QM2", "TARGET")
    sim.start_channel("QM1", CHANNEL)
    sim.run()
    assert sim.depth("QM1", XMITQ) == 0 and sim.depth("QM2", "TARGET") == 1


# --- MAXMSGL: the queue's (2030), the queue manager's (2031), the channel's (2218) ---------

@pytest.mark.parametrize("setup,length,reason", [
    ("ALTER QLOCAL(TARGET) MAXMSGL(100)", 101, mqc.MQRC_MSG_TOO_BIG_FOR_Q),
    ("ALTER QLOCAL(TARGET) MAXMSGL(100)", 100, 0),
    ("ALTER QMGR MAXMSGL(32768)", 32769, mqc.MQRC_MSG_TOO_BIG_FOR_Q_MGR),
    ("ALTER QMGR MAXMSGL(32768)", 32768, 0),
    # too big for both: the queue's reason ("2031 ... but not too big for the queue")
    ("ALTER QMGR MAXMSGL(32768)\nALTER QLOCAL(TARGET) MAXMSGL(100)", 40000,
     mqc.MQRC_MSG_TOO_BIG_FOR_Q),
    # a remote put: the transmission queue's MAXMSGL counts the MQXQH (428 bytes)
    (f"ALTER QLOCAL({XMITQ}) MAXMSGL(1000)", 1000 - 428 + 1, mqc.MQRC_MSG_TOO_BIG_FOR_Q),
    (f"ALTER QLOCAL({XMITQ}) MAXMSGL(1000)", 1000 - 428, 0),
])
def test_maxmsgl_of_queue_and_queue_manager(setup, length, reason):
    sim = simulator(qm1=setup)
    queue = "TARGET.AT.QM2" if XMITQ in setup else "TARGET"
    calls: list = []
    sim.add_observer(calls.append)
    md, _ = message(mqc.MQPER_PERSISTENT)
    result = sim.put("QM1", queue, md, b"x" * length)
    sim.run()
    assert result.reason == reason
    put = next(c for c in calls if c.verb == "MQPUT1")
    assert put.reason == reason  # what activity trace shows of the put
    assert sim.depth("QM1", "DLQ") == 0  # an application's failed put goes nowhere


@pytest.mark.parametrize("dlq", ["usable", "none"])
def test_maxmsgl_of_the_target_at_the_receiving_end(dlq):
    """2030 is not one of message retry's reasons: dead-lettered at once, or it waits."""
    sim = simulator(dlq=dlq, qm2="* Queue manager name: QM2\nALTER QLOCAL(TARGET) "
                                 "MAXMSGL(100)\n")
    calls: list = []
    sim.add_observer(calls.append)
    assert sim.put("QM1", "TARGET.AT.QM2", MQMD(persistence=mqc.MQPER_PERSISTENT),
                   b"x" * 101).ok
    sim.run()
    failed = [c for c in calls if c.verb == "MQPUT1" and c.conn.mca and c.reason]
    if dlq == "usable":
        assert [d.reason for d in dead_letters(sim, "QM2")] == [mqc.MQRC_MSG_TOO_BIG_FOR_Q]
        assert len(failed) == 1  # no message retry
    else:
        assert sim.depth("QM1", XMITQ) == 1
        assert sim.channel_status("QM1", CHANNEL) == "RETRYING"


@pytest.mark.parametrize("persistence,speed,dlq,where", [
    ("persistent", "FAST", "usable", "dead_lettered"),
    ("nonpersistent", "NORMAL", "usable", "dead_lettered"),
    ("persistent", "FAST", "none", "waiting"),
    ("nonpersistent", "NORMAL", "none", "waiting"),
    ("nonpersistent", "FAST", "none", "discarded"),
    ("persistent", "NORMAL", "usedlq_no", "waiting"),
])
@pytest.mark.parametrize("end", ["sender", "receiver"])
def test_message_too_big_for_the_channel(persistence, speed, dlq, where, end):
    """The channel's MAXMSGL is the smaller of its two ends' (set at either end here):
    2218 at the sending end, on the sending queue manager's dead-letter queue."""
    sim = simulator(speed=speed, dlq=dlq, **{end: "MAXMSGL(1000)"})
    md, _ = message(PERSISTENCE[persistence])
    assert sim.put("QM1", "TARGET.AT.QM2", md, b"small").ok
    assert sim.put("QM1", "TARGET.AT.QM2", md, b"x" * 1000).ok  # 1000 + MQXQH > 1000
    sim.run()
    counts = outcome(sim, total=2)
    assert counts["delivered"] == 1 and sim.get("QM2", "TARGET")[1] == b"small"
    assert counts[where] == 1 and counts["refused"] == 0, counts
    if where == "dead_lettered":
        (dlh,) = dead_letters(sim, "QM1")  # the sending end's
        assert (dlh.reason, dlh.dest_q_name, dlh.dest_q_mgr_name) == \
            (mqc.MQRC_MSG_TOO_BIG_FOR_CHANNEL, "TARGET", "QM2")
    status = sim.channel_status("QM1", CHANNEL)
    assert status == ("RETRYING" if where == "waiting" else "RUNNING")


# --- one case, every view: trace-route reply, activity reports, activity trace ------------

def _watched(case: str):
    """A filler fills TARGET, then a message with activity reports and a trace-route
    message (persistent, Deliver=YES, reply, no discard) follow it: dead-lettered (a usable
    dead-letter queue), retried until room is made ('retried'), or backed out and waiting
    (no dead-letter queue)."""
    from traceroute.records.tracemsg import TraceOptions, build_trace_message
    from traceroute.sim.activity_trace import ActivityTracer

    tracing = ("* Queue manager name: QM1\nALTER QMGR ACTVTRC(ON)\n"
               "* Queue manager name: QM2\nALTER QMGR ACTVTRC(ON)\n")
    sim = simulator(dlq="usable" if case == "dead" else "none", speed="NORMAL", qm2=tracing)
    tracer = ActivityTracer(sim)
    sim.put("QM1", "TARGET.AT.QM2", *message(mqc.MQPER_PERSISTENT))
    sim.run()
    md, data = message(mqc.MQPER_PERSISTENT, 1, report=mqc.MQRO_ACTIVITY)
    tracked = sim.put("QM1", "TARGET.AT.QM2", md, data, appl_name="orders").msg_id
    opts = TraceOptions.from_dspmqrte(q="TARGET.AT.QM2", rq="REPLY.Q", ac=True, ar=True,
                                      d="yes", l="yes", ro="none")
    tmd, tdata = build_trace_message(opts, msg_id=sim.new_msg_id("QM1"))
    assert sim.put("QM1", "TARGET.AT.QM2", tmd, tdata, appl_name="dspmqrte").ok
    if case == "retried":  # room made while the receiving MCA retries (MRRTY 2, 500 ms)
        sim.run(until=sim.now + 0.4)
        assert sim.get("QM2", "TARGET")[1] == b"order 0"
        sim.run(until=sim.now + 0.2)
        assert sim.get("QM2", "TARGET")[1] == b"order 1"
    sim.run()
    sim.disconnect_all()
    return sim, tracer, tracked, tmd.msg_id


@pytest.mark.parametrize("case", ["dead", "retried", "waiting"])
def test_every_view_tells_the_same_story(case):
    from traceroute.journeys import JourneyVerdict, parse_activity_trace, reconstruct
    from traceroute.records.parse import REPLY, parse_message
    from traceroute.routes.ordering import build_routes
    from traceroute.routes.verdict import Verdict

    sim, tracer, tracked, traced = _watched(case)
    records = [parse_message(md, data) for md, data in sim.browse("QM1", "REPLY.Q")]
    routes = {r.correl_id: r for r in build_routes(records)}
    journeys = {j.msg_id: j for j in reconstruct(
        parse_activity_trace(md, d) for md, d in tracer.messages()).journeys}
    replies = [r for r in records if r.kind == REPLY]
    report_route, reply_route = routes[tracked], routes.get(traced)
    journey = journeys[tracked]
    failed = [s for s in journey.steps if s.role == "failed_put"]
    assert {s.call.reason for s in failed} == {mqc.MQRC_Q_FULL}
    if case == "dead":
        text = "on the dead-letter queue of QM2, reason MQRC_Q_FULL (2053)"
        for route in (report_route, reply_route):
            assert route.verdict is Verdict.DEAD_LETTERED and route.outcome.text == text
            assert (route.location.queue_manager, route.location.queue) == ("QM2", "DLQ")
        assert len(replies) == 1  # the reply comes from QM2, where it was dead-lettered
        assert journey.verdict is JourneyVerdict.DEAD_LETTERED
        assert (journey.last_location.queue_manager, journey.last_location.queue) == \
            ("QM2", "DLQ")
        assert len(failed) == 3  # MRRTY(2): three tries, then the dead-letter queue
        assert {d.reason for d in dead_letters(sim, "QM2")} == {mqc.MQRC_Q_FULL}
        assert sim.depth("QM2", "DLQ") == 2  # both followed messages
    elif case == "retried":
        for route in (report_route, reply_route):
            assert route.verdict is Verdict.DELIVERED, route.outcome.text
            assert (route.location.queue_manager, route.location.queue) == ("QM2", "TARGET")
        assert journey.verdict is JourneyVerdict.CONSUMED and 1 <= len(failed) <= 2
        assert [s.role for s in journey.steps][-2:] == ["mca_put", "get"]
    else:
        # the sending MCA reported each attempt; no receiving MCA ever reported: the route
        # ends on QM1's transmission queue and channel, where the message waits
        assert report_route.location.queue_manager == "QM1"
        assert report_route.location.queue == XMITQ
        assert report_route.location.channel == CHANNEL
        assert reply_route is None and not replies  # the trace-route message waits too
        assert journey.verdict is JourneyVerdict.ON_XMITQ
        assert (journey.last_location.queue_manager, journey.last_location.queue) == \
            ("QM1", XMITQ)
        assert sim.depth("QM1", XMITQ) == 2
        assert sim.channel_status("QM1", CHANNEL) == "RETRYING"


def test_watchers_see_the_message_come_back_and_the_channel_retry():
    from traceroute.sim.simulator import Watcher

    class Seen(Watcher):
        def __init__(self) -> None:
            self.events: list[tuple[str, str]] = []

        def stored(self, qmgr, queue, message):
            self.events.append(("stored", f"{qmgr}/{queue}"))

        def taken(self, qmgr, queue, message, *, expired):
            self.events.append(("taken", f"{qmgr}/{queue}"))

        def channel_ended(self, qmgr, channel, partner, qualifier, error, *, by_user=False):
            self.events.append((f"ended {qualifier}", channel.name))

    sim = simulator(dlq="none", speed="NORMAL")
    seen = Seen()
    sim.add_watcher(seen)
    for n in range(2):
        assert sim.put("QM1", "TARGET.AT.QM2", *message(mqc.MQPER_PERSISTENT, n)).ok
    sim.run()
    xmitq = f"QM1/{XMITQ}"
    on_xmitq = [e for e in seen.events if e[1] in (xmitq, CHANNEL)]
    retry = f"ended {mqc.MQRQ_CHANNEL_STOPPED_RETRY}"
    # two puts, both sent; the second backed out (stored again), the channel ends to retry
    assert on_xmitq[:6] == [("stored", xmitq), ("stored", xmitq), ("taken", xmitq),
                            ("taken", xmitq), ("stored", xmitq), (retry, CHANNEL)]
    depth = sum({"stored": 1, "taken": -1}.get(kind, 0)
                for kind, where in on_xmitq if where == xmitq)
    assert depth == sim.depth("QM1", XMITQ) == 1  # the watchers' count is the queue's
    sim.run(until=sim.now + 10_000)  # the retries used up
    assert seen.events[-1] == (f"ended {mqc.MQRQ_CHANNEL_STOPPED_DISABLED}", CHANNEL)
    assert sim.channel_status("QM1", CHANNEL) == "STOPPED"
