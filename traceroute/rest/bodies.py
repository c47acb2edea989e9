"""PCF commands as MQ's REST API runs them (runCommandJSON), and their answers, both ways.

The REST API's MQSC resource, `POST /ibmmq/rest/v2/admin/action/qmgr/{qmgrName}/mqsc`, takes
a JSON formatted MQSC command (IBM MQ documentation, "POST - JSON formatted command"):

    {"type": "runCommandJSON", "command": "display", "qualifier": "qstatus",
     "name": "APP.*", "parameters": {"type": "queue", "where": "curdepth gt 0"},
     "responseParameters": ["all"]}

and answers

    {"commandResponse": [{"completionCode": 0, "reasonCode": 0,
                          "parameters": {"queue": "APP.IN", "curdepth": 3, ...}}, ...],
     "overallCompletionCode": 0, "overallReasonCode": 0}

one item per object; a command that fails is an item with completionCode 2, the reason
(MQRC_* / MQRCCF_*) and runmqsc's message lines, and overall 2 with
MQRCCF_COMMAND_FAILED (3008). A keyword without a value (SAVED) is sent with the value ''.

`request_body(command)` turns one of the PCF commands `traceroute.status.commands` builds
(the Admin client's questions and changes) into that body, `command_of(body)` a body back
into the PCF command (the simulated REST server); `response_body` turns the command
server's PCF responses into the answer, `responses_of` an answer back into the PCF
responses a command server would have sent, so that everything above the transport is the
same for the REST API as for PCF over queues. Values are `traceroute.rest.objects`'.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, tzinfo

from pcf import mqc
from pcf.model import (
    Header,
    Integer,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from traceroute.rest import objects
from traceroute.rest.objects import RestBodyError
from traceroute.status import commands as cmd
from traceroute.status import responses as resp
from traceroute.status.attributes import table_for
from traceroute.status.where import OPERATORS, STATUS_KEYWORDS, where_filter
from traceroute.status.words import CHANNEL_TYPE, QUEUE_TYPE, reverse

RUN_COMMAND_JSON = "runCommandJSON"

__all__ = ["RUN_COMMAND_JSON", "RestBodyError", "command_of", "request_body",
           "response_body", "responses_of"]

_QUALIFIER_OF_QTYPE = {mqc.MQQT_ALL: "queue", mqc.MQQT_LOCAL: "qlocal",
                       mqc.MQQT_ALIAS: "qalias", mqc.MQQT_REMOTE: "qremote",
                       mqc.MQQT_MODEL: "qmodel", mqc.MQQT_CLUSTER: "qcluster"}
_QTYPE_OF_QUALIFIER = {v: k for k, v in _QUALIFIER_OF_QTYPE.items()}
_CHLTYPE = reverse(CHANNEL_TYPE)


# --- PCF command -> body ------------------------------------------------------------------

def _text(value: object) -> str:
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return str(value).rstrip(" \x00")


def _where_text(kind: str, f: Parameter) -> str:
    """A PCF filter as MQSC's WHERE text (keyword operator value)."""
    operator = next((word for word, op in OPERATORS.items() if op == f.operator), None)  # type: ignore[attr-defined]
    keyword, words = None, None
    for name, (pid, known, _) in STATUS_KEYWORDS.get(kind, {}).items():
        if pid == f.parameter:
            keyword, words = name, known
            break
    if keyword is None:
        for name, a in table_for({"QUEUE": "QLOCAL"}.get(kind, kind)).items():
            if a.param == f.parameter:
                keyword, words = name, a.words
                break
    if keyword is None or operator is None:
        raise RestBodyError(f"a filter on parameter {f.parameter} has no MQSC WHERE form")
    if isinstance(f, IntegerFilter):
        names = {n: w for w, n in (words or {}).items()}
        value = names.get(f.value, str(f.value))
    else:
        text = _text(f.value)
        value = "'" + text.replace("'", "''") + "'"
    return f"{keyword} {operator} {value}"


