"""Where a route ended, and what happened there: the verdict and the last known location."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from pcf import mqc
from pcf.names import name_of
from traceroute.records.model import GET_TYPES, Activity, Operation


class Verdict(StrEnum):
    """How a message's route ended, as far as the activity data shows."""

    DELIVERED = "delivered"
    DISCARDED_AT_TARGET = "discarded_at_target"
    MAX_ACTIVITIES = "max_activities"
    NOT_FORWARDED = "not_forwarded"
    DEAD_LETTERED = "dead_lettered"
    EXPIRED = "expired"
    DISCARDED = "discarded"
    WAITING_ON_XMITQ = "waiting_on_xmitq"
    INCOMPLETE = "incomplete"

    @property
    def terminal(self) -> bool:
        """True when the message's trip is over (nothing more will be recorded)."""
        return self not in (Verdict.WAITING_ON_XMITQ, Verdict.INCOMPLETE)

    @property
    def text(self) -> str:
        """A sentence fragment for people."""
        return _TEXT[self]


_TEXT = {
    Verdict.DELIVERED: "delivered",
    Verdict.DISCARDED_AT_TARGET: "reached its target and was discarded there (not delivered, "
                                 "as a trace-route message with Deliver=NO is)",
    Verdict.MAX_ACTIVITIES: "discarded: it reached its MaxActivities limit",
    Verdict.NOT_FORWARDED: "discarded: it was not forwarded to a queue manager that does "
                           "not support trace-route messages",
    Verdict.DEAD_LETTERED: "put to a dead-letter queue",
    Verdict.EXPIRED: "discarded: it expired",
    Verdict.DISCARDED: "discarded",
    Verdict.WAITING_ON_XMITQ: "waiting on a transmission queue (is its channel running?)",
    Verdict.INCOMPLETE: "incomplete: the activity data stops before the route ends",
}

#: How bad each verdict is (trace's exit statuses: 0 delivered, 3 incomplete, 4 waiting on a
#: transmission queue, 5 dead-lettered, 6 discarded): a fan-out's is its worst branch's.
SEVERITY = {
    Verdict.DELIVERED: 0, Verdict.DISCARDED_AT_TARGET: 0, Verdict.INCOMPLETE: 3,
    Verdict.WAITING_ON_XMITQ: 4, Verdict.DEAD_LETTERED: 5, Verdict.MAX_ACTIVITIES: 6,
    Verdict.NOT_FORWARDED: 6, Verdict.EXPIRED: 6, Verdict.DISCARDED: 6,
}

_DISCARDS = {
    mqc.MQFB_NOT_DELIVERED: Verdict.DISCARDED_AT_TARGET,
    mqc.MQFB_MAX_ACTIVITIES: Verdict.MAX_ACTIVITIES,
    mqc.MQFB_NOT_FORWARDED: Verdict.NOT_FORWARDED,
    mqc.MQFB_EXPIRATION: Verdict.EXPIRED,
}


@dataclass(frozen=True, slots=True)
class Location:
    """Where a message was last seen: queue manager, queue, channel, next queue manager."""

    queue_manager: str | None = None
    queue: str | None = None
    channel: str | None = None
    remote_queue_manager: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A verdict with its location and the feedback or reason MQ gave, if any."""

    verdict: Verdict
    location: Location
    feedback: int | None = None

    @property
    def text(self) -> str:
        """The verdict in words, with where and why when MQ said: 'on the dead-letter queue
        of QM2, reason MQRC_Q_FULL (2053)'."""
        if self.verdict is Verdict.DISCARDED and self.feedback == mqc.MQRC_NO_SUBS_MATCHED:
            return "published to no subscription (MQRC_NO_SUBS_MATCHED)"
        if self.verdict is Verdict.DISCARDED and self.feedback is not None \
                and self.feedback >= mqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR:  # a reason: say it
            name = name_of(self.feedback, "MQRC")
            return f"discarded, reason {name} ({self.feedback})" if name else \
                f"discarded, reason {self.feedback}"

        if self.verdict is Verdict.DEAD_LETTERED and self.location.queue_manager:
            why = ""
            if self.feedback not in (None, mqc.MQFB_NONE):
                assert self.feedback is not None
                name = name_of(self.feedback, "MQRC") or name_of(self.feedback, "MQFB")
                why = f", reason {name} ({self.feedback})" if name else \
                    f", reason {self.feedback}"
            return f"on the dead-letter queue of {self.location.queue_manager}{why}"
        return self.verdict.text


def worst(outcomes: Iterable[Outcome]) -> Outcome:
    """The outcome of highest SEVERITY (the first of equals): a fan-out's verdict."""
    found: Outcome | None = None
    for o in outcomes:
        if found is None or SEVERITY[o.verdict] > SEVERITY[found.verdict]:
            found = o
    return found if found is not None else Outcome(Verdict.INCOMPLETE, Location())


