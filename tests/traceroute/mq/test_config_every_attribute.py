"""`mqroute config` collects every attribute a queue manager reports: generated estates whose
queue managers, queues of every type and channels of every type set EVERY attribute of
`traceroute.status.attributes` (random values of the right kind: words, numbers, the words
numbers take, lists, strings with quotes and lower case) go through the command server's
PCF, the administration client and config's MQSC, and read back to the same definitions.
Passwords and keys are the exception MQ makes: shown as asterisks, so config says they are
set and never writes a value (none leaks)."""

from __future__ import annotations

import random

import pytest

from traceroute.mq.admin import Admin, PCFOverQueues
from traceroute.mq.config import collect_config
from traceroute.mq.transport import SimTransport
from traceroute.sim.cmdserver import attach
from traceroute.sim.crtmqm import KNOWN_KEYWORDS, type_default
from traceroute.sim.mqsc import parse_mqsc, to_mqsc
from traceroute.sim.netgen import generate
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator
from traceroute.status.attributes import (
    INT,
    LIST,
    STR,
    WORD,
    WORDS,
    Attribute,
    table_for,
    to_parameters,
)

CHANNEL_TYPES = ("SDR", "SVR", "RCVR", "RQSTR", "CLUSSDR", "CLUSRCVR", "SVRCONN", "CLNTCONN",
                 "AMQP", "MQTT")
QUEUE_TYPES = ("QLOCAL", "QMODEL", "QALIAS", "QREMOTE")
#: z/OS and 9.4 keywords MQSC takes on these types beyond their default object's attributes.
EXTRA = {"QLOCAL": ("CFSTRUCT", "STGCLASS", "INDXTYPE", "QSGDISP", "OTELTRAC", "OTELPCTL"),
         "QMODEL": ("CFSTRUCT", "STGCLASS", "INDXTYPE", "QSGDISP", "OTELTRAC", "OTELPCTL"),
         "QREMOTE": ("QSGDISP", "OTELTRAC", "OTELPCTL"), "QALIAS": ("QSGDISP",),
         "CHANNEL": ("QSGDISP", "DEFCDISP")}
#: Attributes that name the object's type or its nature: kept as generated.
FIXED = {"CHLTYPE"}
_TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz0123456789._/%-#'()* "


def _text(rng: random.Random, width: int) -> str:
    size = rng.randint(1, min(width, 30))
    text = "".join(rng.choice(_TEXT) for _ in range(size)).strip()
    return text or "X"


#: Numbers the simulator itself depends on (code pages it converts, limits its command
#: messages must pass): random among values that keep it working.
SPECIAL = {"CCSID": lambda r: str(r.choice([819, 1208, 850, 37, 500, 1047, 1252])),
           "MAXMSGL": lambda r: str(r.randint(4_194_304, 104_857_600)),
           "MAXDEPTH": lambda r: str(r.randint(5000, 999_999_999)),
           "MAXHANDS": lambda r: str(r.randint(256, 999_999_999)),
           "MAXUMSGS": lambda r: str(r.randint(10_000, 999_999_999))}


def value_for(a: Attribute, rng: random.Random) -> str:
    """A random value MQ takes for attribute `a`, as MQSC keeps it."""
    if a.keyword in SPECIAL:
        return SPECIAL[a.keyword](rng)
    if a.secret:  # recognisable, to be sure none leaks
        return f"pw{rng.getrandbits(40):010x}"
    if a.kind == WORD:
        return rng.choice(sorted(a.words))
    if a.kind == WORDS:
        return ",".join(rng.sample(sorted(a.words), rng.randint(1, len(a.words))))
    if a.kind == INT:
        if a.words and rng.random() < 0.3:
            return rng.choice(sorted(a.words))
        low, high = a.limits or (1, 999_999_999)  # within the range MQ takes (i35c)
        return str(rng.randint(max(low, 1) if high >= 1 else low, high))
    if a.kind == LIST:
        return ",".join(_text(rng, a.width).replace(",", ".").replace("'", "")
                        .replace(" ", "") or "X" for _ in range(rng.randint(1, 3)))
    assert a.kind == STR
    return _text(rng, a.width)


def _fill(obj: MQObject, keywords, kind: str, rng: random.Random) -> None:
    table = table_for(kind)
    for k in sorted(keywords):
        a = table.get(k)
        if a is None or a.readonly or k in FIXED:
            continue
        obj.attrs[k] = value_for(a, rng)


