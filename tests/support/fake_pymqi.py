"""A fake `pymqi` module backed by a `Simulator`, for testing `MQTransport` without IBM MQ.

This is a supplement, not a queue manager. It checks that `MQTransport` drives pymqi's API
the way pymqi 1.12 defines it (the calls, argument shapes, structure fields and versions,
bytes-not-str, option flags, MQMIError reasons) and that it then behaves identically to
`SimTransport` over the same simulated network. It is NOT a real queue manager: whatever a
real queue manager does beyond what the simulator models is not proven by these tests.

What it models, after the IBM MQ documentation and pymqi's source:

* `QueueManager(None)` connects later; `connect(name)` / `connect_with_options(name, opts=,
  cd=, user=, password=)` to a queue manager of the network ('' = the first one); an unknown
  name fails with MQRC_Q_MGR_NAME_ERROR. Like pymqi, the name is kept as given and
  `inquire` builds an MQOD from it, so a str name makes `inquire` raise TypeError.
* `inquire`: ACTIVREC and ROUTEREC as MQRECORDING_* ints, DEADQ and the queue manager's
  name as 48-byte blank-padded bytes; other selectors MQRC_SELECTOR_ERROR.
* `Queue(qm, od, options)` opens at once. For output it is `sim.open(...)` (BIND_NOT_FIXED,
  BIND_ON_OPEN, else the queue's DEFBIND); `od.ResolvedQName` / `ResolvedQMgrName` are
  written back only when `od.Version` >= MQOD_VERSION_3, as MQ does. For input, a model
  queue (a QMODEL, or SYSTEM.DEFAULT.MODEL.QUEUE, which the simulator defines as a local
  queue) creates a temporary dynamic queue named from `DynamicQName`, written back into
  `od.ObjectName`; it is deleted when its creator closes it (or disconnects). Topics need
  MQOD_VERSION_4 and an ObjectString set with `set_vs` (or an ObjectName: the topic object),
  and are `sim.open_topic(...)`: a put publishes.
* `put(data, md, pmo)`: MQPMO_NEW_MSG_ID (and a blank MsgId) get a new MsgId, written back
  into `md.MsgId`; puts under syncpoint are not modelled (NotImplementedError).
* `get(None, md, gmo)`: MQGMO_WAIT waits `WaitInterval` ms of the simulator's virtual time
  (MQWI_UNLIMITED: until the simulation is quiet); matching by CorrelId/MsgId per
  `MatchOptions`; MQGMO_SYNCPOINT holds the message in the connection's unit of work until
  `commit` (final) or `backout` (`sim.restore`, in the old order); MQGMO_BROWSE_FIRST/NEXT
  keep a browse cursor per handle; nothing found: MQMIError(MQCC_FAILED,
  MQRC_NO_MSG_AVAILABLE). A version-1 MD receives only the version-1 fields.
* `disconnect` commits the unit of work still open, as MQDISC does: an application must
  back out first if it does not want its gets to become final.
* `MD.pack()` / `MD.unpack(bytes)` are a native-encoding 364-byte MQMD through our own
  `pcf.mqmd`; a longer buffer is a `struct.error`, a shorter one is padded, as in pymqi.

* `SD` and `Subscription(qm)`: `sub.sub(sub_desc=sd)` is MQSUB (`sim.subscribe`): the SD's
  ObjectString (set with `set_vs`) and/or ObjectName; MQSO_CREATE needed (a resume or an
  alteration is NotImplementedError); MQSO_MANAGED makes the managed queue, opened for input
  and browse as `sub.sub_queue` (a Queue; `sub.get(None, md, gmo)` is its get), else
  `sub_queue=` a Queue of the caller's; MQSO_DURABLE needs SubName; MQSO_WILDCARD_CHAR the
  character scheme; MQSO_SET_CORREL_ID the SD's SubCorrelId (MQCI_NONE: each publication
  keeps the CorrelId it was published with, MQSD's documented rule); a failed MQSUB is
  MQMIError with the simulator's reason.
  `sub.close(sub_close_options, close_sub_queue=, close_sub_queue_options=)` ends a
  non-durable subscription (MQCO_REMOVE_SUB a durable one), its managed queue with it;
  MQDISC ends the connection's non-durable subscriptions.

Not modelled: message expiry while browsing, BackoutCount increments, MQMDE prefixes,
truncation, security, client channels (the CD is only recorded), reconnection.
"""

from __future__ import annotations

import struct
import sys
import types
from dataclasses import fields, replace

from pcf import mqc
from pcf.mqmd import _LAYOUT, _V1_FIELDS, MQMD, pack, unpack
from traceroute.sim.network import MQObject
from traceroute.sim.simulator import Simulator

