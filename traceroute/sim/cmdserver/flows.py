"""What a simulated channel instance sends and receives: DISPLAY CHSTATUS's BYTSSENT,
BYTSRCVD, BUFSSENT and BUFSRCVD.

IBM defines BYTSSENT as the bytes sent since the channel started, control information
included, and BUFSSENT as the transmission buffers sent, including those that carry only
control information (BYTSRCVD, BUFSRCVD: received). MQ does not publish its channel
protocol, so the simulator counts with this model, which is exact for the channel accounting
example of seed 002 ("Monitoring and performance", a receiver that moved 1,102 messages of
4,572 bytes in 335 batches: 337 buffers and 9,852 bytes sent = 2 start buffers of 236 bytes
+ 335 end-of-batch confirmations of 28; 5,043,520 bytes received = 2 x 236 + 1,102 x 4,572
+ 168 x 28):

* A byte is a byte of a transmission buffer the MCA writes to the network: a message is sent
  as it lies on the transmission queue (the MQXQH with its MQMD, then the message data,
  an MQMDE and other headers included) after a transmission segment header (`TSH`, 28
  bytes) in each buffer; a message longer than a buffer (`SEGMENT` bytes, headers included)
  takes as many buffers as it needs, each with its header.
* Starting an instance, each end sends `START_BUFFERS` buffers (the initial-data and
  start exchanges) of `START_BYTES` bytes in all, and receives as many from the other end.
* A batch ends with the sender asking for confirmation on its last message's buffer (no
  buffer of its own) and the receiver confirming with one buffer of `CONFIRM_BYTES` (a
  segment header alone).
* While a running instance has no message to send, a heartbeat every HBINT seconds (the
  larger of the two ends' HBINT, as MQ negotiates it; 0: none) until DISCINT ends it: the
  sender sends one buffer of `HEARTBEAT_BYTES` and the receiver answers with one.
* Not modelled: security (user ID) flows, TLS records, compression; the seed's 168 further
  control buffers from the sender are unexplained there and not reproduced.

Counts start again when a new instance starts (the start exchange only), as MQ's do.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: A transmission segment header: the one in front of every buffer.
TSH = 28
#: The largest transmission buffer, headers included (MQ over TCP: 32 KB segments).
SEGMENT = 32_768
#: The start of an instance, each way: buffers, and their bytes in all.
START_BUFFERS, START_BYTES = 2, 472
#: The receiver's confirmation at the end of each batch: one buffer of these bytes.
CONFIRM_BYTES = TSH
#: A heartbeat, and its answer: one buffer each, a segment header alone.
HEARTBEAT_BYTES = TSH


def message_flow(length: int) -> tuple[int, int]:
    """(bytes, buffers) that carry one message of `length` bytes as it lies on the
    transmission queue."""
    buffers = max(1, math.ceil(max(length, 0) / (SEGMENT - TSH)))
    return max(length, 0) + buffers * TSH, buffers


@dataclass
class Traffic:
    """The bytes and buffers one end of a channel instance sent and received."""

    bytes_sent: int = 0
    bytes_rcvd: int = 0
    bufs_sent: int = 0
    bufs_rcvd: int = 0

    def start(self) -> None:
        """A new instance: only the start exchange, both ways."""
        self.bytes_sent = self.bytes_rcvd = START_BYTES
        self.bufs_sent = self.bufs_rcvd = START_BUFFERS

    def heartbeats(self, beats: int) -> None:
        """`beats` heartbeats exchanged: one buffer each way for each."""
        self.bytes_sent += beats * HEARTBEAT_BYTES
        self.bytes_rcvd += beats * HEARTBEAT_BYTES
        self.bufs_sent += beats
        self.bufs_rcvd += beats

    def plus_heartbeats(self, beats: int) -> Traffic:
        """A copy with `beats` more heartbeats."""
        out = Traffic(self.bytes_sent, self.bytes_rcvd, self.bufs_sent, self.bufs_rcvd)
        out.heartbeats(beats)
        return out

    def clear(self) -> None:
        """The instance ended: nothing."""
        self.bytes_sent = self.bytes_rcvd = self.bufs_sent = self.bufs_rcvd = 0


def heartbeats_between(last_active: float, now: float, hbint: int, discint: int) -> int:
    """Heartbeats an idle instance exchanged since its last message at `last_active` (HBINT
    `hbint` seconds, 0 none; it ends DISCINT `discint` seconds after, 0 never)."""
    if hbint <= 0:
        return 0
    until = now if discint <= 0 else min(now, last_active + discint)
    return max(0, math.floor((until - last_active) / hbint + 1e-9))


def batch_flows(lengths: Iterable[int], batches: int) -> tuple[int, int, int, int]:
    """(bytes, buffers) the sender sends for messages of these lengths, and (bytes,
    buffers) the receiver sends back for `batches` batches."""
    sent = [message_flow(n) for n in lengths]
    return (sum(b for b, _ in sent), sum(n for _, n in sent),
            batches * CONFIRM_BYTES, batches)
