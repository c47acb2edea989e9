"""Issue 17, class 12: every client-connection option is honoured or refused with a sentence.

The honoured ones are checked where they land — in the MQCD, MQSCO, MQCSP and MQCNO options
that `MQTransport` hands to pymqi (the fake pymqi of tests/support records them); the
refused ones as a user meets them (`python -m mqroute trace ...` in a subprocess: exit 2,
one line, no traceback). Passwords never appear in any output or repr.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from mqroute.main import main
from pcf import mqc
from tests.support.fake_pymqi import make_fake_pymqi
from traceroute.mq import client as client_module
from traceroute.mq.client import MQTransport
from traceroute.mq.options import ConnectionOptionError, client_connection, password_for
from traceroute.mq.transport import Connection
from traceroute.sim.mqsc import parse_mqsc
from traceroute.sim.simulator import Simulator

ROOT = Path(__file__).resolve().parents[3]
DEMO = resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc").read_text()
SECRET = "s3cr3t-Pa55"
TRACE = ["trace", "-m", "QM1", "-q", "TARG.AT.QM2", "-rq", "ACTIV.REPLY.Q", "-v", "none"]


# --- the rules, as a pure function ----------------------------------------------------


def test_client_only_options_imply_client():
    for kw in ({"channel": "APP.SVRCONN", "conname": "h(1414)"}, {"ccdt": "file:///t.json"},
               {"key_repository": "/var/mqm/ssl/key"}):
        assert client_connection("QM1", environ={}, **kw).client


def test_user_alone_stays_in_bindings():
    conn = client_connection("QM1", user="app", environ={})
    assert (conn.client, conn.user) == (False, "app")


@pytest.mark.parametrize("kw, words", [
    ({"ccdt": "file:///t.json", "cipher": "TLS_AES_128_GCM_SHA256"}, "--cipher"),
    ({"ccdt": "file:///t.json", "cert_label": "me"}, "--cert-label"),
    ({"ccdt": "file:///t.json", "channel": "A", "conname": "h(1)"}, "--channel and --conname"),
    ({"channel": "APP.SVRCONN"}, "--channel and --conname go together"),
    ({"conname": "h(1414)"}, "--channel and --conname go together"),
    ({"channel": "A" * 21, "conname": "h(1)"}, "at most 20"),
    ({"cipher": "TLS_AES_128_GCM_SHA256"}, "--cipher needs a client channel"),
    ({"client": True, "cert_label": "me"}, "--cert-label needs a client channel"),
])
def test_refused_combinations_say_why(kw, words):
    with pytest.raises(ConnectionOptionError, match=words):
        client_connection("QM1", environ={}, **kw)


def test_cipher_with_mqserver_takes_mqserver_channel():
    env = {"MQSERVER": "APP.SVRCONN/TCP/mq.example(1414)"}
    conn = client_connection("QM1", cipher="TLS_AES_256_GCM_SHA384", cert_label="me",
                             environ=env)
    assert (conn.client, conn.channel, conn.conname, conn.cipher_spec, conn.cert_label) == \
        (True, "APP.SVRCONN", "mq.example(1414)", "TLS_AES_256_GCM_SHA384", "me")
    for bad in ("nonsense", "A/LU62/x", "/TCP/h(1)"):
        with pytest.raises(ConnectionOptionError, match="MQSERVER"):
            client_connection("QM1", cipher="X", environ={"MQSERVER": bad})


def test_password_sources():
    conn = Connection("QM1", user="app")
    assert password_for(conn, environ={"MQROUTE_PASSWORD": SECRET}).password == SECRET
    asked = password_for(conn, environ={}, ask=lambda prompt: SECRET, terminal=lambda: True)
    assert asked.password == SECRET
    with pytest.raises(ConnectionOptionError, match="MQROUTE_PASSWORD"):
        password_for(conn, environ={}, terminal=lambda: False)

    def eof(prompt: str) -> str:
        raise EOFError

    with pytest.raises(ConnectionOptionError, match="no password"):
        password_for(conn, environ={}, ask=eof, terminal=lambda: True)
    assert password_for(Connection("QM1"), environ={}).password == ""
    assert SECRET not in repr(asked) and SECRET not in str(asked)


# --- honoured: what reaches pymqi --------------------------------------------------------


def _fake():
    return make_fake_pymqi(Simulator(parse_mqsc(DEMO)))


def test_transport_puts_every_option_where_mq_reads_it(monkeypatch):
    fake = _fake()
    monkeypatch.setenv("MQCCDTURL", "file:///old.json")
    conn = Connection("QM1", client=True, channel="APP.SVRCONN", conname="h(1414)",
                      user="app", password=SECRET, cipher_spec="TLS_AES_256_GCM_SHA384",
                      key_repository="/var/mqm/ssl/key", cert_label="mylabel")
    options = MQTransport.connect(conn, pymqi=fake).qm.connect_options
    cd, sco = options["cd"], options["sco"]
    assert options["opts"] == mqc.MQCNO_CLIENT_BINDING
    assert (cd.SSLCipherSpec, cd.CertificateLabel) == (b"TLS_AES_256_GCM_SHA384", b"mylabel")
    assert cd.Version >= 11  # CertificateLabel exists in MQCD from version 11
    assert sco.KeyRepository == b"/var/mqm/ssl/key"
    assert (options["user"], options["password"]) == ("app", SECRET)

    ccdt = Connection("QM1", client=True, ccdt_url="file:///new.json",
                      key_repository="/k/key")
    options = MQTransport.connect(ccdt, pymqi=fake).qm.connect_options
    assert os.environ["MQCCDTURL"] == "file:///new.json"  # the option wins over the old value
    assert "cd" not in options and options["sco"].KeyRepository == b"/k/key"


def test_user_in_local_bindings_is_sent(monkeypatch):
    options = MQTransport.connect(Connection("QM1", user="app", password=SECRET),
                                  pymqi=_fake()).qm.connect_options
    assert options["opts"] == mqc.MQCNO_NONE
    assert (options["user"], options["password"]) == ("app", SECRET)


@pytest.fixture
def connected(monkeypatch):
    """Run the CLI against the fake pymqi; collect every transport it connects."""
    fake = _fake()
    made: list[MQTransport] = []
    real = MQTransport.connect.__func__

    def connect(cls, conn, pymqi=None):
        t = real(cls, conn, pymqi=fake)
        made.append(t)
        return t

    monkeypatch.setattr(MQTransport, "connect", classmethod(connect))
    monkeypatch.setattr(client_module, "load_pymqi", lambda: fake)
    return made


def test_cli_honours_tls_options_over_mqserver(connected, monkeypatch, capsys):
    monkeypatch.setenv("MQSERVER", "APP.SVRCONN/TCP/mq.example(1414)")
    monkeypatch.setenv("MQROUTE_PASSWORD", SECRET)
    status = main([*TRACE, "--cipher", "TLS_AES_256_GCM_SHA384", "--cert-label", "me",
                   "--key-repository", "/k/key", "--user", "app"])
    out, err = capsys.readouterr()
    assert status == 0, err
    options = connected[0].qm.connect_options
    assert options["opts"] == mqc.MQCNO_CLIENT_BINDING
    assert options["cd"].ChannelName == b"APP.SVRCONN"
    assert options["cd"].ConnectionName == b"mq.example(1414)"
    assert options["cd"].SSLCipherSpec == b"TLS_AES_256_GCM_SHA384"
    assert options["sco"].KeyRepository == b"/k/key"
    assert options["password"] == SECRET and SECRET not in out + err


def test_cli_channel_implies_client(connected, capsys):
    assert main([*TRACE, "--channel", "APP.SVRCONN", "--conname", "h(1414)"]) == 0
    assert connected[0].qm.connect_options["opts"] == mqc.MQCNO_CLIENT_BINDING


# --- refused: as a user meets it ----------------------------------------------------------


def _cli(*words: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("MQSERVER", "MQROUTE_PASSWORD", "MQCCDTURL")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "mqroute", *words], capture_output=True,
                          text=True, timeout=120, env=environ, stdin=subprocess.DEVNULL,
                          cwd=ROOT, start_new_session=True)  # no controlling terminal


@pytest.mark.parametrize("extra, words", [
    (["--ccdt", "file:///t.json", "--cipher", "TLS_AES_128_GCM_SHA256"], "--ccdt"),
    (["--channel", "APP.SVRCONN"], "go together"),
    (["-c", "--cipher", "TLS_AES_128_GCM_SHA256"], "needs a client channel"),
    (["--cert-label", "me", "--ccdt", "x.json"], "--cert-label cannot be used with --ccdt"),
    (["--user", "app"], "no password: set MQROUTE_PASSWORD"),
])
def test_cli_refusals(extra, words):
    done = _cli(*TRACE, *extra)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr and words in done.stderr
    assert done.stderr.count("\n") == 1 and done.stdout == ""


def test_cli_connection_options_refused_with_network():
    done = _cli("trace", "--network", "demo", "-q", "TARG.AT.QM2", "--user", "app", "-c")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "-c, --user: no meaning with --network" in done.stderr


def test_password_never_echoed_even_when_connecting_fails():
    done = _cli(*TRACE, "--user", "app", "--channel", "A", "--conname", "h(1)",
                env={"MQROUTE_PASSWORD": SECRET})
    assert "Traceback" not in done.stderr and done.returncode == 2
    assert SECRET not in done.stdout + done.stderr