MODEL_QUEUE = "SYSTEM.DEFAULT.MODEL.QUEUE"
_NATIVE = mqc.MQENC_REVERSED if sys.byteorder == "little" else mqc.MQENC_NORMAL
_V2_ONLY = {name for name, _, _ in _LAYOUT[_V1_FIELDS:]}


def _camel(name: str) -> str:
    return "".join("QMgr" if w == "qmgr" else w.capitalize() for w in name.split("_"))


#: pcf.mqmd field name -> pymqi MD attribute name (reply_to_q_mgr -> ReplyToQMgr ...).
_MD_NAMES = {f.name: _camel(f.name) for f in fields(MQMD)}
_MD_WIDTH = {name: size for name, kind, size in _LAYOUT if kind != "i"}
_MD_TEXT = {name for name, kind, _ in _LAYOUT if kind == "c"}


def _text(value: bytes) -> str:
    return value.decode("latin-1").rstrip(" \x00")


def _blank(text: str, width: int = 48) -> bytes:
    return text.encode("latin-1").ljust(width)


class Error(Exception):
    """Base of the fake's exceptions (pymqi.Error)."""


class MQMIError(Error):
    """An MQI call failed: completion code and reason, as pymqi raises them."""

    def __init__(self, comp: int, reason: int, **kw: object) -> None:
        super().__init__(comp, reason)
        self.comp, self.reason = comp, reason
        for key, value in kw.items():
            setattr(self, key, value)

    def __str__(self) -> str:
        return f"MQI Error. Comp: {self.comp}, Reason {self.reason}"


class PYIFError(Error):
    """Misuse of the pymqi API itself (not connected, not open)."""


def _failed(reason: int) -> MQMIError:
    return MQMIError(mqc.MQCC_FAILED, reason)


def _no_str(value: object) -> None:
    if isinstance(value, str):
        raise TypeError(f"Python 3 style string (unicode) found but not allowed here: "
                        f"`{value}`. Convert to bytes.")


class _Struct:
    """An MQI structure as pymqi shows it: fields as attributes, set by keyword."""

    _fields: tuple[tuple[str, object], ...] = ()

    def __init__(self, **kw: object) -> None:
        for name, default in self._fields:
            setattr(self, name, default)
        self.set(**kw)

    def set(self, **kw: object) -> None:
        """Set fields; an unknown name is an AttributeError, a str a TypeError (pymqi)."""
        for name, value in kw.items():
            getattr(self, name)
            _no_str(value)
            setattr(self, name, value)

    def __getitem__(self, name: str) -> object:
        return getattr(self, name)

    def __setitem__(self, name: str, value: object) -> None:
        self.set(**{name: value})

    def get(self) -> dict[str, object]:
        """Every field and its value."""
        return {name: getattr(self, name) for name, _ in self._fields}

    def _check(self) -> None:
        for name, _ in self._fields:
            _no_str(getattr(self, name))


def _fields_of(*names: str, **defaults: object) -> tuple[tuple[str, object], ...]:
    return tuple((n, defaults.get(n, b"" if n.endswith(("Name", "Id")) else 0)) for n in names)


class MD(_Struct):
    """MQMD: pymqi's attribute names and defaults; packed by pcf.mqmd (native, 364 bytes)."""

    _fields = (("StrucId", b"MD  "), *((_MD_NAMES[f.name], b"" if f.name in _MD_WIDTH
                                        else f.default) for f in fields(MQMD)))

    def __init__(self, **kw: object) -> None:
        super().__init__()
        self.Version = mqc.MQMD_VERSION_1
        self.Encoding = mqc.MQENC_NATIVE
        self.CodedCharSetId = mqc.MQCCSI_Q_MGR
        self.set(**kw)

    def to_mqmd(self) -> MQMD:
        """The descriptor as our MQMD (the Version field says which fields count)."""
        self._check()
        values = {}
        for name, attr in _MD_NAMES.items():
            value = getattr(self, attr)
            if name in _MD_TEXT:
                value = _text(value)
            elif name in _MD_WIDTH:
                value = bytes(value).ljust(_MD_WIDTH[name], b"\x00")
            values[name] = value
        return MQMD(**values)

    def pack(self) -> bytes:
        """364 bytes, native encoding, whatever the Version (pymqi packs the whole struct)."""
        md = self.to_mqmd()
        data = bytearray(pack(replace(md, version=2), encoding=_NATIVE))
        struct.pack_into("=i", data, 4, self.Version)
        return bytes(data)

    def unpack(self, buff: bytes) -> None:
        """Fill every field from a packed MQMD (shorter buffers are padded, as pymqi does)."""
        _no_str(buff)
        if len(buff) > mqc.MQMD_LENGTH_2:
            raise struct.error(f"unpack requires a buffer of {mqc.MQMD_LENGTH_2} bytes")
        data = bytearray(bytes(buff).ljust(mqc.MQMD_LENGTH_2, b"\x00"))
        version = struct.unpack_from("=i", data, 4)[0]
        struct.pack_into("=i", data, 4, 2)
        self.fill(unpack(bytes(data), encoding=_NATIVE), version_1=False)
        self.Version = version

    def fill(self, md: MQMD, *, version_1: bool) -> None:
        """Set the fields from `md`, as MQ returns them (text blank-padded)."""
        for name, attr in _MD_NAMES.items():
            if name == "version" or (version_1 and name in _V2_ONLY):
                continue
            value = getattr(md, name)
            if name in _MD_TEXT:
                value = _blank(value, _MD_WIDTH[name])
            setattr(self, attr, value)


