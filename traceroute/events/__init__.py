"""MQ events: typed event messages, amqsevt's JSON, and the performance-event engine.

Holds the Event model (source, type, reason, time, event data; change events paired by
CorrelId), decoding of PCF event messages (MQCFT_EVENT) of every category, amqsevt's
spelling of parameters and values, the pure performance-event engine that follows the
seeds' service-interval and queue-depth algorithms (shared queues in a queue-sharing
group included), building event messages as real PCF, what-if replay of operations, and
the z/OS CF-structure offload rules. May import `pcf` and the standard library only; no
I/O here except what callers pass in.
"""

from traceroute.events.decode import NotEventData, decode_event, event_from_message, pair_changes
from traceroute.events.model import EVENT_QUEUES, ChangePair, Event, EventSource, Unnamed

__all__ = [
    "EVENT_QUEUES",
    "ChangePair",
    "Event",
    "EventSource",
    "NotEventData",
    "Unnamed",
    "decode_event",
    "event_from_message",
    "pair_changes",
]
