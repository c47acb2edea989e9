"""IBM's `ibmmq` preferred, pymqi the fallback: which module MQTransport loads, what it
says when neither can be used, and a whole trace through a fake of each."""

from __future__ import annotations

import sys
import types
from importlib import resources

import pytest

from pcf import mqc
from tests.support.fake_ibmmq import Importer, make_fake_ibmmq
from tests.support.fake_pymqi import make_fake_pymqi
from traceroute.mq import client
from traceroute.mq.client import MQTransport, PymqiMissing, load_mq_client
from traceroute.mq.collect import Source, collect, send_trace
from traceroute.mq.transport import Connection
from traceroute.records.tracemsg import TraceOptions
from traceroute.routes import Verdict
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

EXAMPLE = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()


@pytest.fixture
def sim():
    return Simulator(parse_mqsc(EXAMPLE, source="qm1_qm2.mqsc"), seed=1)


@pytest.fixture
def clean(monkeypatch):
    """No real or cached client modules, no choice in the environment."""
    for name in ("ibmmq", "pymqi"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delenv(client.CLIENT_VARIABLE, raising=False)
    monkeypatch.delenv("MQIPY_NOOTEL", raising=False)
    return monkeypatch


def _install(monkeypatch, modules) -> Importer:
    importer = Importer(modules)
    monkeypatch.setattr(sys, "meta_path", [importer, *sys.meta_path])
    return importer


def test_ibmmq_is_preferred(clean, sim):
    importer = _install(clean, {"ibmmq": lambda: make_fake_ibmmq(sim),
                                "pymqi": lambda: make_fake_pymqi(sim)})
    module = load_mq_client()
    assert module.__name__ == "ibmmq" and importer.imported == ["ibmmq"]
    assert module.CMQXC.MQCHT_CLNTCONN == mqc.MQCHT_CLNTCONN
    assert module.ibmmqc.__version__ == module.__version__
    # MQIPY_NOOTEL was set before the import: ibmmq hooked no OpenTelemetry into the MQI
    assert module.otel_hooked is False
    import os

    assert os.environ["MQIPY_NOOTEL"] == "true"


def test_a_user_choice_of_otel_is_kept(clean, sim):
    clean.setenv("MQIPY_NOOTEL", "false")  # any value: ibmmq's hooks stay off, as ibmmq reads it
    _install(clean, {"ibmmq": lambda: make_fake_ibmmq(sim)})
    load_mq_client()
    import os

    assert os.environ["MQIPY_NOOTEL"] == "false"


def test_pymqi_when_ibmmq_is_not_installed(clean, sim):
    clean.setitem(sys.modules, "ibmmq", None)
    _install(clean, {"pymqi": lambda: make_fake_pymqi(sim)})
    assert load_mq_client().__name__ == "pymqi"


def test_the_environment_picks_one(clean, sim):
    importer = _install(clean, {"ibmmq": lambda: make_fake_ibmmq(sim),
                                "pymqi": lambda: make_fake_pymqi(sim)})
    clean.setenv(client.CLIENT_VARIABLE, "pymqi")
    assert load_mq_client().__name__ == "pymqi" and importer.imported == ["pymqi"]
    clean.setenv(client.CLIENT_VARIABLE, "mqseries")
    with pytest.raises(PymqiMissing, match="one of ibmmq, pymqi"):
        load_mq_client()


def test_neither_installed(clean):
    clean.setitem(sys.modules, "ibmmq", None)
    clean.setitem(sys.modules, "pymqi", None)
    with pytest.raises(PymqiMissing, match=r"ibmmq or pymqi is not installed: pip install "
                                           r"'mqroute\[mq\]' \(IBM's ibmmq"):
        load_mq_client()


def test_missing_client_library_then_pymqi(clean, sim):
    def broken():
        raise ImportError("libmqm_r.so: cannot open shared object file")

    _install(clean, {"ibmmq": broken, "pymqi": lambda: make_fake_pymqi(sim)})
    assert load_mq_client().__name__ == "pymqi"  # ibmmq's C module could not load: fall back
    clean.delitem(sys.modules, "pymqi")
    clean.setitem(sys.modules, "pymqi", None)
    with pytest.raises(PymqiMissing, match=r"ibmmq could not load the IBM MQ client library "
                                           r"\(libmqm_r.so"):
        load_mq_client()


def test_a_shadowing_module_is_named(clean, sim, tmp_path):
    shadow = types.ModuleType("ibmmq")
    shadow.__file__ = str(tmp_path / "ibmmq.py")  # e.g. the user's own script of that name
    clean.setitem(sys.modules, "ibmmq", shadow)
    _install(clean, {"pymqi": lambda: make_fake_pymqi(sim)})
    assert load_mq_client().__name__ == "pymqi"
    clean.setitem(sys.modules, "pymqi", None)
    with pytest.raises(PymqiMissing, match=r"ibmmq.py shadows the ibmmq package \(it has no "
                                           r"QueueManager, Queue"):
        load_mq_client()


@pytest.mark.parametrize("name", ["ibmmq", "pymqi"])
def test_a_trace_through_either_client(clean, name):
    sims = {}

    def make(kind):
        def build():
            sims[kind] = sims.get(kind) or Simulator(parse_mqsc(EXAMPLE, source="x"), seed=1)
            return (make_fake_ibmmq if kind == "ibmmq" else make_fake_pymqi)(sims[kind])
        return build

    if name == "pymqi":
        clean.setitem(sys.modules, "ibmmq", None)
    _install(clean, {"ibmmq": make("ibmmq"), "pymqi": make("pymqi")})
    transport = MQTransport.connect(Connection("QM1"))
    assert transport.pymqi.__name__ == name
    opts = TraceOptions.from_dspmqrte(q="TARG.AT.QM2", rq="ACTIV.REPLY.Q")
    sent = send_trace(transport, opts, reply_q="ACTIV.REPLY.Q")
    found = collect([Source(transport, "ACTIV.REPLY.Q")], sent.msg_id, wait=10,
                    keep=lambda label, md, data: None)
    transport.close()
    (route,) = found.routes
    assert route.complete and route.verdict is Verdict.DISCARDED_AT_TARGET
    assert [a.qmgr for a in route.activities] == ["QM1", "QM1", "QM2"]