def request_body(command: Message) -> dict:
    """The runCommandJSON body of a PCF command (RestBodyError for one it has no form for)."""
    h = command.header
    by_id = {p.parameter: p for p in command.parameters}
    filters = [p for p in command.parameters if isinstance(p, (IntegerFilter, StringFilter))]
    params: dict[str, object] = {}

    def name(pid: int) -> str:
        p = by_id.get(pid)
        return _text(p.value) if p is not None else "*"

    c = h.command
    if c == mqc.MQCMD_INQUIRE_Q_MGR:
        body, kind = {"command": "display", "qualifier": "qmgr"}, "QMGR"
    elif c == mqc.MQCMD_INQUIRE_Q_MGR_STATUS:
        body, kind = {"command": "display", "qualifier": "qmstatus"}, "QMSTATUS"
    elif c == mqc.MQCMD_INQUIRE_LISTENER_STATUS:
        body, kind = {"command": "display", "qualifier": "lsstatus",
                      "name": name(mqc.MQCACH_LISTENER_NAME)}, "LSSTATUS"
    elif c in (mqc.MQCMD_INQUIRE_Q, mqc.MQCMD_INQUIRE_Q_NAMES):
        qtype = by_id.get(mqc.MQIA_Q_TYPE)
        qualifier = _QUALIFIER_OF_QTYPE.get(qtype.value if qtype is not None else mqc.MQQT_ALL,
                                            "queue")
        body, kind = {"command": "display", "qualifier": qualifier,
                      "name": name(mqc.MQCA_Q_NAME)}, "QUEUE"
        if c == mqc.MQCMD_INQUIRE_Q_NAMES:
            body["responseParameters"] = ["type"]
    elif c == mqc.MQCMD_INQUIRE_Q_STATUS:
        handles = by_id.get(mqc.MQIACF_Q_STATUS_TYPE)
        handle = handles is not None and handles.value == mqc.MQIACF_Q_HANDLE
        body, kind = {"command": "display", "qualifier": "qstatus",
                      "name": name(mqc.MQCA_Q_NAME)}, "QSTATUS"
        params["type"] = "handle" if handle else "queue"
    elif c in (mqc.MQCMD_INQUIRE_CHANNEL, mqc.MQCMD_INQUIRE_CHANNEL_NAMES):
        body, kind = {"command": "display", "qualifier": "channel",
                      "name": name(mqc.MQCACH_CHANNEL_NAME)}, "CHANNEL"
        chltype = by_id.get(mqc.MQIACH_CHANNEL_TYPE)
        if chltype is not None:
            params["chltype"] = CHANNEL_TYPE.get(chltype.value, str(chltype.value)).lower()
        if c == mqc.MQCMD_INQUIRE_CHANNEL_NAMES:
            body["responseParameters"] = ["chltype"]
    elif c == mqc.MQCMD_INQUIRE_CHANNEL_STATUS:
        body, kind = {"command": "display", "qualifier": "chstatus",
                      "name": name(mqc.MQCACH_CHANNEL_NAME)}, "CHSTATUS"
        instance = by_id.get(mqc.MQIACH_CHANNEL_INSTANCE_TYPE)
        if instance is not None and instance.value == mqc.MQOT_SAVED_CHANNEL:
            params["saved"] = ""
    elif c == mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR:
        body, kind = {"command": "display", "qualifier": "clusqmgr",
                      "name": name(mqc.MQCA_CLUSTER_Q_MGR_NAME)}, "CLUSQMGR"
        cluster = by_id.get(mqc.MQCA_CLUSTER_NAME)
        if cluster is not None:
            params["cluster"] = _text(cluster.value)
    elif c == mqc.MQCMD_RESET_Q_STATS:
        body, kind = {"command": "reset", "qualifier": "qstats",
                      "name": name(mqc.MQCA_Q_NAME)}, ""
    elif c in (mqc.MQCMD_START_CHANNEL, mqc.MQCMD_STOP_CHANNEL):
        verb = "start" if c == mqc.MQCMD_START_CHANNEL else "stop"
        body, kind = {"command": verb, "qualifier": "channel",
                      "name": name(mqc.MQCACH_CHANNEL_NAME)}, ""
        status = by_id.get(mqc.MQIACH_CHANNEL_STATUS)
        if status is not None and status.value == mqc.MQCHS_INACTIVE:
            params["status"] = "inactive"
    elif c == mqc.MQCMD_RESET_Q_MGR:
        action = by_id.get(mqc.MQIACF_ACTION)
        if action is None or action.value != mqc.MQACT_COLLECT_STATISTICS:
            raise RestBodyError("Reset Queue Manager: only Action MQACT_COLLECT_STATISTICS")
        body, kind = {"command": "reset", "qualifier": "qmgr"}, ""
        params["type"] = "statistics"
    else:
        raise RestBodyError(f"{cmd.COMMAND_NAMES.get(c, f'command {c}')} has no "
                            "runCommandJSON form here")
    if filters:
        params["where"] = _where_text(kind, filters[0])
    if body["command"] == "display":
        body.setdefault("responseParameters", ["all"])
    out = {"type": RUN_COMMAND_JSON, **body}
    if params:
        out["parameters"] = params
    return out


