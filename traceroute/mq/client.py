"""The Transport to a real queue manager, through IBM's `ibmmq` or pymqi (the `mq` extra).

Kept thin. The MQ client module is imported lazily, here only, so everything else installs
and runs without it (and without an IBM MQ client library). IBM's maintained `ibmmq` (the
successor of pymqi, with the same API) is preferred, pymqi is the fallback;
$MQROUTE_MQ_CLIENT=pymqi|ibmmq picks one. Before importing ibmmq, MQIPY_NOOTEL=true is set
unless the environment says otherwise (ibmmq would otherwise hook OpenTelemetry into every
MQI call). Both C modules (ibmmq's `ibmmqc`, pymqi's `pymqe`) need the IBM MQ client
libraries. A module of that name that lacks the MQI classes (a local ibmmq.py or pymqi.py
shadowing the package) is reported, and the other client tried. Channel types and other
MQI constants come from our own `pcf.mqc` (the same values as ibmmq's CMQXC/CMQC), so
nothing depends on where a client keeps them. MQMDs cross the boundary as bytes: our
`pcf.mqmd` packs them and the client's MD unpacks them, so no field is translated by hand.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from pcf import mqc
from pcf.mqmd import MQMD, pack, unpack
from traceroute.mq.transport import Connection, TransportError

PASSWORD_VARIABLE = "MQROUTE_PASSWORD"  # as traceroute.mq.options.PASSWORD_VARIABLE
_NATIVE = mqc.MQENC_REVERSED if sys.byteorder == "little" else mqc.MQENC_NORMAL


class PymqiMissing(RuntimeError):
    """Neither ibmmq nor pymqi can be used: not installed, or the IBM MQ client library is
    missing."""


#: The MQ client modules, most preferred first (IBM's maintained one, then pymqi).
MQ_CLIENTS = ("ibmmq", "pymqi")
#: Choose one of MQ_CLIENTS instead of the first that imports.
CLIENT_VARIABLE = "MQROUTE_MQ_CLIENT"
#: What MQTransport uses from the module: without these it is not an MQ client.
MQI_NAMES = ("QueueManager", "Queue", "MQMIError", "CD", "OD", "MD", "GMO", "PMO", "SCO")
#: MQSUB for a reader: a non-durable subscription with a managed queue (amqsact -t's), the
#: publications keeping the CorrelId they were published with (MQSO_SET_CORREL_ID with
#: SubCorrelId MQCI_NONE: an activity trace message's CorrelId is its ConnectionId).
SUBSCRIBE_OPTIONS = (mqc.MQSO_CREATE | mqc.MQSO_NON_DURABLE | mqc.MQSO_MANAGED
                     | mqc.MQSO_SET_CORREL_ID | mqc.MQSO_FAIL_IF_QUIESCING)


def load_mq_client(prefer: str | None = None):
    """Import ibmmq, else pymqi (or `prefer` / $MQROUTE_MQ_CLIENT only), or say exactly what
    is missing and how to get it (PymqiMissing)."""
    prefer = prefer or os.environ.get(CLIENT_VARIABLE) or None
    if prefer is not None and prefer not in MQ_CLIENTS:
        raise PymqiMissing(f"{CLIENT_VARIABLE}={prefer}: the MQ client is one of "
                           f"{', '.join(MQ_CLIENTS)}")
    problems: list[str] = []
    for name in (prefer,) if prefer else MQ_CLIENTS:
        if name == "ibmmq":
            os.environ.setdefault("MQIPY_NOOTEL", "true")
        try:
            module = __import__(name)  # (a top-level name: the module itself)
        except ImportError as e:
            if isinstance(e, ModuleNotFoundError) and e.name == name:
                continue  # not installed: try the next
            problems.append(f"{name} could not load the IBM MQ client library ({e}); install "
                            "the IBM MQ client (redistributable) and set LD_LIBRARY_PATH")
            continue
        lacking = [n for n in MQI_NAMES if not hasattr(module, n)]
        if lacking:
            where = getattr(module, "__file__", None) or "a module"
            problems.append(f"{where} shadows the {name} package (it has no "
                            f"{', '.join(lacking)}): rename it")
            continue
        return module
    if not problems:
        which = prefer or "ibmmq or pymqi"
        raise PymqiMissing(f"{which} is not installed: pip install 'mqroute[mq]' (IBM's "
                           "ibmmq, which needs the IBM MQ client), or use --network to run "
                           "on a simulated network")
    raise PymqiMissing("; ".join(problems) + "; or use --network")


def load_pymqi():
    """The MQ client module MQTransport uses (ibmmq or pymqi): see `load_mq_client`."""
    return load_mq_client()


def password_from_environment(user: str | None) -> str:
    """The password for `user`: $MQROUTE_PASSWORD, else a prompt on the terminal (nothing
    without a user); ConnectionOptionError when there is neither."""
    from traceroute.mq.options import password_for

    return password_for(Connection(user=user or "")).password


@dataclass
class _Output:
    """An open output queue and what it resolved to."""

    queue: object
    resolved_queue: str


@dataclass
class MQTransport:
    """A connection to a real queue manager through ibmmq or pymqi (see Transport); the
    `pymqi` field holds whichever module it is (they share the API)."""

    pymqi: object
    qm: object
    qmgr_name: str
    _inputs: dict[str, object] = field(default_factory=dict)
    _browsing: set[tuple[str, bytes | None]] = field(default_factory=set)
    _temporary: list[object] = field(default_factory=list)
    _subscriptions: list[object] = field(default_factory=list)

    @classmethod
    def connect(cls, conn: Connection, pymqi: object | None = None) -> MQTransport:
        """Connect in local bindings, or as a client (channel/conname, a CCDT, TLS, user).

        Every field of `conn` is used (traceroute.mq.options checks they fit together): the
        cipher and certificate label go into the MQCD, the key repository into an MQSCO,
        the CCDT into MQCCDTURL (over any value already set), the user and password into
        the MQCSP, in local bindings too.
        """
        pymqi = pymqi or load_pymqi()
        try:
            qm = pymqi.QueueManager(None)
            if not conn.client and not conn.user:
                qm.connect(conn.qmgr.encode())  # bytes: pymqi keeps it for inquire (no str)
            else:
                kwargs: dict[str, object] = {}
                if conn.channel or conn.conname:
                    cd = pymqi.CD(ChannelName=conn.channel.encode(),
                                  ConnectionName=conn.conname.encode(),
                                  ChannelType=mqc.MQCHT_CLNTCONN,
                                  TransportType=mqc.MQXPT_TCP)
                    if conn.cipher_spec:
                        cd.SSLCipherSpec = conn.cipher_spec.encode()
                    if conn.cert_label:  # CertificateLabel is in MQCD from version 11
                        cd.CertificateLabel = conn.cert_label.encode()
                        cd.Version = max(cd.Version, 11)
                    kwargs["cd"] = cd
                if conn.key_repository:
                    kwargs["sco"] = pymqi.SCO(KeyRepository=conn.key_repository.encode())
                if conn.ccdt_url:
                    os.environ["MQCCDTURL"] = conn.ccdt_url
                if conn.user:
                    kwargs.update(user=conn.user, password=conn.password)
                opts = mqc.MQCNO_CLIENT_BINDING if conn.client else mqc.MQCNO_NONE
                qm.connect_with_options(conn.qmgr, opts=opts, **kwargs)
        except pymqi.MQMIError as e:
            raise TransportError("MQCONN", e.reason, f"to '{conn.qmgr or 'default'}'") from None
        name = conn.qmgr or _text(qm.inquire(mqc.MQCA_Q_MGR_NAME))
        return cls(pymqi, qm, name)

    def clock(self) -> float:
        """Wall-clock seconds."""
        return time.monotonic()

    def _call(self, call: str, what: str, fn, *args):
        try:
            return fn(*args)
        except self.pymqi.MQMIError as e:
            raise TransportError(call, e.reason, what) from None

    def open_output(self, queue: str, *, target_qmgr: str = "", topic: str = "",
                    bind_not_fixed: bool = False) -> _Output:
        """MQOPEN for output (a topic when `topic` is given)."""
        p = self.pymqi
        if topic:  # ObjectString is an MQCHARV: version 4, set through set_vs
            od = p.OD(ObjectType=mqc.MQOT_TOPIC, Version=mqc.MQOD_VERSION_4)
            od.set_vs("ObjectString", topic.encode())
        else:  # version 3: MQ fills in ResolvedQName only from MQOD_VERSION_3 on
            od = p.OD(ObjectName=queue.encode(), ObjectQMgrName=target_qmgr.encode(),
                      Version=mqc.MQOD_VERSION_3)
        options = mqc.MQOO_OUTPUT | mqc.MQOO_FAIL_IF_QUIESCING
        options |= mqc.MQOO_BIND_NOT_FIXED if bind_not_fixed else mqc.MQOO_BIND_AS_Q_DEF
        q = self._call("MQOPEN", f"'{topic or queue}'", p.Queue, self.qm, od, options)
        return _Output(q, _text(getattr(od, "ResolvedQName", b"")) or queue)

    def put(self, handle: _Output, md: MQMD, data: bytes) -> MQMD:
        """MQPUT outside syncpoint; a blank MsgId asks the queue manager for a new one."""
        p = self.pymqi
        m = p.MD()
        m.unpack(pack(md, encoding=_NATIVE))
        options = mqc.MQPMO_NO_SYNCPOINT | mqc.MQPMO_FAIL_IF_QUIESCING
        if not any(md.msg_id):
            options |= mqc.MQPMO_NEW_MSG_ID
        self._call("MQPUT", "", handle.queue.put, data, m, p.PMO(Options=options))
        return unpack(m.pack(), encoding=_NATIVE)

    def open_reply_queue(self, name: str, prefix: str = "DSPMQRTE") -> str:
        """Open the reply queue for input; a model queue creates a temporary dynamic one."""
        p = self.pymqi
        od = p.OD(ObjectName=name.encode(), DynamicQName=f"{prefix}.*".encode())
        q = self._call("MQOPEN", f"'{name}'", p.Queue, self.qm, od,
                       mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_BROWSE | mqc.MQOO_FAIL_IF_QUIESCING)
        real = _text(od.ObjectName) or name
        self._inputs[real] = q
        if real != name:
            self._temporary.append(q)
        return real

    def subscribe(self, topic) -> str:
        """MQSUB (`topic`: a traceroute.mq.trace_topics.TraceTopic): a non-durable
        subscription with a managed queue, as amqsact's dynamic mode makes; what `get` reads
        it by (the topic string). It ends (its managed queue with it) at `close`."""
        p = self.pymqi
        if not hasattr(p, "Subscription") or not hasattr(p, "SD"):
            raise TransportError("MQSUB", mqc.MQRC_FUNCTION_NOT_SUPPORTED,
                                 f"'{topic.topic}' ({getattr(p, '__name__', 'the MQ client')} "
                                 "has no Subscription)")
        options = SUBSCRIBE_OPTIONS | (mqc.MQSO_WILDCARD_CHAR if topic.wildcard_char else 0)
        sd = p.SD(Options=options, SubCorrelId=bytes(24))  # MQCI_NONE
        sd.set_vs("ObjectString", topic.topic.encode("utf-8"))
        sub = p.Subscription(self.qm)
        self._call("MQSUB", f"'{topic.topic}'", lambda: sub.sub(sub_desc=sd))
        self._subscriptions.append(sub)
        self._inputs[topic.topic] = sub.sub_queue  # the managed queue, opened by MQSUB
        return topic.topic

    def _input(self, queue: str) -> object:
        if queue not in self._inputs:
            od = self.pymqi.OD(ObjectName=queue.encode())
            self._inputs[queue] = self._call(
                "MQOPEN", f"'{queue}'", self.pymqi.Queue, self.qm, od,
                mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_BROWSE | mqc.MQOO_FAIL_IF_QUIESCING)
        return self._inputs[queue]

    def get(self, queue: str, *, correl_id: bytes | None, wait: float, browse: bool = False,
            syncpoint: bool = True) -> tuple[MQMD, bytes] | None:
        """MQGET with wait, matching the CorrelId; under syncpoint unless browsing."""
        p = self.pymqi
        q = self._input(queue)
        options = mqc.MQGMO_WAIT | mqc.MQGMO_FAIL_IF_QUIESCING
        cursor = (queue, correl_id)  # a new CorrelId browses from the start again
        if browse:
            options |= mqc.MQGMO_BROWSE_NEXT if cursor in self._browsing \
                else mqc.MQGMO_BROWSE_FIRST
        else:
            options |= mqc.MQGMO_SYNCPOINT if syncpoint else mqc.MQGMO_NO_SYNCPOINT
        gmo = p.GMO(Options=options, WaitInterval=int(wait * 1000),
                    MatchOptions=mqc.MQMO_MATCH_CORREL_ID if correl_id else mqc.MQMO_NONE)
        m = p.MD(Version=mqc.MQMD_VERSION_2)  # version 1 gets an MQMDE prefixed to the data
        if correl_id:
            m.CorrelId = correl_id
        try:
            data = q.get(None, m, gmo)
        except p.MQMIError as e:
            if e.reason == mqc.MQRC_NO_MSG_AVAILABLE:
                return None
            raise TransportError("MQGET", e.reason, f"'{queue}'") from None
        if browse:
            self._browsing.add(cursor)
        return unpack(m.pack(), encoding=_NATIVE), bytes(data)

    def commit(self) -> None:
        """MQCMIT."""
        self._call("MQCMIT", "", self.qm.commit)

    def backout(self) -> None:
        """MQBACK."""
        self._call("MQBACK", "", self.qm.backout)

    def inquire(self) -> dict[str, str]:
        """ACTIVREC, ROUTEREC and DEADQ of the connected queue manager."""
        names = {0: "DISABLED", 1: "QUEUE", 2: "MSG"}
        activrec = self._call("MQINQ", "ACTIVREC", self.qm.inquire,
                              mqc.MQIA_ACTIVITY_RECORDING)
        routerec = self._call("MQINQ", "ROUTEREC", self.qm.inquire,
                              mqc.MQIA_TRACE_ROUTE_RECORDING)
        deadq = self._call("MQINQ", "DEADQ", self.qm.inquire, mqc.MQCA_DEAD_LETTER_Q_NAME)
        return {"ACTIVREC": names.get(activrec, str(activrec)),
                "ROUTEREC": names.get(routerec, str(routerec)), "DEADQ": _text(deadq)}

    def close(self) -> None:
        """Back out, end the subscriptions (their managed queues with them), close (deleting
        a temporary reply queue), disconnect; a call MQ refuses is a TransportError after
        the others were made (MQDISC last, always)."""
        failed: TransportError | None = None

        def call(name: str, fn, *args, **kwargs) -> None:
            nonlocal failed
            try:
                fn(*args, **kwargs)
            except self.pymqi.MQMIError as e:
                failed = failed or TransportError(name, e.reason)

        try:
            call("MQBACK", self.qm.backout)
            managed = []
            for sub in self._subscriptions:
                managed.append(sub.sub_queue)
                # non-durable: MQCLOSE ends it, and MQ deletes its managed queue
                call("MQCLOSE", sub.close, sub_close_options=mqc.MQCO_NONE,
                     close_sub_queue=True)
            for q in self._inputs.values():
                if not any(q is m for m in managed):
                    call("MQCLOSE", q.close,
                         mqc.MQCO_DELETE_PURGE if q in self._temporary else mqc.MQCO_NONE)
        finally:
            call("MQDISC", self.qm.disconnect)
        if failed is not None:
            raise failed


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("latin-1").rstrip(" \x00")
    return str(value).rstrip(" \x00")