class GMO(_Struct):
    """MQGMO with pymqi's defaults (no wait; match MsgId and CorrelId)."""

    _fields = _fields_of("StrucId", "Version", "Options", "WaitInterval", "Signal1",
                         "Signal2", "ResolvedQName", "MatchOptions", "GroupStatus",
                         "SegmentStatus", "Segmentation", "Reserved1", "MsgToken",
                         "ReturnedLength", "Reserved2", "MsgHandle",
                         StrucId=b"GMO ", Version=1, Options=mqc.MQGMO_NO_WAIT,
                         MatchOptions=mqc.MQMO_MATCH_MSG_ID | mqc.MQMO_MATCH_CORREL_ID,
                         Reserved1=b" ", MsgToken=b"", ReturnedLength=mqc.MQRL_UNDEFINED)


class PMO(_Struct):
    """MQPMO with pymqi's defaults."""

    _fields = _fields_of("StrucId", "Version", "Options", "Timeout", "Context",
                         "KnownDestCount", "UnknownDestCount", "InvalidDestCount",
                         "ResolvedQName", "ResolvedQMgrName", "RecsPresent",
                         "PutMsgRecFields", "PutMsgRecOffset", "ResponseRecOffset",
                         "PutMsgRecPtr", "ResponseRecPtr", "OriginalMsgHandle",
                         "NewMsgHandle", "Action", "PubLevel",
                         StrucId=b"PMO ", Version=1, Options=mqc.MQPMO_NONE, Timeout=-1)


_VS = ("VSPtr", "VSOffset", "VSBufSize", "VSLength", "VSCCSID")


class OD(_Struct):
    """MQOD with pymqi's defaults; MQCHARV fields (ObjectString ...) only through set_vs."""

    _fields = _fields_of(
        "StrucId", "Version", "ObjectType", "ObjectName", "ObjectQMgrName", "DynamicQName",
        "AlternateUserId", "RecsPresent", "KnownDestCount", "UnknownDestCount",
        "InvalidDestCount", "ObjectRecOffset", "ResponseRecOffset", "ObjectRecPtr",
        "ResponseRecPtr", "AlternateSecurityId", "ResolvedQName", "ResolvedQMgrName",
        *(f"{vs}{part}" for vs in ("ObjectString", "SelectionString", "ResObjectString")
          for part in _VS), "ResolvedType",
        StrucId=b"OD  ", Version=mqc.MQOD_VERSION_1, ObjectType=mqc.MQOT_Q,
        DynamicQName=b"AMQ.*", ResolvedType=-3)

    def __init__(self, **kw: object) -> None:
        self._vs: dict[str, bytes] = {}
        super().__init__(**kw)

    def set_vs(self, name: str, value: bytes | str | None = None, offset: int = 0,
               buffer_size: int = 0, ccsid: int = 0) -> None:
        """Set a variable-length string field (pymqi accepts str for ObjectString)."""
        if isinstance(value, str) and name in ("ObjectString", "SubName"):
            value = value.encode("ascii")
        _no_str(value)
        self._vs[name] = value or b""
        self[f"{name}VSLength"] = len(value or b"")
        self[f"{name}VSOffset"], self[f"{name}VSBufSize"] = offset, buffer_size
        self[f"{name}VSCCSID"] = ccsid

    def get_vs(self, name: str) -> bytes | None:
        """The variable-length string set with set_vs."""
        return self._vs.get(name)


class SD(_Struct):
    """MQSD with pymqi's and ibmmq's defaults (MQSO_NON_DURABLE); ObjectString and SubName
    through set_vs."""

    _fields = _fields_of(
        "StrucId", "Version", "Options", "ObjectName", "AlternateUserId",
        "AlternateSecurityId", "SubExpiry", *(f"{vs}{part}" for vs in (
            "ObjectString", "SubName", "SubUserData", "SelectionString", "ResObjectString")
            for part in _VS), "SubCorrelId", "PubPriority", "PubAccountingToken",
        "PubApplIdentityData", "SubLevel", "ResolvedType",
        StrucId=b"SD  ", SubCorrelId=bytes(24), Version=1, Options=mqc.MQSO_NON_DURABLE,
        ObjectName=b"", SubExpiry=mqc.MQEI_UNLIMITED, SubLevel=1, ResolvedType=mqc.MQOT_NONE)

    def __init__(self, **kw: object) -> None:
        self._vs: dict[str, bytes] = {}
        super().__init__(**kw)

    set_vs = OD.set_vs
    get_vs = OD.get_vs