# --- body -> PCF command (the server's side) -------------------------------------------------

_KINDS = {"qmgr": "QMGR", "queue": "QUEUE", "qlocal": "QUEUE", "qalias": "QUEUE",
          "qremote": "QUEUE", "qmodel": "QUEUE", "qcluster": "QUEUE", "qstatus": "QSTATUS",
          "channel": "CHANNEL", "chstatus": "CHSTATUS", "clusqmgr": "CLUSQMGR"}


def _body_field(body: Mapping, key: str, *, required: bool = False) -> str:
    value = body.get(key)
    if value is None:
        if required:
            raise RestBodyError(f"the request has no {key}")
        return ""
    if not isinstance(value, str):
        raise RestBodyError(f"the request's {key} is not text")
    return value


def command_of(body: object) -> tuple[Message, bool]:
    """The PCF command a runCommandJSON body asks for, and whether it asks for names only
    (the answer to DISPLAY QUEUE/CHANNEL with responseParameters of the type alone);
    RestBodyError when the body is not one (or names a command not offered)."""
    if not isinstance(body, Mapping):
        raise RestBodyError("the request is not a JSON object")
    if _body_field(body, "type", required=True) != RUN_COMMAND_JSON:
        raise RestBodyError(f"type {body.get('type')!r}: only {RUN_COMMAND_JSON} is offered")
    verb = _body_field(body, "command", required=True).lower()
    qualifier = _body_field(body, "qualifier", required=True).lower()
    name = _body_field(body, "name") or "*"
    raw = body.get("parameters") or {}
    if not isinstance(raw, Mapping):
        raise RestBodyError("the request's parameters is not a JSON object")
    params = {str(k).lower(): v for k, v in raw.items()}
    wanted = body.get("responseParameters") or ["all"]
    if not isinstance(wanted, list):
        raise RestBodyError("the request's responseParameters is not a list")
    names_only = [str(w).lower() for w in wanted] in (["type"], ["chltype"])

    def param(key: str) -> str:
        value = params.get(key)
        return "" if value is None else str(value)

    where = None
    if "where" in params:
        kind = _KINDS.get(qualifier, "")
        try:
            where = where_filter({"QUEUE": "QLOCAL"}.get(kind, kind), param("where"))
        except ValueError as e:
            raise RestBodyError(f"where {param('where')!r}: {e}") from None
    unknown = set(params) - {"where", "type", "chltype", "saved", "cluster", "status"}
    if unknown:
        raise RestBodyError(f"parameter {sorted(unknown)[0]} is not offered here")
    if verb == "display":
        if qualifier == "qmgr":
            return cmd.inquire_qmgr(), False
        if qualifier == "qmstatus":
            return cmd.inquire_qmgr_status(), False
        if qualifier == "lsstatus":
            return cmd.inquire_listener_status(name), False
        if qualifier in _QTYPE_OF_QUALIFIER:
            qtype = _QTYPE_OF_QUALIFIER[qualifier]
            if names_only:
                return cmd.inquire_queue_names(name, qtype), True
            return cmd.inquire_queue(name, qtype, where=where), False
        if qualifier == "qstatus":
            kind = param("type").lower() or "queue"
            if kind not in ("queue", "handle"):
                raise RestBodyError(f"display qstatus type {kind!r}: queue or handle")
            return cmd.inquire_queue_status(name, handles=kind == "handle", where=where), False
        if qualifier == "channel":
            chltype = param("chltype").upper()
            if chltype and chltype not in _CHLTYPE:
                raise RestBodyError(f"chltype {chltype!r} is not a channel type")
            if names_only:
                return cmd.inquire_channel_names(name), True
            return cmd.inquire_channel(name, _CHLTYPE[chltype] if chltype else None,
                                       where=where), False
        if qualifier == "chstatus":
            return cmd.inquire_channel_status(name, saved="saved" in params,
                                              where=where), False
        if qualifier == "clusqmgr":
            return cmd.inquire_cluster_qmgr(name, param("cluster")), False
    if verb == "reset" and qualifier == "qstats":
        return cmd.reset_queue_stats(name), False
    if verb == "reset" and qualifier == "qmgr":
        if param("type").lower() != "statistics":
            raise RestBodyError("reset qmgr: only type statistics is offered")
        return cmd.reset_qmgr_statistics(), False
    if verb == "start" and qualifier == "channel":
        return cmd.start_channel(name), False
    if verb == "stop" and qualifier == "channel":
        return cmd.stop_channel(name, inactive=param("status").lower() == "inactive"), False
    raise RestBodyError(f"{verb} {qualifier}: not offered here (DISPLAY QMGR, QMSTATUS, "
                        "LSSTATUS, QUEUE, QLOCAL, QALIAS, QREMOTE, QMODEL, QSTATUS, CHANNEL, "
                        "CHSTATUS, CLUSQMGR; RESET QSTATS, QMGR TYPE(STATISTICS); START and "
                        "STOP CHANNEL)")


