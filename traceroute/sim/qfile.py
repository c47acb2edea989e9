"""A simulated local queue's queue file: DISPLAY QSTATUS's CURFSIZE and CURMAXFS.

IBM: CURFSIZE is the current size of the queue file in megabytes, rounded up to the nearest
megabyte; CURMAXFS the size the file can grow to, rounded up to the nearest megabyte, given
the block size in use. The queue's MAXFSIZE (megabytes, 20 to 267,386,880, or DEFAULT) is
the size asked for. Files are made of blocks, 512 bytes by default, and a file of 512-byte
blocks can grow to 2,088,960 MB (about 2 TB, what DEFAULT means then; a new queue with
default attributes shows CURMAXFS(2088960)); a larger MAXFSIZE needs larger blocks (1024
bytes: 4,177,920 MB ...), which the queue manager adopts only once the queue is empty: until
then CURMAXFS stays below MAXFSIZE.

The simulator has no files; it estimates:

* size: each message on the queue takes whole blocks holding its message descriptor (an
  MQMD version 2, 364 bytes, for MQ's own record) and its data (on a transmission queue the
  data begins with the MQXQH); the file's size is the sum, so an empty queue's file is 0 MB
  and one short message makes it 1 MB. A real file also keeps space freed by gets until the
  queue manager reclaims it, so a real CURFSIZE can be higher after messages are got.
* block size: 512 bytes until the queue is found empty with a MAXFSIZE that needs other
  blocks: then the smallest block (512 x 2^k) whose file can hold MAXFSIZE (DEFAULT keeps
  the block in use).
* CURMAXFS: MAXFSIZE when the block in use can hold it, else what the block in use allows;
  for DEFAULT, what the block in use allows.
* a put that would take the file beyond MAXFSIZE fails MQRC_Q_SPACE_NOT_AVAILABLE (2056), as
  IBM says for a queue file at its maximum size (`too_big`, used by the simulator's
  put_limit).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pcf import mqc

BLOCK = 512
#: Megabytes a file of 512-byte blocks can hold (MAXFSIZE DEFAULT with the default block).
DEFAULT_MAX = 2_088_960
#: The largest block (MAXFSIZE's maximum, 267,386,880 MB, needs it).
LARGEST_BLOCK = 64 * 1024
MB = 1024 * 1024
#: What each message holds beside its data: its descriptor.
RECORD = mqc.MQMD_LENGTH_2


def capacity(block: int) -> int:
    """Megabytes a file of `block`-byte blocks can grow to."""
    return DEFAULT_MAX * block // BLOCK


def max_size(attribute: str | None) -> int | None:
    """MAXFSIZE as megabytes; None for DEFAULT (or a value that is not a number)."""
    text = (attribute or "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def block_for(maxfsize: int | None, current: int) -> int:
    """The block size an empty queue adopts for MAXFSIZE (DEFAULT: the one in use)."""
    if maxfsize is None:
        return current
    block = BLOCK
    while capacity(block) < maxfsize and block < LARGEST_BLOCK:
        block *= 2
    return block


def block_size(value: object) -> int:
    """A block size as an estate folder keeps it (None: the default); ValueError for what is
    not one (a power of two from 512 to 65,536 bytes)."""
    if value is None:
        return BLOCK
    if isinstance(value, bool) or not isinstance(value, int) or \
            not BLOCK <= value <= LARGEST_BLOCK or value & (value - 1):
        raise ValueError(f"block {value!r} is not a queue file block size")
    return value


def file_bytes(lengths: Iterable[int], block: int = BLOCK) -> int:
    """Bytes of the file holding messages of these data lengths."""
    return sum(math.ceil((RECORD + max(n, 0)) / block) * block for n in lengths)


def too_big(lengths: Iterable[int], length: int, attribute: str | None) -> bool:
    """True when a message of data `length` does not fit the file of a queue holding
    messages of `lengths` under MAXFSIZE `attribute` (DEFAULT, or a size beyond what 512-byte
    blocks hold: never, here; a simulation holds no terabytes)."""
    limit = max_size(attribute)
    if limit is None or limit >= DEFAULT_MAX:
        return False
    return file_bytes([*lengths, length]) > limit * MB


def current_size(lengths: Iterable[int], block: int = BLOCK) -> int:
    """CURFSIZE: megabytes, rounded up."""
    return math.ceil(file_bytes(lengths, block) / MB)


def current_max(maxfsize: int | None, block: int = BLOCK) -> int:
    """CURMAXFS: megabytes the file can grow to with the block in use."""
    limit = capacity(block)
    return limit if maxfsize is None else min(maxfsize, limit)