class CD(_Struct):
    """MQCD (client channel definition): recorded by connect_with_options, not used."""

    _fields = _fields_of(
        "ChannelName", "Version", "ChannelType", "TransportType", "Desc", "QMgrName",
        "XmitQName", "ShortConnectionName", "MCAName", "ModeName", "TpName", "BatchSize",
        "DiscInterval", "ShortRetryCount", "ShortRetryInterval", "LongRetryCount",
        "LongRetryInterval", "SecurityExit", "MsgExit", "SendExit", "ReceiveExit",
        "SeqNumberWrap", "MaxMsgLength", "PutAuthority", "DataConversion",
        "SecurityUserData", "MsgUserData", "SendUserData", "ReceiveUserData",
        "UserIdentifier", "Password", "MCAUserIdentifier", "MCAType", "ConnectionName",
        "RemoteUserIdentifier", "RemotePassword", "HeartbeatInterval", "SSLCipherSpec",
        "SSLPeerNamePtr", "SSLPeerNameLength", "SSLClientAuth", "KeepAliveInterval",
        "LocalAddress", "CertificateLabel", "SharingConversations", "MaxInstances",
        Version=6, ChannelType=mqc.MQCHT_CLNTCONN, TransportType=mqc.MQXPT_TCP,
        ChannelName=b"", ConnectionName=b"", SSLCipherSpec=b"", Desc=b"",
        CertificateLabel=b"", LocalAddress=b"", Password=b"", RemotePassword=b"",
        MaxMsgLength=4194304)


class SCO(_Struct):
    """MQSCO (TLS options): recorded, not used."""

    _fields = _fields_of("StrucId", "Version", "KeyRepository", "CryptoHardware",
                         StrucId=b"SCO ", Version=1, KeyRepository=b"", CryptoHardware=b"")


class _World:
    """What all connections of one fake module share: the simulator, and its options."""

    def __init__(self, sim: Simulator, appl_name: str, appl_type: int) -> None:
        self.sim = sim
        self.appl_name = appl_name
        self.appl_type = appl_type
        self.dynamic = 0
        self.calls: list[tuple[str, ...]] = []  # (call, queue manager, object), for tests


class _QueueManager:
    """pymqi.QueueManager over a simulated queue manager."""

    _world: _World

    def __init__(self, name: str | bytes | None = "", disconnect_on_exit: bool = True,
                 bytes_encoding: str = "utf8", default_ccsid: int = 1208) -> None:
        self._name: str | bytes | None = name
        self._qmgr = ""  # connected to ('' = not connected)
        self._uow: list[tuple[str, MQMD, bytes]] = []
        self._open: list[_Queue] = []
        self._subs: list[_Subscription] = []
        self.connect_options: dict[str, object] = {}
        self.bytes_encoding = bytes_encoding
        self.default_ccsid = default_ccsid
        if name is not None:
            self.connect(name)

    # --- connection ---------------------------------------------------------------------

    def connect(self, name: str | bytes) -> None:
        """MQCONN (local bindings)."""
        text = name.decode("ascii") if isinstance(name, bytes) else name
        qmgrs = self._world.sim.network.qmgrs
        real = text.strip() or next(iter(qmgrs))
        if real not in qmgrs:
            raise _failed(mqc.MQRC_Q_MGR_NAME_ERROR)
        self._qmgr, self._name = real, name
        self._world.calls.append(("MQCONN", real))

    def connect_with_options(self, name: str | bytes, *args: object, **kwargs: object) -> None:
        """MQCONNX: options, channel definition, TLS options, user and password."""
        if args:
            kwargs.setdefault("cd", args[0])
            if len(args) > 1:
                kwargs.setdefault("sco", args[1])
        user, password = kwargs.get("user"), kwargs.get("password")
        if user:
            if password is None:
                raise ValueError("Password must not be None if user is provided")
            if not (isinstance(user, (str, bytes)) and isinstance(password, (str, bytes))):
                raise ValueError("Both user and password must be instances of str or bytes")
        for key in ("cd", "sco"):
            if key in kwargs:
                kwargs[key]._check()  # type: ignore[attr-defined]
        self.connect_options = dict(kwargs)
        self.connect(name.encode("ascii") if isinstance(name, str) else name)

    def _handle(self) -> str:
        if not self._qmgr:
            raise PYIFError("not connected")
        return self._qmgr

    def disconnect(self) -> None:
        """MQDISC: closes what is open and commits the unit of work still open."""
        self._handle()
        for sub in list(self._subs):  # non-durable subscriptions end with the connection
            sub._end(mqc.MQCO_NONE)
        for q in list(self._open):
            q._closed(mqc.MQCO_NONE)
        self._uow.clear()  # MQDISC commits
        self._world.calls.append(("MQDISC", self._qmgr))
        self._qmgr = ""

    def get_handle(self) -> str:
        """The connection (the queue manager's name, here)."""
        return self._handle()

    # --- units of work ------------------------------------------------------------------

    def commit(self) -> None:
        """MQCMIT: the gets under syncpoint are final."""
        if not self._qmgr:
            raise _failed(mqc.MQRC_HCONN_ERROR)
        self._uow.clear()

    def backout(self) -> None:
        """MQBACK: the gets under syncpoint go back on their queues, in their old order."""
        if not self._qmgr:
            raise _failed(mqc.MQRC_HCONN_ERROR)
        for queue, md, data in reversed(self._uow):
            self._world.sim.restore(self._qmgr, queue, md, data)
        self._uow.clear()

    # --- attributes ---------------------------------------------------------------------

    def inquire(self, attribute: int) -> int | bytes:
        """MQINQ on the queue manager (opened through an MQOD built from its name)."""
        qmgr = self._handle()
        OD(ObjectType=mqc.MQOT_Q_MGR, ObjectQMgrName=self._name)  # str: TypeError, as pymqi
        qm = self._world.sim.network.qmgrs[qmgr]
        values: dict[int, int | bytes] = {
            mqc.MQIA_ACTIVITY_RECORDING: qm.activrec,
            mqc.MQIA_TRACE_ROUTE_RECORDING: qm.routerec,
            mqc.MQCA_DEAD_LETTER_Q_NAME: _blank(qm.deadq),
            mqc.MQCA_Q_MGR_NAME: _blank(qm.name),
        }
        if attribute not in values:
            raise _failed(mqc.MQRC_SELECTOR_ERROR)
        return values[attribute]