# --- PCF responses -> answer (the server's side) ---------------------------------------------

def _failure_lines(command: Message, comp_code: int, reason: int) -> list[str]:
    from traceroute.status.commands import CommandFailed

    return [str(CommandFailed(command.header.command, comp_code, reason,
                              what=_named(command)))]


def response_body(command: Message, responses: list[Message], *, qmgr: str,
                  tz: tzinfo = UTC, names_only: bool = False) -> dict:
    """The runCommandJSON answer of the command server's responses to `command`."""
    items: list[dict] = []
    failed = 0
    for m in responses:
        h = m.header
        if h.comp_code != mqc.MQCC_OK:
            failed = failed or h.reason
            items.append({"completionCode": h.comp_code, "reasonCode": h.reason,
                          "message": _failure_lines(command, h.comp_code, h.reason)})
            continue
        items += [{"completionCode": 0, "reasonCode": 0, "parameters": p}
                  for p in _objects(command, m, qmgr, tz, names_only)]
    code = mqc.MQCC_FAILED if failed else mqc.MQCC_OK
    return {"commandResponse": items, "overallCompletionCode": code,
            "overallReasonCode": mqc.MQRCCF_COMMAND_FAILED if failed else 0}


def _named(command: Message) -> str:
    for p in command.parameters:
        if isinstance(p, String):
            return _text(p.value)
    return ""


