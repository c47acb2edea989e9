"""MQSC word attributes as a queue manager takes them: every attribute whose value is one of
a fixed set of words (`traceroute.status.attributes.words`: DEFPSIST, USAGE, SCOPE, DEFBIND,
MONQ, TRIGTYPE, NPMSPEED, PUT/GET ...) takes each of its words, in any case; another word
makes that command (and only that one) fail as runmqsc does, naming file, line, column, the
attribute and the words it takes -- through `Session`, `mqroute audit --mqsc` and
`mqroute sim runmqsc`; the command server's Change commands refuse a number that stands for
none of the words with IBM's reason."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcf import mqc
from pcf.model import Integer, IntegerList, String
from tests.traceroute.sim.cmdserver.test_change_commands import (  # noqa: F401 (sim: fixture)
    _change,
    _channel_type,
    _stored,
    run,
    sim,
)
from tests.traceroute.sim.test_mqsc_numbers import _cli, _setup, _value
from traceroute.events.objects import other_words
from traceroute.sim.crtmqm import (
    CHANNEL_DEFAULTS,
    KNOWN_KEYWORDS,
    QMGR_DEFAULTS,
    SYSTEM_OBJECTS,
    TYPE_DEFAULTS,
)
from traceroute.sim.mqsc import OK, SYNTAX, Session
from traceroute.sim.mqsc.syntax import SYNTAX_ERROR
from traceroute.sim.network import QUEUE_KINDS
from traceroute.status.attributes import (
    CHANNEL,
    QMGR,
    QUEUE,
    UNCHECKED_WORDS,
    WORD,
    WORDS,
    word_problem,
    words,
)

KINDS = (*QUEUE_KINDS, "CHANNEL", "QMGR", "TOPIC", "SUB", "LISTENER", "SERVICE", "AUTHINFO")


def checked(kind: str) -> dict:
    """The word attributes MQSC checks for `kind` (queues, channels, the queue manager,
    topics, subscriptions: the status tables; listeners, services, authinfo: events')."""
    return words(kind) or other_words(kind)


#: (AUTHINFO's AUTHTYPE is fixed once defined: test_authinfo_types)
CASES = [(kind, keyword) for kind in KINDS for keyword in sorted(checked(kind))
         if _setup(kind, keyword) is not None and (kind, keyword) != ("AUTHINFO", "AUTHTYPE")]


def _run(kind: str, keyword: str, values: list[str]) -> tuple[Session, list]:
    """Define the object, ALTER it once per value, then define another object."""
    define, alter = _setup(kind, keyword)  # type: ignore[misc]
    alters = "".join(f"{alter} {keyword}({v})\n" for v in values)
    session = Session(qmgr="QM1")
    return session, session.run(f"{define}{alters}DEFINE QLOCAL(AFTER)\n", "conf.mqsc")


def test_every_kind_has_words_checked():
    assert {kind for kind, _ in CASES} == set(KINDS)
    assert len(CASES) >= 150
    for kind, keyword in (("QLOCAL", "DEFPSIST"), ("QLOCAL", "USAGE"), ("QLOCAL", "SCOPE"),
                          ("QLOCAL", "DEFBIND"), ("QLOCAL", "MONQ"), ("QLOCAL", "TRIGTYPE"),
                          ("QLOCAL", "PUT"), ("QLOCAL", "GET"), ("CHANNEL", "NPMSPEED"),
                          ("CHANNEL", "MCATYPE"), ("QMGR", "MONQ"), ("TOPIC", "DEFPSIST"),
                          ("SUB", "PSPROP")):
        assert (kind, keyword) in CASES


@pytest.mark.parametrize(("kind", "keyword"), CASES)
def test_each_word_is_taken_in_any_case(kind, keyword):
    a = checked(kind)[keyword]
    values = list(a.words) + [w.lower() for w in a.words] + [w.title() for w in a.words]
    if a.kind == WORDS:
        values.append(",".join(reversed(list(a.words))).lower())
    session, outcomes = _run(kind, keyword, values)
    assert [o.status for o in outcomes] == [OK] * len(outcomes), \
        [o.located for o in outcomes if o.status != OK]
    last = values[-1].upper()
    assert _value(kind, keyword, session) == last  # kept as MQ keeps it: upper case


@pytest.mark.parametrize(("kind", "keyword"), CASES)
@pytest.mark.parametrize("bad", ["word", "empty", "number", "long", "list"])
def test_another_word_fails_that_command_only(kind, keyword, bad):
    a = checked(kind)[keyword]
    first = next(iter(a.words))
    value = {"word": "MAYBE", "empty": "", "number": "1", "long": "X" * 5000,
             "list": f"{first},MAYBE"}[bad]
    session, outcomes = _run(kind, keyword, [value])
    before = None if kind == "QMGR" else _value(kind, keyword, session)
    *setup, failed, after = outcomes
    assert all(o.status == OK for o in setup) and after.status == OK  # the rest applied
    assert failed.status == SYNTAX and failed.message == SYNTAX_ERROR
    e = failed.error
    line = 2 if setup else 1
    head = len(_setup(kind, keyword)[1])  # type: ignore[index]
    column = head + 2 + len(keyword)
    assert (e.source, e.line, e.column) == ("conf.mqsc", line, column)
    assert e.reason.startswith(f"{keyword}(")
    assert e.reason.endswith(f"is not a word {keyword} takes: {', '.join(a.words)}")
    assert len(e.reason) < 400
    assert failed.located.startswith(f"conf.mqsc:{line}:{column}: AMQ8405I")
    if kind == "QMGR":
        assert session.network.qmgrs["QM1"].attrs.get(keyword) != value
    else:
        assert _value(kind, keyword, session) == before != value
    assert session.summary()[1] == "One command has a syntax error."


def test_a_define_with_a_wrong_word_defines_nothing():
    session = Session(qmgr="QM1")
    outcomes = session.run("DEFINE QLOCAL(A) DEFPSIST(MAYBE)\n"
                           "DEFINE QLOCAL(B) DEFPSIST(yes)\n"
                           "DEFINE QLOCAL(C) DEFPSIST('No')\n", "a.mqsc")
    assert [o.status for o in outcomes] == [SYNTAX, OK, OK]
    assert outcomes[0].located == (
        "a.mqsc:1:26: AMQ8405I: Syntax error detected at or near end of command segment "
        "below:- (DEFPSIST(MAYBE) is not a word DEFPSIST takes: NO, YES)")
    queues = session.network.qmgrs["QM1"].queues
    assert "A" not in queues
    assert queues["B"].get("DEFPSIST") == "YES" and queues["C"].get("DEFPSIST") == "NO"


def test_words_follow_the_object_type():
    """MONQ(NONE) is the queue manager's, MONQ(QMGR) a queue's; a channel's PROPCTL has no
    FORCE (a queue's has); the flags' negative forms still read."""
    session = Session(qmgr="QM1")
    outcomes = session.run("ALTER QMGR MONQ(NONE)\nALTER QMGR MONQ(QMGR)\n"
                           "DEFINE QLOCAL(Q) MONQ(QMGR) PROPCTL(FORCE) NOSHARE NOTRIGGER\n"
                           "DEFINE QLOCAL(R) MONQ(NONE)\n"
                           "DEFINE CHANNEL(C) CHLTYPE(SDR) CONNAME('h') XMITQ(Q) "
                           "PROPCTL(FORCE)\n")
    assert [o.status for o in outcomes] == [OK, SYNTAX, OK, SYNTAX, SYNTAX]
    assert session.network.qmgrs["QM1"].queues["Q"].get("SHARE") == "NO"


def test_authinfo_types():
    session = Session(qmgr="QM1")
    outcomes = session.run("".join(f"DEFINE AUTHINFO(A{n}) AUTHTYPE({t.lower()})\n"
                                   for n, t in enumerate(checked("AUTHINFO")["AUTHTYPE"].words))
                           + "DEFINE AUTHINFO(BAD) AUTHTYPE(KERBEROS)\n")
    assert [o.status for o in outcomes] == [OK] * 4 + [SYNTAX]
    assert "AUTHTYPE(KERBEROS) is not a word AUTHTYPE takes: CRLLDAP, OCSP, IDPWOS, IDPWLDAP" \
        in outcomes[-1].error.reason


def test_unchecked_words_are_left_as_written():
    """Attributes whose word set is not known here to be complete take any word (listed in
    UNCHECKED_WORDS, so that no valid command is refused)."""
    assert UNCHECKED_WORDS["CHANNEL"] >= {"PROTOCOL"}
    session = Session(qmgr="QM1")
    outcomes = session.run("DEFINE CHANNEL(M) CHLTYPE(MQTT) PROTOCOL(MQTTV5) PORT(1883)\n"
                           "DEFINE PROCESS(P) APPLTYPE(70000)\n")
    assert [o.status for o in outcomes] == [OK, OK]


def test_crtmqm_values_are_words_mq_takes():
    """Every word crtmqm gives an object (MQ 9.4's defaults) is one of the table's words."""
    objects = [(kind, attrs) for (kind, _), (_, attrs) in TYPE_DEFAULTS.items()]
    objects += [(kind, attrs) for (kind, _), attrs in SYSTEM_OBJECTS.items()]
    objects += [("CHANNEL", attrs) for _, attrs in CHANNEL_DEFAULTS.values()]
    objects.append(("QMGR", QMGR_DEFAULTS))
    bad = [(kind, k, v) for kind, attrs in objects for k, v in attrs.items()
           if k in checked(kind) and word_problem(checked(kind)[k], v) != (None, v)]
    assert bad == []


# --- the command server ------------------------------------------------------------------

_FAMILY_KIND = {"QUEUE": "QLOCAL", "CHANNEL": "CHANNEL", "QMGR": "QMGR"}
_PCF = [(family, keyword) for family, table in (("QUEUE", QUEUE), ("CHANNEL", CHANNEL),
                                                ("QMGR", QMGR))
        for keyword, a in table.items()
        if keyword in words(_FAMILY_KIND[family]) and a.kind == WORD
        and (family != "QUEUE" or keyword in KNOWN_KEYWORDS["QLOCAL"])
        and (family != "CHANNEL" or _channel_type(keyword) is not None)]


@pytest.mark.parametrize(("family", "keyword"), _PCF)
def test_change_refuses_a_number_that_is_none_of_the_words(sim, family, keyword):  # noqa: F811
    table = {"QUEUE": QUEUE, "CHANNEL": CHANNEL, "QMGR": QMGR}[family]
    a = table[keyword]
    numbers = sorted(a.words.values())
    for good in numbers:
        answer = _change(sim, family, keyword, good)
        assert answer.header.reason == mqc.MQRC_NONE, (keyword, good)
    for bad in (max(numbers) + 1, min(numbers) - 1, 2**31 - 1, -(2**31)):
        answer = _change(sim, family, keyword, bad)
        assert answer.header.reason == a.reason, (keyword, bad)
        assert answer.header.comp_code == mqc.MQCC_FAILED
        assert Integer(mqc.MQIACF_PARAMETER_ID, a.param) in answer.parameters
    kept = next(w for w, n in a.words.items() if n == numbers[-1])
    assert _stored(sim, family, keyword) == kept  # nothing changed by the refused ones


def test_named_reasons_for_channel_and_qmgr_words():
    assert CHANNEL["NPMSPEED"].reason == mqc.MQRCCF_NPM_SPEED_ERROR
    assert CHANNEL["PUTAUT"].reason == mqc.MQRCCF_PUT_AUTH_ERROR
    assert CHANNEL["MCATYPE"].reason == mqc.MQRCCF_MCA_TYPE_ERROR
    assert CHANNEL["TRPTYPE"].reason == mqc.MQRCCF_XMIT_PROTOCOL_TYPE_ERR
    assert CHANNEL["SSLCAUTH"].reason == mqc.MQRCCF_SSL_CLIENT_AUTH_ERROR
    assert CHANNEL["CONVERT"].reason == mqc.MQRCCF_DATA_CONV_VALUE_ERROR
    assert QMGR["CHAD"].reason == mqc.MQRCCF_CHAD_ERROR
    assert QUEUE["DEFPSIST"].reason == mqc.MQRCCF_PARM_VALUE_ERROR


def test_change_refuses_a_list_item_that_is_none_of_the_words(sim):  # noqa: F811
    name = String(mqc.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER", width=20)
    kind = Integer(mqc.MQIACH_CHANNEL_TYPE, mqc.MQCHT_SENDER)
    ok = run(sim, mqc.MQCMD_CHANGE_CHANNEL, name, kind,
             IntegerList(mqc.MQIACH_MSG_COMPRESSION, [mqc.MQCOMPRESS_RLE]))
    assert ok.header.reason == mqc.MQRC_NONE
    bad = run(sim, mqc.MQCMD_CHANGE_CHANNEL, name, kind,
              IntegerList(mqc.MQIACH_MSG_COMPRESSION, [mqc.MQCOMPRESS_RLE, 12345]))
    assert bad.header.reason == mqc.MQRCCF_PARM_VALUE_ERROR


# --- through the command line ------------------------------------------------------------

BAD_FILE = ("* Queue manager name: QM1\n"
            "DEFINE QLOCAL(GOOD) DEFPSIST(yes)\n"
            "DEFINE QLOCAL(A) DEFPSIST(MAYBE)\n"
            "DEFINE QLOCAL(LATER) USAGE(NORMAL)\n")


def test_audit_and_config_name_the_wrong_word(tmp_path):
    path = tmp_path / "qm1.mqsc"
    path.write_text(BAD_FILE)
    done = _cli("audit", "--mqsc", str(path), "--json")
    assert "Traceback" not in done.stderr and done.returncode in (0, 3), done.stderr
    err = done.stderr.splitlines()
    assert err[0] == (f"mqroute: {path}:3:26: AMQ8405I: Syntax error detected at or near end "
                      "of command segment below:- (DEFPSIST(MAYBE) is not a word DEFPSIST "
                      "takes: NO, YES)")
    assert "One command has a syntax error." in done.stderr
    strict = _cli("audit", "--mqsc", str(path), "--strict")
    assert strict.returncode == 2 and strict.stdout == ""
    config = _cli("config", "-m", "QM1", "--network", str(path))
    assert config.returncode == 0, config.stderr
    assert "QLOCAL('A')" not in config.stdout and "QLOCAL('GOOD')" in config.stdout
    assert "DEFPSIST(MAYBE)" in config.stderr


def test_sim_runmqsc_refuses_a_wrong_word(tmp_path):
    estate = str(tmp_path / "estate")
    assert _cli("sim", "init", estate, "--network", "demo").returncode == 0
    done = _cli("sim", "runmqsc", estate, "QM1",
                stdin="DEFINE QLOCAL(BAD) DEFPSIST(MAYBE)\n"
                      "ALTER QMGR MONQ(QMGR)\n"
                      "DEFINE QLOCAL(FINE) defpsist(yes) trigtype(every)\n")
    assert "Traceback" not in done.stderr
    out = done.stdout + done.stderr
    assert done.stdout.count("AMQ8405I") == 2 and "AMQ8006I" in done.stdout
    assert "DEFPSIST(MAYBE) is not a word DEFPSIST takes: NO, YES" in out
    assert "MONQ(QMGR) is not a word MONQ takes: OFF, NONE, LOW, MEDIUM, HIGH" in out
    assert done.returncode != 0
    shown = _cli("sim", "runmqsc", estate, "QM1",
                 stdin="DISPLAY QLOCAL(FINE) DEFPSIST TRIGTYPE\nDISPLAY QLOCAL(BAD)\n").stdout
    assert "DEFPSIST(YES)" in shown and "TRIGTYPE(EVERY)" in shown and "AMQ8147E" in shown


# --- nothing left out unsaid -------------------------------------------------------------

def test_the_command_server_notes_what_an_answer_cannot_carry(sim):  # noqa: F811
    """A definition that reached the estate some other way than MQSC (a word PCF has no
    constant for, a keyword with no PCF parameter) is named once per object and attribute
    in `CommandServer.left_out`, not dropped unsaid."""
    from traceroute.sim.cmdserver import attach
    from traceroute.sim.network import MQObject

    qm = sim.network.qmgrs["QM1"]
    qm.queues["ODD"] = MQObject("QLOCAL", "ODD", {"DEFPSIST": "MAYBE", "MAXDEPTH": "5"})
    for _ in range(2):
        answer = run(sim, mqc.MQCMD_INQUIRE_Q, String(mqc.MQCA_Q_NAME, "ODD"))
        assert answer.header.reason == mqc.MQRC_NONE
        assert Integer(mqc.MQIA_MAX_Q_DEPTH, 5) in answer.parameters
        assert all(p.parameter != mqc.MQIA_DEF_PERSISTENCE for p in answer.parameters)
    assert list(attach(sim).left_out.values()) == [
        "QM1 QLOCAL(ODD): DEFPSIST(MAYBE) left out: DEFPSIST takes NO, YES"]


def test_config_names_each_attribute_it_cannot_write(tmp_path):
    path = tmp_path / "qm1.mqsc"
    path.write_text("* Queue manager name: QM1\n"
                    "DEFINE CHANNEL(M) CHLTYPE(MQTT) PROTOCOL(MQTTV5) PORT(1883)\n"
                    "DEFINE QLOCAL(Q) DEFPSIST(YES)\n")
    done = _cli("config", "-m", "QM1", "--network", str(path))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert ("mqroute: QM1 CHANNEL(M): PROTOCOL(MQTTV5) left out: PROTOCOL takes MQTTV3, "
            "MQTTV311, HTTP, AMQP") in lines
    assert len(lines) == len(set(lines))  # one line per object and attribute
    assert all(line.startswith("mqroute: QM1 CHANNEL(M): ") for line in lines)
    assert "DEFPSIST(YES)" in done.stdout


def test_a_rest_answer_pcf_cannot_carry_is_noted():
    """Through the REST API too: a DISPLAY answer's attribute with a word or keyword PCF has
    nothing for here is noted (one line per object and attribute), the rest converted."""
    httpx = pytest.importorskip("httpx")
    from traceroute.mq.admin import Admin
    from traceroute.mq.rest import RestCommands

    body = {"overallCompletionCode": 0, "overallReasonCode": 0, "commandResponse": [
        {"completionCode": 0, "reasonCode": 0,
         "parameters": {"queue": "A", "type": "QLOCAL", "defpsist": "MAYBE",
                        "maxdepth": 7, "newattr": "X"}}]}
    client = httpx.Client(transport=httpx.MockTransport(
        lambda request: httpx.Response(200, json=body)))
    channel = RestCommands("https://mqweb.example:9443", "QM1", user="u", password="p",
                           client=client)
    for _ in range(2):
        (q,) = Admin(channel).queues("A")
    assert q.attrs["MAXDEPTH"] == "7" and "DEFPSIST" not in q.attrs
    assert list(channel.left_out.values()) == [
        "QM1 QLOCAL(A): DEFPSIST(MAYBE) left out: DEFPSIST takes NO, YES",
        "QM1 QLOCAL(A): NEWATTR(X) left out: no PCF parameter for NEWATTR of QLOCAL here"]


def test_config_names_answer_parameters_it_has_no_keyword_for():
    """From a real queue manager (a newer MQ than these tables): a parameter of an Inquire
    answer with no MQSC keyword here is kept as `Definition.unread` and config names it."""
    from mqroute.commands.config import unread_lines
    from pcf.model import Header, Message
    from traceroute.mq.config import LiveConfig
    from traceroute.status.responses import definition_from

    answer = Message(Header(mqc.MQCFT_RESPONSE, mqc.MQCMD_INQUIRE_Q), [
        String(mqc.MQCA_Q_NAME, "A"), Integer(mqc.MQIA_Q_TYPE, mqc.MQQT_LOCAL),
        Integer(mqc.MQIA_DEF_PERSISTENCE, mqc.MQPER_PERSISTENT),
        Integer(mqc.MQIA_HIGH_Q_DEPTH, 5), Integer(99_999, 1),
        String(mqc.MQCA_Q_DESC, "x"), String(mqc.MQIA_MAX_Q_DEPTH, "lots")])
    d = definition_from(answer, "QM1", "QUEUE")
    assert d.attrs == {"DEFPSIST": "YES", "DESCR": "x"}
    assert d.unread == (f"MQIA_HIGH_Q_DEPTH ({mqc.MQIA_HIGH_Q_DEPTH}) = 5",
                        "parameter 99999 = 1",
                        f"MQIA_MAX_Q_DEPTH ({mqc.MQIA_MAX_Q_DEPTH}) = 'lots'")
    qmgr = definition_from(Message(Header(mqc.MQCFT_RESPONSE, mqc.MQCMD_INQUIRE_Q_MGR), [
        String(mqc.MQCA_Q_MGR_NAME, "QM1")]), "QM1", "QMGR")
    assert unread_lines(LiveConfig(qmgr, [d], [], [])) == [
        f"QM1 QLOCAL(A): {p} left out: no MQSC keyword here for it as sent" for p in d.unread]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CASES), st.data())
def test_any_casing_of_a_word_is_that_word_and_any_other_text_is_refused(case, data):
    a = checked(case[0])[case[1]]
    word = data.draw(st.sampled_from(list(a.words)))
    cased = "".join(c.lower() if data.draw(st.booleans()) else c for c in word)
    assert word_problem(a, cased) == (None, word)
    other = data.draw(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789abcz", max_size=12))
    if other.upper() not in a.words:
        problem, _ = word_problem(a, other)
        assert problem is not None and problem.endswith(", ".join(a.words))
