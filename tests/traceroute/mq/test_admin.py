"""The administration client: one PCF command out, every response back, typed -- over the
simulated transport and over fakes of IBM's ibmmq and of pymqi (the same answers); the
command's bytes read back by an independent reader to the command intended; and every way a
response can go wrong (never ending, not PCF, not a response, none at all) one line, in
bounded time."""

from __future__ import annotations

from importlib import resources

import pytest

from pcf import mqc
from pcf.encoder import encode
from pcf.model import Header, Integer, Message
from pcf.mqmd import MQMD
from tests.support import pcfbytes as b
from tests.support.fake_ibmmq import make_fake_ibmmq
from tests.support.fake_pymqi import make_fake_pymqi
from traceroute.mq.admin import Admin, AdminError, PCFOverQueues
from traceroute.mq.client import MQTransport
from traceroute.mq.transport import Connection, SimTransport
from traceroute.sim.cmdserver import attach
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import COMMAND_QUEUE, Simulator, Stored, Watcher
from traceroute.status import CommandFailed

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()


def simulation(server: bool = True) -> Simulator:
    sim = Simulator(parse_mqsc(EXAMPLE + "\n* Queue manager name: QM1\nALTER QMGR MONQ(HIGH)\n"
                               "STOP CHANNEL(QM1.TO.QM2)\n"), seed=2)
    if server:
        attach(sim)
    return sim


def admin_over(kind: str, sim: Simulator, **kw) -> Admin:
    if kind == "sim":
        transport = SimTransport(sim, "QM1")
    else:
        module = make_fake_ibmmq(sim) if kind == "ibmmq" else make_fake_pymqi(sim)
        transport = MQTransport.connect(Connection("QM1"), pymqi=module)
    wait = kw.pop("wait", 30.0)
    return Admin(PCFOverQueues(transport, **kw), wait=wait)


@pytest.fixture(params=["sim", "ibmmq", "pymqi"])
def kind(request) -> str:
    return request.param


def test_the_same_answers_over_every_transport():
    def answers(kind: str):
        sim = simulation()
        sim.put("QM1", "TARG.AT.QM2", MQMD(), b"waits")
        sim.run()
        sim.now += 20
        a = admin_over(kind, sim)
        try:
            return ([s.to_json() for s in a.queue_status("QM2")],
                    [c.to_json() for c in a.channel_status("*")],
                    [d.name for d in a.queues("TARG*")], a.channel_names("QM*"),
                    a.queue_manager().attrs["MONQ"])
        finally:
            a.close()

    sim_answer = answers("sim")
    assert sim_answer[0][0]["curdepth"] == 1 and sim_answer[0][0]["msgage"] == 20
    assert sim_answer[1][0]["status"] == "STOPPED"
    assert sim_answer[2] == ["TARG.AT.QM2"] and sim_answer[4] == "HIGH"
    assert answers("ibmmq") == sim_answer
    assert answers("pymqi") == sim_answer


def test_the_command_bytes_are_the_command_intended(kind):
    sim = simulation()
    seen: list = []
    sim.add_observer(lambda call: seen.append(call) if call.verb in ("MQPUT", "MQPUT1")
                     and call.object_name == COMMAND_QUEUE else None)
    a = admin_over(kind, sim)
    a.queue_status("QM2")
    a.close()
    [call] = seen
    md, data = call.md, call.data
    assert md.msg_type == mqc.MQMT_REQUEST and md.format == "MQADMIN"
    assert md.reply_to_q.startswith("MQROUTE.ADMIN.")
    assert md.report & mqc.MQRO_PASS_DISCARD_AND_EXPIRY and md.report & mqc.MQRO_DISCARD_MSG
    assert md.expiry > 0
    order = "<" if md.encoding & 0xF == mqc.MQENC_INTEGER_REVERSED else ">"
    cfh = b.read_cfh(data, order)
    assert (cfh["Type"], cfh["Command"], cfh["Control"]) == (
        mqc.MQCFT_COMMAND, mqc.MQCMD_INQUIRE_Q_STATUS, mqc.MQCFC_LAST)
    assert b.read_parameters(data, order) == [
        (mqc.MQCFT_STRING, mqc.MQCA_Q_NAME, b"QM2".ljust(48)),
        (mqc.MQCFT_INTEGER, mqc.MQIACF_Q_STATUS_TYPE, mqc.MQIACF_Q_STATUS),
        (mqc.MQCFT_INTEGER_LIST, mqc.MQIACF_Q_STATUS_ATTRS, [mqc.MQIACF_ALL])]
    # the temporary reply queue is gone with the connection
    assert not [q for q in sim.network.qmgrs["QM1"].queues if q.startswith("MQROUTE.")]