def _objects(command: Message, m: Message, qmgr: str, tz: tzinfo,
             names_only: bool) -> list[dict]:
    c = command.header.command
    if not m.parameters:
        return []
    if c == mqc.MQCMD_INQUIRE_Q_MGR:
        return [objects.definition_json(resp.definition_from(m, qmgr, "QMGR"))]
    if c == mqc.MQCMD_INQUIRE_Q_MGR_STATUS:
        return [objects.qmgr_status_json(resp.qmgr_status_from(m, qmgr, tz), tz)]
    if c == mqc.MQCMD_INQUIRE_LISTENER_STATUS:
        return [objects.listener_status_json(m)]
    if c == mqc.MQCMD_INQUIRE_Q:
        return [objects.definition_json(resp.definition_from(m, qmgr, "QUEUE"))]
    if c == mqc.MQCMD_INQUIRE_Q_NAMES:
        names = m.get(mqc.MQCACF_Q_NAMES) or []
        types = m.get(mqc.MQIACF_Q_TYPES) or []
        return [{"queue": _text(n), "type": QUEUE_TYPE.get(t, str(t))}
                for n, t in zip(names, [*types, *[0] * len(names)], strict=False)]
    if c == mqc.MQCMD_INQUIRE_Q_STATUS:
        if resp.is_handle_response(m):
            return [objects.handle_json(resp.handle_status_from(m, qmgr))]
        return [objects.queue_status_json(resp.queue_status_from(m, qmgr, tz), tz)]
    if c == mqc.MQCMD_INQUIRE_CHANNEL:
        return [objects.definition_json(resp.definition_from(m, qmgr, "CHANNEL"))]
    if c == mqc.MQCMD_INQUIRE_CHANNEL_NAMES:
        return [{"channel": _text(n)} for n in m.get(mqc.MQCACH_CHANNEL_NAMES) or []]
    if c == mqc.MQCMD_INQUIRE_CHANNEL_STATUS:
        return [objects.channel_status_json(resp.channel_status_from(m, qmgr, tz), tz)]
    if c == mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR:
        return [objects.cluster_qmgr_json(resp.cluster_qmgr_from(m, qmgr))]
    if c == mqc.MQCMD_RESET_Q_STATS:
        return [objects.reset_stats_json(resp.reset_stats_from(m, qmgr))]
    return []


# --- answer -> PCF responses (the client's side) ---------------------------------------------

def _items(body: object) -> list:
    if not isinstance(body, Mapping):
        raise RestBodyError("the answer is not a JSON object")
    items = body.get("commandResponse")
    if items is None:
        items = []
    if not isinstance(items, list):
        raise RestBodyError("the answer's commandResponse is not a list")
    for n, item in enumerate(items, 1):
        if not isinstance(item, Mapping):
            raise RestBodyError(f"commandResponse item {n} is not a JSON object")
    for key in ("overallCompletionCode", "overallReasonCode"):
        value = body.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RestBodyError(f"the answer's {key} is not a number")
    return items


def _code(item: Mapping, key: str, n: int) -> int:
    value = item.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RestBodyError(f"commandResponse item {n}: {key} is not a number")
    return value


def responses_of(command: Message, body: object, *, qmgr: str,
                 tz: tzinfo = UTC, left_out: resp.LeftOut | None = None) -> list[Message]:
    """The PCF responses a command server would have sent for this answer: one per object,
    MsgSeqNumber 1, 2 ..., the last MQCFC_LAST; a failure as the error response with its
    reason (RestBodyError when the answer is not runCommandJSON's). An attribute PCF cannot
    carry here is noted in `left_out` (see `definition_parameters`)."""
    c = command.header.command
    items = _items(body)
    objects_: list[list[Parameter]] = []
    for n, item in enumerate(items, 1):
        comp, reason = _code(item, "completionCode", n), _code(item, "reasonCode", n)
        if comp != mqc.MQCC_OK:
            return [Message(Header(mqc.MQCFT_RESPONSE, c, 1, mqc.MQCFC_LAST, comp, reason),
                            [])]
        what = f"commandResponse item {n}"
        objects_.append(_parameters(c, item.get("parameters", {}), qmgr, tz, what,
                                    left_out))
    overall = body.get("overallCompletionCode", 0)  # type: ignore[union-attr]
    if overall != mqc.MQCC_OK and not items:
        reason = body.get("overallReasonCode", 0)  # type: ignore[union-attr]
        return [Message(Header(mqc.MQCFT_RESPONSE, c, 1, mqc.MQCFC_LAST, overall, reason), [])]
    if c in (mqc.MQCMD_INQUIRE_Q_NAMES, mqc.MQCMD_INQUIRE_CHANNEL_NAMES):
        objects_ = [_names(c, objects_)]
    if not objects_:
        objects_ = [[]]
    last = len(objects_)
    return [Message(Header(mqc.MQCFT_RESPONSE, c, n,
                           mqc.MQCFC_LAST if n == last else mqc.MQCFC_NOT_LAST), params)
            for n, params in enumerate(objects_, 1)]