#: Operations that hand a publication to one subscriber (the start of a branch).
PUBLISH_TYPES = frozenset({mqc.MQOPER_PUBLISH, mqc.MQOPER_DISCARDED_PUBLISH})


def publish_outcome(op: Operation, following: Operation | None = None,
                    destination: Location | None = None) -> Outcome:
    """What became of a publication's copy for one subscriber, from its Publish or Discarded
    Publish operation alone (and the operation after it: a Put to the dead-letter queue
    with the same MsgId): delivered, discarded at the target (a trace-route message with
    Deliver=NO), dead-lettered or discarded with the Feedback. `destination` (the
    subscription's queue manager and queue, from Inquire Subscription) names where it
    went; a copy for another queue manager with nothing recorded after its Publish waits on
    a transmission queue, as far as the data shows."""
    where = Location(op.qmgr or None)
    if destination is not None:
        where = Location(destination.queue_manager or op.qmgr or None, destination.queue)
    if op.type == mqc.MQOPER_PUBLISH:
        remote = destination is not None and destination.queue_manager not in (None, op.qmgr)
        if remote:
            return Outcome(Verdict.WAITING_ON_XMITQ,
                           Location(op.qmgr or None, None, None, destination.queue_manager))
        return Outcome(Verdict.DELIVERED, where)
    if op.feedback == mqc.MQFB_NOT_DELIVERED:
        return Outcome(Verdict.DISCARDED_AT_TARGET, where, op.feedback)
    if following is not None and following.is_put and following.feedback == op.feedback \
            and (following.md is None or op.md is None
                 or following.md.msg_id == op.md.msg_id):
        return Outcome(Verdict.DEAD_LETTERED, location_of(following), op.feedback)
    return Outcome(Verdict.DISCARDED, where, op.feedback)


def location_of(op: Operation) -> Location:
    """The location an operation leaves the message at."""
    queue = op.resolved_queue or op.queue
    if op.type == mqc.MQOPER_SEND:
        return Location(op.qmgr, op.xmit_queue, op.channel, op.remote_qmgr)
    if op.type == mqc.MQOPER_RECEIVE:
        return Location(op.qmgr, None, op.channel, None)
    if op.to_xmit_queue:
        return Location(op.qmgr, queue, None, op.remote_qmgr)
    if op.type == mqc.MQOPER_DISCARD:
        return Location(op.qmgr, op.queue, None, op.remote_qmgr)
    return Location(op.qmgr or None, queue, op.channel)


def outcome_of(last: Activity | None, *, ends_in_gap: bool = False) -> Outcome:
    """The outcome of a route path from its last activity.

    A path whose data ends with missing activities is incomplete whatever came before.
    """
    op = last.last if last is not None else None
    if op is None:
        return Outcome(Verdict.INCOMPLETE, Location())
    where = location_of(op)
    if ends_in_gap:
        return Outcome(Verdict.INCOMPLETE, where)
    assert last is not None
    if any(o.topic is not None and o.is_put for o in last.operations):
        return publication_outcome(last)
    if op.type in (mqc.MQOPER_DISCARD, mqc.MQOPER_DISCARDED_PUBLISH,
                   mqc.MQOPER_EXCLUDED_PUBLISH):
        return Outcome(_DISCARDS.get(op.feedback, Verdict.DISCARDED), where, op.feedback)
    if op.is_put:
        if op.feedback not in (None, mqc.MQFB_NONE):
            return Outcome(Verdict.DEAD_LETTERED, where, op.feedback)
        if op.to_xmit_queue:
            return Outcome(Verdict.WAITING_ON_XMITQ, where)
        return Outcome(Verdict.DELIVERED, where)
    if op.type in GET_TYPES and not op.from_xmit_queue:
        return Outcome(Verdict.DELIVERED, where)
    if op.type == mqc.MQOPER_PUBLISH:
        return Outcome(Verdict.DELIVERED, where)
    return Outcome(Verdict.INCOMPLETE, where)


def publication_outcome(activity: Activity) -> Outcome:
    """The outcome of a publishing activity (a Put to a topic, then an operation per
    subscriber considered) from its own operations: its copies' worst, or, when it went to
    no subscriber (none matched, or all were excluded), discarded with
    MQRC_NO_SUBS_MATCHED. Excluded Publish operations are no end of it."""
    ops = activity.operations
    outcomes = []
    for i, op in enumerate(ops):
        if op.type in PUBLISH_TYPES:
            following = ops[i + 1] if i + 1 < len(ops) else None
            outcomes.append(publish_outcome(op, following))
    if not outcomes:
        put = next((o for o in ops if o.is_put and o.topic is not None), None)
        return Outcome(Verdict.DISCARDED, Location(put.qmgr if put else activity.qmgr or None),
                       mqc.MQRC_NO_SUBS_MATCHED)
    return worst(outcomes)
