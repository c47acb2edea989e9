"""Publications followed through activity trace: one journey per publication, with a branch
per copy of it that was followed.

A put to a topic (ResolvedType MQOT_TOPIC, ResObjectString the topic) is a message no
consumer gets: the queue manager gives each subscription a copy with a MsgId of its own, and
activity trace records nothing of its publish/subscribe engine (no MQI call of an
application). What ties a copy to its publication is what the copy keeps of it [derived:
seed 002 lists the MQMD fields a subscription may change; PutDate, PutTime, ReplyToQ,
ReplyToQMgr, Report and the data are none of them]: the copy's first traced call — a
subscriber's get, or a sending MCA's get of a copy bound for another queue manager's engine
(its MQXQH keeps the PutDate/PutTime) — is on the queue manager that published it and shows
the publication's PutDate, PutTime, message length, ReplyToQ, ReplyToQMgr and Report. A copy
that reached another queue manager's SYSTEM.INTER.QMGR.PUBS (a receiving MCA put it there)
is published again by that queue manager's engine: the copies first seen there with the same
print are its branches, as deep as the publications went.

`link_publications` hangs each such copy's journey under its publication's (the latest
publication with that print on that queue manager, not later than the copy); a journey with
branches takes its worst branch's verdict and last location (`EXIT_STATUS` order). A copy
nobody traced (waiting on a transmission queue, say: the engine's own put is no traced call)
cannot be followed; but a subscription an application made with a traced MQSUB (its topic,
its queue) that the publication's topic matches and that no followed copy reached is a
branch too: INCOMPLETE, "no copy seen" (it may be out of the publication's reach by design,
a SUBSCOPE or cluster boundary: the note says what was expected and why).

Activity trace alone cannot see a subscription nobody traced (DEFINE SUB) whose copy nobody
got. When the publication's activity reports are read too (the publisher asked for
MQRO_ACTIVITY), `adopt_routes` gives it exactly its route's branches (`traceroute.routes`:
one per Publish or Discarded Publish, nested where another queue manager's engine published
again, as `trace -ts` and `analyze` show them): each copy's traced journey where it was
followed (its MsgId is the Publish operation's), else what the reports say of it.
"""

from __future__ import annotations

from pcf import mqc
from pcf.headers import XQH_LENGTH
from traceroute.journeys.calls import MQICall
from traceroute.journeys.reconstruct import Journey, Step
from traceroute.journeys.verdict import EXIT_STATUS, JourneyVerdict, Location
from traceroute.records.topics import CHAR_SCHEME, TOPIC_SCHEME, matches
from traceroute.routes import Route, Verdict

#: The queue an engine reads the publications other queue managers send it from.
INTER_QMGR_PUBS = "SYSTEM.INTER.QMGR.PUBS"
_UNTRACED = "the original put was not traced"
Print = tuple[str, str, int, str, str, int]


def is_publication(call: MQICall) -> bool:
    """True for a put to a topic (or an alias queue of one)."""
    return call.is_put and (call.resolved_type == mqc.MQOT_TOPIC
                            or bool(call.res_object_string))


def fingerprint(call: MQICall) -> Print | None:
    """What a message keeps of its publication, as a call saw it: PutDate, PutTime, length,
    ReplyToQ, ReplyToQMgr, Report (None when the trace level did not record them)."""
    if call.is_get and call.is_xmit:  # a sending MCA's get: the original's put time
        date, time = call.xmitq_put_date, call.xmitq_put_time
        length = call.msg_length - XQH_LENGTH if call.msg_length is not None else None
    else:
        date, time, length = call.put_date, call.put_time, call.msg_length
    if not date or not time or length is None:
        return None
    return (date.strip(), time.strip(), length, call.reply_to_q.strip(),
            call.reply_to_q_mgr.strip(), call.report or 0)


def _when(journey: Journey) -> float:
    times = journey.times
    return times[0].timestamp() if times else 0.0


def _worst(journey: Journey) -> None:
    """The journey's verdict and last location: its worst branch's."""
    if not journey.branches:
        return
    for b in journey.branches:
        _worst(b)
    worst = max(journey.branches, key=lambda b: EXIT_STATUS[b.verdict])
    journey.verdict, journey.last_location = worst.verdict, worst.last_location


def _sub_options(call: MQICall) -> int:
    """An MQSUB call's Options (MQIACF_SUB_OPTIONS: kept among its other parameters)."""
    found = next((p for p in call.unknown if p.parameter == mqc.MQIACF_SUB_OPTIONS), None)
    value = getattr(found, "value", 0)
    return value if isinstance(value, int) else 0


def _reached(journey: Journey) -> set[tuple[str, str]]:
    """(queue manager, queue) of every place a journey's tree was seen."""
    out = {(s.call.qmgr, s.queue or "") for s in journey.steps}
    loc = journey.last_location
    out.add((loc.queue_manager or "", loc.queue or ""))
    for b in journey.branches:
        out |= _reached(b)
    return out


def _expected(publication: Journey, subscriptions: list[MQICall]) -> None:
    """Branches for the traced subscriptions the publication should have reached and no
    followed copy did."""
    put = publication.steps[0].call
    topic = put.res_object_string
    when = put.time
    if not topic:
        return
    reached = _reached(publication)
    for sub in subscriptions:
        pattern = sub.res_object_string or sub.object_string
        queue = sub.resolved_local_q_name
        scheme = CHAR_SCHEME if _sub_options(sub) & mqc.MQSO_WILDCARD_CHAR else TOPIC_SCHEME
        if not pattern or not queue or not matches(pattern, topic, scheme):
            continue
        if when is not None and sub.time is not None and sub.time > when:
            continue  # subscribed after the publication
        if (sub.qmgr, queue) in reached:
            continue
        publication.branches.append(Journey(
            bytes(24), JourneyVerdict.INCOMPLETE, [Step(sub, "subscribed", queue)],
            Location(sub.qmgr, queue),
            notes=[f"subscription to {pattern} by {sub.conn.appl_name or '?'} on "
                   f"{sub.qmgr} (queue {queue}) matches the topic {topic}: no copy of this "
                   "publication was seen reaching it (not traced, or out of its reach)"]))