def estate(kind: str, seed: int):
    """A generated estate, then every attribute set on everything, through MQSC text."""
    rng = random.Random(seed)
    network = generate(kind, 4, seed=seed).network
    for qm in network.qmgrs.values():
        for t in CHANNEL_TYPES:
            qm.channels[f"GEN.{t}"] = MQObject("CHANNEL", f"GEN.{t}", {"CHLTYPE": t}, "gen", 0)
        for t in QUEUE_TYPES:
            qm.queues[f"GEN.{t}"] = MQObject(t, f"GEN.{t}", {}, "gen", 0)
        _fill_qmgr(qm, rng)
        for obj in [*dict.values(qm.queues), *dict.values(qm.channels)]:
            kind_of = "CHANNEL" if obj.kind == "CHANNEL" else obj.kind
            keywords = set(type_default(obj.kind, obj.attrs)) | set(EXTRA.get(kind_of, ()))
            _fill(obj, keywords, "CHANNEL" if obj.kind == "CHANNEL" else "QLOCAL", rng)
        qm.stopped = set()
    return parse_mqsc(to_mqsc(network), source="generated")


def _fill_qmgr(qm, rng: random.Random) -> None:
    table = table_for("QMGR")
    for k in sorted(KNOWN_KEYWORDS["QMGR"]):
        a = table.get(k)
        if a is not None and not a.readonly:
            qm.attrs[k] = value_for(a, rng)


def _secrets(kind: str) -> set[str]:
    return {k for k, a in table_for(kind).items() if a.secret}


@pytest.mark.parametrize("kind, seed", [("hub", 1), ("mesh", 2), ("cluster", 3), ("mixed", 4)])
def test_every_attribute_round_trips_through_config(kind, seed):
    from mqroute.commands.config import config_text

    network = estate(kind, seed)
    sim = Simulator(network, seed=1)
    attach(sim)
    covered: set[tuple[str, str]] = set()
    for name, qm in sim.network.qmgrs.items():
        admin = Admin(PCFOverQueues(SimTransport(sim, name)))
        text = config_text(collect_config(admin))
        admin.close()
        back = parse_mqsc(text, source="config").qmgrs[name]
        table = table_for("QMGR")
        for k, a in table.items():
            if a.readonly or k not in qm.attrs:
                continue
            covered.add(("QMGR", k))
            if a.secret:
                assert k not in back.attrs and qm.attrs[k] not in text
                assert f"* ALTER QMGR {k}: set, but MQ shows it only as asterisks" in text
            else:
                assert back.attrs.get(k) == qm.attrs[k], (name, k)
        for store, again in ((qm.queues, back.queues), (qm.channels, back.channels)):
            for key, obj in dict.items(store):
                twin = again.get(key)
                assert twin is not None and twin.kind == obj.kind, (name, key)
                mine = obj.effective()
                left = set(to_parameters(obj.kind, mine)[1])
                secret = _secrets(obj.kind)
                theirs = twin.effective()
                for k in mine:
                    if k in left:
                        continue
                    covered.add(("CHANNEL" if obj.kind == "CHANNEL" else "QUEUE", k))
                    if k in secret and mine[k]:
                        assert mine[k] not in text, (name, key, k)
                        assert f"{obj.kind}('{key}') {k}: set, but MQ shows it only" in text
                    else:
                        assert theirs.get(k) == mine[k], (name, key, k, mine[k], theirs.get(k))
    _COVERED.update(covered)


_COVERED: set[tuple[str, str]] = set()


def test_every_settable_attribute_was_covered():
    """After the runs above: every settable attribute of the tables was set and compared
    (the MQTT-only keywords with no PCF parameter of their own aside)."""
    if not _COVERED:
        for kind, seed in (("hub", 1), ("mixed", 4)):
            test_every_attribute_round_trips_through_config(kind, seed)
    for kind, label in (("QMGR", "QMGR"), ("QLOCAL", "QUEUE"), ("CHANNEL", "CHANNEL")):
        settable = {k for k, a in table_for(kind).items() if not a.readonly}
        missing = {k for k in settable if (label, k) not in _COVERED}
        assert not missing, (kind, sorted(missing))


def test_a_password_is_answered_as_asterisks_and_never_leaks():
    from mqroute.commands.config import config_text

    network = parse_mqsc("* Queue manager name: QM1\n"
                         "ALTER QMGR INITKEY('k3y!') KEYRPWD('s3cret')\n"
                         "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(X) "
                         "PASSWORD('pa55')\n"
                         "DEFINE CHANNEL(NOPW) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(X)\n")
    sim = Simulator(network, seed=1)
    attach(sim)
    admin = Admin(PCFOverQueues(SimTransport(sim, "QM1")))
    config = collect_config(admin)
    admin.close()
    [sdr] = [c for c in config.channels if c.name == "TO.QM2"]
    assert sdr.attrs["PASSWORD"] == "********" and config.qmgr.attrs["INITKEY"] == "********"
    assert next(c for c in config.channels if c.name == "NOPW").attrs["PASSWORD"] == ""
    text = config_text(config)
    for secret in ("k3y!", "s3cret", "pa55", "(********)", "('********')"):
        assert secret not in text, secret
    assert "* CHANNEL('TO.QM2') PASSWORD: set, but MQ shows it only as asterisks" in text
    assert "* ALTER QMGR KEYRPWD: set" in text and "NOPW" not in text.split("DEFINE")[0]