def _names(c: int, found: list[list[Parameter]]) -> list[Parameter]:
    if c == mqc.MQCMD_INQUIRE_CHANNEL_NAMES:
        return [StringList(mqc.MQCACH_CHANNEL_NAMES,
                           [_text(p[0].value) for p in found if p], width=20)]
    names = [_text(p[0].value) for p in found if p]
    types = [p[1].value for p in found if len(p) > 1]
    return [StringList(mqc.MQCACF_Q_NAMES, names, width=48),
            IntegerList(mqc.MQIACF_Q_TYPES, types)]


def _parameters(c: int, data: object, qmgr: str, tz: tzinfo, what: str,
                left_out: resp.LeftOut | None = None) -> list[Parameter]:
    family = {mqc.MQCMD_INQUIRE_Q_MGR: "QMGR", mqc.MQCMD_INQUIRE_Q: "QUEUE",
              mqc.MQCMD_INQUIRE_CHANNEL: "CHANNEL"}.get(c)
    if family is not None:
        return resp.definition_parameters(objects.definition_of(data, qmgr, family, what),
                                          left_out)[0]
    if c == mqc.MQCMD_INQUIRE_Q_NAMES:
        d = objects.definition_of({"type": "QLOCAL", **(data or {})}, qmgr, "QUEUE", what) \
            if isinstance(data, Mapping) else None
        if d is None:
            raise RestBodyError(f"{what}: parameters is not a JSON object")
        qtype = reverse(QUEUE_TYPE).get(str(data.get("type", "QLOCAL")).upper(),  # type: ignore[union-attr]
                                        mqc.MQQT_LOCAL)
        return [String(mqc.MQCA_Q_NAME, d.name), Integer(mqc.MQIA_Q_TYPE, qtype)]
    if c == mqc.MQCMD_INQUIRE_CHANNEL_NAMES:
        d = objects.definition_of(data, qmgr, "CHANNEL", what)
        return [String(mqc.MQCACH_CHANNEL_NAME, d.name, width=20)]
    if c == mqc.MQCMD_INQUIRE_Q_STATUS:
        if isinstance(data, Mapping) and str(data.get("type", "")).upper() == "HANDLE":
            return resp.handle_status_parameters(objects.handle_of(data, qmgr, what))
        return resp.queue_status_parameters(objects.queue_status_of(data, qmgr, tz, what), tz)
    if c == mqc.MQCMD_INQUIRE_CHANNEL_STATUS:
        return resp.channel_status_parameters(objects.channel_status_of(data, qmgr, tz, what),
                                              tz)
    if c == mqc.MQCMD_INQUIRE_Q_MGR_STATUS:
        return resp.qmgr_status_parameters(objects.qmgr_status_of(data, qmgr, tz, what), tz)
    if c == mqc.MQCMD_INQUIRE_LISTENER_STATUS:
        return objects.listener_status_parameters(data, what)
    if c == mqc.MQCMD_INQUIRE_CLUSTER_Q_MGR:
        return resp.cluster_qmgr_parameters(objects.cluster_qmgr_of(data, qmgr, what))
    if c == mqc.MQCMD_RESET_Q_STATS:
        return resp.reset_stats_parameters(objects.reset_stats_of(data, qmgr, what))
    return []