class _Queue:
    """pymqi.Queue over a simulated queue: Queue(qm, od, options) opens at once."""

    _world: _World

    def __init__(self, qmgr: _QueueManager, *opts: object) -> None:
        if len(opts) > 2:
            raise TypeError("Too many args")
        self._qm = qmgr
        self._is_open = False
        self._od = None if not opts else (
            OD(ObjectName=opts[0].encode("ascii") if isinstance(opts[0], str) else opts[0])
            if isinstance(opts[0], (str, bytes)) else opts[0])
        self._options = 0
        self._queue = ""
        self._output = None
        self._dynamic = False
        self._browsed: set[bytes] = set()
        if len(opts) == 2:
            self._options = int(opts[1])  # type: ignore[call-overload]
            self._real_open()

    # --- MQOPEN -------------------------------------------------------------------------

    def _real_open(self) -> None:
        qmgr = self._qm._handle()
        od = self._od
        if od is None:
            raise PYIFError("The Queue Descriptor has not been set.")
        od._check()
        sim = self._world.sim
        if od.ObjectType == mqc.MQOT_TOPIC:
            if od.Version < mqc.MQOD_VERSION_4 or not (od.get_vs("ObjectString")
                                                      or _text(od.ObjectName)):
                raise _failed(mqc.MQRC_OD_ERROR)
            string = od.get_vs("ObjectString")
            handle = sim.open_topic(qmgr, string.decode() if isinstance(string, bytes)
                                    else string or "", topic_object=_text(od.ObjectName),
                                    appl_name=self._world.appl_name,
                                    appl_type=self._world.appl_type)
            if handle.reason:
                raise _failed(handle.reason)
            self._output, self._queue = handle, handle.topic
            self._is_open = True
            self._qm._open.append(self)
            self._world.calls.append(("MQOPEN", qmgr, handle.topic, self._queue))
            return
        name, target = _text(od.ObjectName), _text(od.ObjectQMgrName)
        opts = self._options
        inputs = opts & (mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_INPUT_SHARED |
                         mqc.MQOO_INPUT_EXCLUSIVE | mqc.MQOO_BROWSE)
        if opts & mqc.MQOO_OUTPUT and not inputs:
            bind = None
            if opts & mqc.MQOO_BIND_NOT_FIXED:
                bind = True
            elif opts & mqc.MQOO_BIND_ON_OPEN:
                bind = False
            handle = sim.open(qmgr, name, target_qmgr=target, bind_not_fixed=bind,
                              appl_name=self._world.appl_name,
                              appl_type=self._world.appl_type)
            if handle.reason:
                raise _failed(handle.reason)
            self._output, self._queue = handle, name
            r = handle.resolution
            resolved, resolved_qmgr = r.queue, (r.remote_qmgr if r.xmitq else r.qmgr)
        elif inputs and not opts & mqc.MQOO_OUTPUT:
            resolved = self._open_input(qmgr, name, target)
            resolved_qmgr = qmgr
        else:
            raise NotImplementedError("fake pymqi: open for input, or for output, not both")
        if od.Version >= mqc.MQOD_VERSION_3:
            od.ResolvedQName, od.ResolvedQMgrName = _blank(resolved), _blank(resolved_qmgr)
        self._is_open = True
        self._qm._open.append(self)
        self._world.calls.append(("MQOPEN", qmgr, name, self._queue))

    def _open_input(self, qmgr: str, name: str, target: str) -> str:
        qm = self._world.sim.network.qmgrs[qmgr]
        if target and target != qmgr:
            raise _failed(mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE)  # remote queues: output only
        obj = qm.queues.get(name)
        if obj is None:
            raise _failed(mqc.MQRC_UNKNOWN_OBJECT_NAME)
        if obj.kind == "QALIAS":
            obj = qm.queues.get(obj.get("TARGET") or obj.get("TARGQ"))
            if obj is None:
                raise _failed(mqc.MQRC_UNKNOWN_ALIAS_BASE_Q)
        if obj.kind == "QREMOTE":
            raise _failed(mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE)
        if obj.kind == "QMODEL" or obj.name == MODEL_QUEUE:
            obj = self._create_dynamic(qm, obj)
            self._od.ObjectName = _blank(obj.name)  # type: ignore[union-attr]
            self._dynamic = True
        self._queue = obj.name
        return obj.name

    def _create_dynamic(self, qm, model: MQObject) -> MQObject:
        pattern = _text(self._od.DynamicQName) or "AMQ.*"  # type: ignore[union-attr]
        if pattern.endswith("*"):
            self._world.dynamic += 1
            name = f"{pattern[:-1]}{0x5F3A0000 + self._world.dynamic:016X}"[:48]
        else:
            name = pattern
        if name in qm.queues:
            raise _failed(mqc.MQRC_OBJECT_ALREADY_EXISTS)
        obj = MQObject("QLOCAL", name, {"DEFTYPE": model.get("DEFTYPE") or "TEMPDYN"})
        qm.queues[name] = obj
        return obj

    # --- MQPUT --------------------------------------------------------------------------

    def put(self, msg: bytes | str, *opts: object) -> None:
        """MQPUT through the simulator; md.MsgId (and pmo.ResolvedQName) are written back."""
        md = opts[0] if opts and opts[0] is not None else MD()
        pmo = opts[1] if len(opts) > 1 and opts[1] is not None else PMO()
        if isinstance(msg, str):
            msg = msg.encode(self._qm.bytes_encoding)
            md.CodedCharSetId, md.Format = self._qm.default_ccsid, b"MQSTR   "
        if not isinstance(msg, bytes):
            raise TypeError(f"Message type is {type(msg)}. Convert to bytes.")
        self._check_open()
        if self._output is None:
            raise _failed(mqc.MQRC_NOT_OPEN_FOR_OUTPUT)
        pmo._check()
        if pmo.Options & mqc.MQPMO_SYNCPOINT:
            raise NotImplementedError("fake pymqi: puts under syncpoint are not simulated")
        desc = md.to_mqmd()
        if desc.version == 1:
            desc = replace(desc, **{f: getattr(MQMD(), f) for f in _V2_ONLY})
        if pmo.Options & mqc.MQPMO_NEW_MSG_ID:
            desc = replace(desc, msg_id=bytes(24))
        if pmo.Options & mqc.MQPMO_NEW_CORREL_ID:
            desc = replace(desc, correl_id=self._world.sim.new_msg_id(self._qm._qmgr))
        result = self._output.put(desc, msg)
        if not result.ok:
            raise _failed(result.reason)
        md.MsgId, md.CorrelId = result.msg_id, desc.correl_id
        r = result.resolution
        pmo.ResolvedQName = _blank(r.queue)
        pmo.ResolvedQMgrName = _blank(r.remote_qmgr if r.xmitq else r.qmgr)
        self._world.calls.append(("MQPUT", self._qm._qmgr, self._queue))

    # --- MQGET --------------------------------------------------------------------------

    def get(self, max_length: int | None = None, *opts: object) -> bytes:
        """MQGET: wait in virtual time, match, browse or get (under syncpoint or not)."""
        md = opts[0] if opts and opts[0] is not None else MD()
        gmo = opts[1] if len(opts) > 1 and opts[1] is not None else GMO()
        self._check_open()
        md._check()
        gmo._check()
        options = gmo.Options
        browse = options & (mqc.MQGMO_BROWSE_FIRST | mqc.MQGMO_BROWSE_NEXT)
        if browse and not self._options & mqc.MQOO_BROWSE:
            raise _failed(mqc.MQRC_NOT_OPEN_FOR_BROWSE)
        if not browse and not self._options & (mqc.MQOO_INPUT_AS_Q_DEF |
                                               mqc.MQOO_INPUT_SHARED |
                                               mqc.MQOO_INPUT_EXCLUSIVE):
            raise _failed(mqc.MQRC_NOT_OPEN_FOR_INPUT)
        syncpoint = options & mqc.MQGMO_SYNCPOINT
        if syncpoint and (browse or options & mqc.MQGMO_NO_SYNCPOINT):
            raise _failed(mqc.MQRC_OPTIONS_ERROR)
        correl = bytes(md.CorrelId).ljust(24, b"\x00")
        msg_id = bytes(md.MsgId).ljust(24, b"\x00")
        correl_id = correl if gmo.MatchOptions & mqc.MQMO_MATCH_CORREL_ID and any(correl) \
            else None
        msg_match = msg_id if gmo.MatchOptions & mqc.MQMO_MATCH_MSG_ID and any(msg_id) \
            else None
        if options & mqc.MQGMO_BROWSE_FIRST:
            self._browsed.clear()
        sim = self._world.sim
        wait = gmo.WaitInterval if options & mqc.MQGMO_WAIT else 0
        deadline = None if wait == mqc.MQWI_UNLIMITED else sim.now + wait / 1000
        while True:
            found = self._take(correl_id, msg_match, bool(browse))
            if found is not None:
                break
            upcoming = sim.next_event_time()
            if upcoming is None or (deadline is not None and upcoming > deadline):
                if deadline is None or sim.now >= deadline:
                    raise _failed(mqc.MQRC_NO_MSG_AVAILABLE)
                sim.run(until=deadline)
            else:
                sim.run(until=upcoming)
        desc, data = found
        if max_length is not None and len(data) > max_length:
            raise NotImplementedError("fake pymqi: truncated messages are not simulated")
        if not browse and options & mqc.MQGMO_SYNCPOINT:
            self._qm._uow.append((self._queue, desc, data))
        md.fill(desc, version_1=md.Version < mqc.MQMD_VERSION_2)
        self._world.calls.append(("MQGET", self._qm._qmgr, self._queue,
                                  "browse" if browse else "get"))
        return data

    def _take(self, correl_id: bytes | None, msg_id: bytes | None,
              browse: bool) -> tuple[MQMD, bytes] | None:
        sim, qmgr = self._world.sim, self._qm._qmgr
        if not browse:
            # the connection's own ApplName, as for its puts: one connection, one name
            return sim.get(qmgr, self._queue, correl_id=correl_id, msg_id=msg_id,
                           appl_name=self._world.appl_name)
        for desc, data in sim.browse(qmgr, self._queue):
            if desc.msg_id in self._browsed:
                continue  # at or before the browse cursor
            self._browsed.add(desc.msg_id)
            if (correl_id is None or desc.correl_id == correl_id) and \
                    (msg_id is None or desc.msg_id == msg_id):
                return desc, data
        return None

    # --- MQCLOSE ------------------------------------------------------------------------

    def _check_open(self) -> None:
        self._qm._handle()
        if not self._is_open:
            raise PYIFError("not open")

    def close(self, options: int = mqc.MQCO_NONE) -> None:
        """MQCLOSE; a dynamic queue is deleted by MQCO_DELETE(_PURGE), a temporary one always."""
        self._check_open()
        if options & (mqc.MQCO_DELETE | mqc.MQCO_DELETE_PURGE) and not self._dynamic:
            raise _failed(mqc.MQRC_OPTION_NOT_VALID_FOR_TYPE)
        self._closed(options)

    def _closed(self, options: int) -> None:
        qmgr = self._qm._qmgr
        if self._dynamic:
            qm = self._world.sim.network.qmgrs[qmgr]
            temporary = qm.queues[self._queue].get("DEFTYPE") == "TEMPDYN"
            if temporary or options & (mqc.MQCO_DELETE | mqc.MQCO_DELETE_PURGE):
                qm.queues.pop(self._queue, None)
                self._world.sim.queues.pop((qmgr, self._queue), None)
        self._is_open = False
        self._qm._open.remove(self)
        self._world.calls.append(("MQCLOSE", qmgr, self._queue, str(options)))