def test_a_named_object_that_is_not_there_is_its_reason_a_generic_one_nothing(kind):
    a = admin_over(kind, simulation())
    with pytest.raises(CommandFailed) as e:
        a.queue_status("NOPE")
    assert e.value.reason == mqc.MQRC_UNKNOWN_OBJECT_NAME
    assert "MQRC_UNKNOWN_OBJECT_NAME (2085)" in str(e.value)
    assert a.queue_status("NOPE.*") == [] and a.channels("NOPE*") == []
    assert a.channel_status("QM2.TO.QM1") == []  # defined, never ran: no status
    a.close()


def test_changes_are_their_own_methods(kind):
    sim = simulation()
    a = admin_over(kind, sim)
    a.start_channel("QM1.TO.QM2")
    assert "QM1.TO.QM2" not in sim.network.qmgrs["QM1"].stopped
    with pytest.raises(CommandFailed) as e:
        a.start_channel("QM1.TO.QM2")
    assert e.value.reason == mqc.MQRCCF_CHANNEL_IN_USE
    a.close()


class Rogue(Watcher):
    """A command server that answers badly: `answers(request_md)` -> [(MQMD, data)]."""

    def __init__(self, sim: Simulator, answers) -> None:
        self.sim, self.answers = sim, answers
        sim.add_watcher(self)

    def stored(self, qmgr: str, queue: str, message: Stored) -> None:
        if queue == COMMAND_QUEUE:
            self.sim.later(0.01, lambda: self.answer(qmgr))

    def answer(self, qmgr: str) -> None:
        got = self.sim.get(qmgr, COMMAND_QUEUE)
        if got is None:
            return
        md, _ = got
        for reply, data in self.answers(md):
            self.sim.put(qmgr, md.reply_to_q, reply, data)


def response(md: MQMD, control: int, *, typ: int = mqc.MQCFT_RESPONSE,
             command: int = mqc.MQCMD_INQUIRE_Q_STATUS, seq: int = 1):
    message = Message(Header(typ, command, seq, control), [Integer(mqc.MQIA_CURRENT_Q_DEPTH, 1)])
    return (MQMD(msg_type=mqc.MQMT_REPLY, format="MQADMIN", correl_id=md.msg_id),
            encode(message))


@pytest.mark.parametrize("answers, says", [
    (lambda md: [], "no response within 5 s"),
    (lambda md: [response(md, mqc.MQCFC_NOT_LAST)], "the responses never ended: 1 came"),
    (lambda md: [(MQMD(format="MQADMIN", correl_id=md.msg_id), b"\x02\x00\x00")],
     "response 1 is not PCF"),
    (lambda md: [response(md, mqc.MQCFC_LAST, typ=mqc.MQCFT_EVENT)], "not MQCFT_RESPONSE"),
    (lambda md: [response(md, mqc.MQCFC_LAST, command=mqc.MQCMD_INQUIRE_Q)],
     "answers command 13, not 41"),
    (lambda md: [response(md, mqc.MQCFC_NOT_LAST, seq=n) for n in range(1, 12)],
     "over 10 responses and still no MQCFC_LAST"),
    (lambda md: [response(md, mqc.MQCFC_LAST)], "has no MQCA_Q_NAME"),
])
def test_a_bad_or_endless_answer_is_one_line_in_bounded_time(kind, answers, says):
    sim = simulation(server=False)
    Rogue(sim, answers)
    a = admin_over(kind, sim, max_responses=10, wait=5.0)
    start = sim.now
    with pytest.raises(AdminError, match=says) as e:
        a.queue_status("QM2")
    assert "\n" not in str(e.value) and str(e.value).startswith("Inquire Queue Status to QM1")
    assert sim.now - start <= 6  # waited (virtual) seconds: bounded by --wait
    a.close()


def test_a_request_to_another_queue_managers_command_server_through_this_one():
    sim = Simulator(parse_mqsc(EXAMPLE), seed=2)
    attach(sim)
    a = Admin(PCFOverQueues(SimTransport(sim, "QM1"), target_qmgr="QM2"))
    assert a.qmgr == "QM2"
    assert [d.name for d in a.queues("TARGET.Q")] == ["TARGET.Q"]  # QM2's, over the channels
    a.close()
