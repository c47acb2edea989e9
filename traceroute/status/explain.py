"""Why a message is where it stopped, in one line, from what the queue manager says now.

`Stop` is where a route or journey ended: on a transmission queue, in transit on a channel,
or on a queue. `explain(stop, queue=..., channel=...)` turns the status of the objects
there (DISPLAY QSTATUS of the queue, DISPLAY CHSTATUS of the channel serving it) into a
sentence an administrator reads at a glance:

    channel QM1.TO.QM2 is STOPPED; transmission queue QM2 holds 8 messages, the oldest 41 s old

Pure: the asking is done elsewhere (`traceroute.mq.admin`), so the same words serve a
simulated estate and a real queue manager.
"""

from __future__ import annotations

from dataclasses import dataclass

from traceroute.status.values import ChannelStatus, QueueStatus

XMITQ, TRANSIT, QUEUE = "xmitq", "transit", "queue"


@dataclass(frozen=True)
class Stop:
    """Where a message stopped: `kind` (xmitq, transit, queue), its queue manager, the queue
    it waits on, the channel that should move it (when known), and the queue manager it is
    bound for (when the transmission queue is not known: a publication's copy)."""

    kind: str
    qmgr: str
    queue: str = ""
    channel: str = ""
    remote: str = ""


def _messages(n: int) -> str:
    return f"{n} message" if n == 1 else f"{n} messages"


def _holds(what: str, q: QueueStatus, where: str = "") -> str:
    if q.curdepth == 0:
        return f"{what} {q.name}{where} is empty now"
    text = f"{what} {q.name}{where} holds {_messages(q.curdepth)}"
    if q.msgage is not None:
        text += f", the oldest {q.msgage} s old"
    elif q.monq == "OFF":
        text += " (MONQ is OFF: their age is not measured)"
    return text


def _channel(c: ChannelStatus | None, name: str) -> str:
    if c is None or c.status == "INACTIVE":
        return f"channel {name} is not running (INACTIVE: no status)"
    why = {"RETRYING": " (it cannot reach its partner, or its partner cannot take the "
                       "messages)",
           "STOPPED": "", "PAUSED": " (waiting to retry a put at the other end)",
           "BINDING": " (still negotiating with its partner)",
           "REQUESTING": " (waiting for its partner to start)",
           "STARTING": " (waiting for an active slot: every one its queue manager's qm.ini "
                       "MaxActiveChannels allows is taken)"}.get(c.status, "")
    text = f"channel {name} is {c.status}{why}"
    if c.status == "RUNNING" and c.msgs is not None:
        text += f" ({_messages(c.msgs)} sent since it started)"
    return text


def explain(stop: Stop, *, queue: QueueStatus | None = None,
            channel: ChannelStatus | None = None, missing: str = "") -> str:
    """The one-line reason, from the status of the stop's queue and channel (`missing`: a
    sentence about an object the queue manager no longer has)."""
    parts: list[str] = []
    if stop.kind in (XMITQ, TRANSIT):
        if stop.channel:
            parts.append(_channel(channel, stop.channel))
        elif stop.kind == XMITQ:
            parts.append(f"no sender channel serves transmission queue {stop.queue}")
        if queue is not None:
            parts.append(_holds("transmission queue", queue))
    elif queue is not None:
        text = _holds("queue", queue, f" on {stop.qmgr}")
        if queue.curdepth:
            text += ("; no application has it open for input (IPPROCS 0)" if not queue.ipprocs
                     else f"; {queue.ipprocs} handle(s) open it for input")
        parts.append(text)
    if missing:
        parts.append(missing)
    return "; ".join(parts) if parts else f"{stop.queue or stop.channel} on {stop.qmgr}: " \
                                            "no status"