def link_publications(journeys: list[Journey],
                      subscriptions: list[MQICall] | None = None) -> list[Journey]:
    """The journeys with each publication's copies hung under it (see the module doc); the
    copies are no journeys of their own any more. `subscriptions`: the traced MQSUB calls
    (`Reconstruction.subscriptions`): each one the publication should have reached and no
    copy did is a branch of its own."""
    parents: dict[tuple[str, Print], list[Journey]] = {}
    for j in journeys:
        if not j.steps:
            continue
        first, last = j.steps[0], j.steps[-1]
        if first.role == "put" and is_publication(first.call):
            fp = fingerprint(first.call)
            if fp is not None:
                parents.setdefault((first.call.qmgr, fp), []).append(j)
        if last.role == "mca_put" and last.queue == INTER_QMGR_PUBS:
            fp = fingerprint(last.call)
            if fp is not None:
                parents.setdefault((last.call.qmgr, fp), []).append(j)
    if not parents:
        return journeys  # no publication traced
    linked: set[int] = set()
    for j in sorted(journeys, key=_when):
        if j.untraced_verdict is None or not j.steps:
            continue
        first = j.steps[0].call
        fp = fingerprint(first)
        candidates = parents.get((first.qmgr, fp), []) if fp is not None else []
        before = [p for p in candidates if p is not j and _when(p) <= _when(j)]
        if not before:
            continue
        parent = max(before, key=_when)
        j.verdict = j.untraced_verdict
        j.notes = [n for n in j.notes if not n.startswith(_UNTRACED)]
        topic = parent.steps[0].call.res_object_string if parent.steps[0].role == "put" \
            else ""
        j.notes.insert(0, f"a copy of the publication {parent.msg_id_hex}"
                          + (f" on topic {topic}" if topic else "")
                          + f", first seen on {first.qmgr}")
        parent.branches.append(j)
        linked.add(id(j))
    out = [j for j in journeys if id(j) not in linked]
    for j in out:
        if subscriptions and j.steps and j.steps[0].role == "put" \
                and is_publication(j.steps[0].call):
            _expected(j, subscriptions)
        _worst(j)
    return out


#: A copy's route verdict as a journey's, when no MQI call of the copy was traced (the
#: others, discarded or expired, are INCOMPLETE: the note says what the reports say).
_OF_ROUTE = {Verdict.DELIVERED: JourneyVerdict.ON_QUEUE,
             Verdict.DEAD_LETTERED: JourneyVerdict.DEAD_LETTERED,
             Verdict.WAITING_ON_XMITQ: JourneyVerdict.ON_XMITQ}


def _tree(journey: Journey) -> list[Journey]:
    return [journey, *(x for b in journey.branches for x in _tree(b))]


def _of_route(branch: Route, traced: dict[bytes, Journey], used: set[bytes]) -> Journey:
    """The journey of a route's branch (a copy): the copy's traced journey, or one told by
    the reports; its own branches the route's."""
    key = branch.correl_id
    j = traced.get(key) if key not in used else None
    used.add(key)
    loc = branch.location
    if j is None:
        via = branch.via
        what = "Discarded Publish" if via is not None and via.type == \
            mqc.MQOPER_DISCARDED_PUBLISH else "Publish"
        place = " ".join(x for x in (loc.queue_manager, loc.queue) if x) or "?"
        if loc.remote_queue_manager:
            place += f", bound for {loc.remote_queue_manager}"
        j = Journey(key, _OF_ROUTE.get(branch.verdict, JourneyVerdict.INCOMPLETE), [],
                    Location(loc.queue_manager, loc.queue),
                    notes=[f"no MQI call of this copy was traced; its activity reports "
                           f"({what} on {via.qmgr if via is not None else '?'}): "
                           f"{branch.verdict.text}, last known at {place}"])
    if branch.branches:
        own = [b for b in j.branches if b.msg_id not in {x.correl_id for x in branch.branches}]
        j.branches = [_of_route(b, traced, used) for b in branch.branches]
        j.branches += [b for b in own if b.msg_id not in used and any(b.msg_id)]
    return j


def adopt_routes(journeys: list[Journey], routes: list[Route]) -> list[Journey]:
    """The journeys with each publication whose route is known (by its MsgId: the route's
    CorrelId) given that route's branches (see the module doc); copies' journeys used there
    are no journeys of their own. Branches for traced MQSUBs no copy reached become notes:
    the route names the queue manager each copy went towards."""
    fanned = {r.correl_id: r for r in routes if r.branches}
    if not fanned:
        return journeys
    traced = {j.msg_id: j for top in journeys for j in _tree(top) if any(j.msg_id)}
    used: set[bytes] = set()
    for j in journeys:
        route = fanned.get(j.msg_id)
        if route is None:
            continue
        used.add(j.msg_id)
        expected = [b for b in j.branches if not any(b.msg_id)]
        j.notes += [n for b in expected for n in b.notes]
        j.branches = []
    for j in journeys:
        route = fanned.get(j.msg_id)
        if route is not None:
            j.branches = [_of_route(b, traced, used) for b in route.branches]
            _worst(j)
    return [j for j in journeys if j.msg_id not in used or j.msg_id in fanned]