class _Subscription:
    """pymqi.Subscription / ibmmq.Subscription: MQSUB, the subscription queue, MQCLOSE."""

    _world: _World

    def __init__(self, queue_manager: _QueueManager, sub_desc: SD | None = None,
                 sub_name: bytes | None = None, sub_queue: _Queue | None = None,
                 sub_opts: int | None = None, topic_name: bytes | None = None,
                 topic_string: bytes | None = None) -> None:
        self._qm = queue_manager
        self.sub_queue = sub_queue
        self._sub = None
        if sub_desc is not None:
            self.sub(sub_desc=sub_desc)

    def sub(self, sub_desc: SD | None = None, sub_queue: _Queue | None = None,
            **_: object) -> None:
        """MQSUB: create the subscription the SD describes."""
        if not isinstance(sub_desc, SD):
            raise TypeError("sub_desc must be a SD(sub descriptor) object.")
        sub_desc._check()
        qmgr = self._qm._handle()
        options = sub_desc.Options
        if not options & mqc.MQSO_CREATE or options & (mqc.MQSO_RESUME | mqc.MQSO_ALTER):
            raise NotImplementedError("fake pymqi: only MQSO_CREATE subscriptions")
        managed = bool(options & mqc.MQSO_MANAGED)
        if managed == (sub_queue is not None):
            raise _failed(mqc.MQRC_OPTIONS_ERROR if managed else mqc.MQRC_HOBJ_ERROR)
        string = (sub_desc.get_vs("ObjectString") or b"").decode("utf-8")
        name = (sub_desc.get_vs("SubName") or b"").decode("utf-8")
        world = self._world
        made = world.sim.subscribe(
            qmgr, string, topic_object=_text(sub_desc.ObjectName), name=name,
            destination="" if managed else sub_queue._queue,  # type: ignore[union-attr]
            durable=bool(options & mqc.MQSO_DURABLE),
            correl_id=bytes(sub_desc.SubCorrelId).ljust(24, b"\x00")
            if options & mqc.MQSO_SET_CORREL_ID else None,
            scheme="CHAR" if options & mqc.MQSO_WILDCARD_CHAR else "TOPIC",
            appl_name=world.appl_name, appl_type=world.appl_type)
        if made.reason:
            raise _failed(made.reason)
        self._sub = made.subscription
        if managed:
            q = type(self._qm)._queue_class(self._qm)
            q._options = mqc.MQOO_INPUT_AS_Q_DEF | mqc.MQOO_BROWSE
            q._queue, q._is_open = self._sub.dest, True
            self._qm._open.append(q)
            self.sub_queue = q
        self._qm._subs.append(self)
        world.calls.append(("MQSUB", qmgr, string, self._sub.dest))

    def get(self, max_length: int | None = None, *opts: object) -> bytes:
        """MQGET from the subscription queue."""
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue.get(max_length, *opts)

    def close(self, sub_close_options: int = mqc.MQCO_NONE, close_sub_queue: bool = False,
              close_sub_queue_options: int = mqc.MQCO_NONE) -> None:
        """MQCLOSE of the subscription (a non-durable one ends, a durable one only with
        MQCO_REMOVE_SUB), then of its queue when asked."""
        if self._sub is None:
            raise PYIFError("Subscription not open.")
        topic = self._sub.topic
        self._end(sub_close_options)
        if close_sub_queue and self.sub_queue is not None and self.sub_queue._is_open:
            self.sub_queue.close(close_sub_queue_options)
        self._world.calls.append(("MQCLOSE", self._qm._qmgr, topic, "subscription"))

    def _end(self, options: int) -> None:
        """The subscription handle goes (MQCLOSE, or MQDISC for every one still open)."""
        qmgr = self._qm._handle()
        sub, self._sub = self._sub, None
        self._qm._subs.remove(self)
        if sub is not None and (not sub.durable or options & mqc.MQCO_REMOVE_SUB):
            self._world.sim.unsubscribe(qmgr, sub.sub_id)


def make_fake_pymqi(sim: Simulator, *, appl_name: str = "dspmqrte",
                    appl_type: int = mqc.MQAT_UNIX) -> types.ModuleType:
    """A `pymqi`-like module whose queue managers are those of `sim`.

    `appl_name`/`appl_type` are what puts and gets are attributed to (a real queue manager
    takes the program's name); the defaults are SimTransport's, so both give identical reports.
    The module's `world.calls` lists the MQI calls made, in order.
    """
    world = _World(sim, appl_name, appl_type)
    module = types.ModuleType("pymqi", "fake pymqi over a traceroute Simulator (tests only)")
    module.QueueManager = type("QueueManager", (_QueueManager,), {"_world": world})
    module.Queue = type("Queue", (_Queue,), {"_world": world})
    module.QueueManager._queue_class = module.Queue
    module.Subscription = type("Subscription", (_Subscription,), {"_world": world})
    for cls in (MD, GMO, PMO, OD, SD, CD, SCO, Error, MQMIError, PYIFError):
        setattr(module, cls.__name__, cls)
    module.CMQC = mqc
    module.world = world
    return module
