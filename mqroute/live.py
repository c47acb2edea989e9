"""Reading a queue manager's system queues as they fill: `events`, `stats` and `follow`
with -m, as IBM's amqsevt, amqsmon and amqsact do.

    add_live_options(p)     --browse --wait SECONDS --save FILE (and -m, --network, the
                            connection options, from the command)
    read_queues(args, qmgrs, queues, consumer, ...) -> LiveOutcome

Where the queues are: an estate folder (`--network DIR`; the readers visit it between other
commands, `traceroute.mq.estate`) or real queue managers through ibmmq/pymqi with the
connection options (`-c`, `--client-channel`, `--conname`, `--ccdt`, `--user` ...). What is
read is printed exactly as the same command prints it from files, by the command's
`Consumer`; the no-loss rules are `traceroute.mq.live`'s (destructive under syncpoint, a get
final only once printed and, with `--save`, appended and fsynced; `--browse` leaves the
queues alone; SIGINT stops at the next message, what was read is printed and made final).

Problems: an unknown queue, or one that cannot be read, is one line naming it with MQ's
reason (exit status 1, the other queues still read); an unknown queue manager, no
connection, a dump that cannot be written, or an output that fails: one line, exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from mqroute.errors import EXIT_FATAL, EXIT_OK, EXIT_UNREADABLE, UsageError
from mqroute.paths import output_path
from pcf.text import printable
from traceroute.mq.live import Consumer, LiveSource, Reading, Stop

#: amqsevt's default queues (SYSTEM.ADMIN.PUBSUB.EVENT where it exists: `OPTIONAL_EVENT`).
EVENT_QUEUES = ("SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT",
                "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.CONFIG.EVENT",
                "SYSTEM.ADMIN.COMMAND.EVENT", "SYSTEM.ADMIN.LOGGER.EVENT")
OPTIONAL_EVENT = ("SYSTEM.ADMIN.PUBSUB.EVENT",)
#: amqsmon's queues: statistics, then accounting.
STATS_QUEUES = ("SYSTEM.ADMIN.STATISTICS.QUEUE", "SYSTEM.ADMIN.ACCOUNTING.QUEUE")
#: amqsact's queue.
TRACE_QUEUE = "SYSTEM.ADMIN.TRACE.ACTIVITY.QUEUE"
#: The longest --wait (MQGMO WaitInterval is an MQLONG of milliseconds).
MAX_WAIT = 2147483
#: Exit status of a reading ended by SIGINT.
EXIT_INTERRUPTED = 130

__all__ = ["EVENT_QUEUES", "EXIT_INTERRUPTED", "OPTIONAL_EVENT", "STATS_QUEUES", "TRACE_QUEUE",
           "LiveOutcome", "add_live_options", "live_requested", "read_queues"]


def add_live_options(parser: argparse.ArgumentParser, *, reads: str) -> None:
    """--browse, --wait and --save for reading queues live (with -m)."""
    group = parser.add_argument_group(
        "live (with -m QMGR)", f"read {reads} as it fills, from an estate folder "
        "(--network DIR) or a real queue manager (the connection options): destructive "
        "under syncpoint, each message made final only once printed (and saved)")
    group.add_argument("--browse", action="store_true",
                       help="browse: leave the messages on their queues")
    group.add_argument("--wait", type=float, metavar="SECONDS",
                       help="go on reading until no message has come for SECONDS (0: until "
                            "the queues are empty; without --wait: once through what is "
                            "there)")
    group.add_argument("--save", metavar="FILE", type=output_path,
                       help="append every message read to this dmpmqmsg dump, each fsynced "
                            "before its get is made final (an existing dump is added to)")


def live_requested(args: argparse.Namespace) -> bool:
    """True when the command line asks for a live read (live options given)."""
    return bool(getattr(args, "browse", False) or getattr(args, "wait", None) is not None
                or getattr(args, "save", None))


@dataclass
class LiveOutcome:
    """What a live read did, for the command's summary and exit status."""

    reading: Reading = field(default_factory=Reading)
    sources: list[str] = field(default_factory=list)
    subscribed: list[str] = field(default_factory=list)  # 'QMGR:TOPIC' of the subscriptions
    status: int = EXIT_OK   # EXIT_UNREADABLE when a queue could not be read
    signum: int = 0         # the signal that stopped the reading

    def summary(self, args: argparse.Namespace) -> str:
        """'; read live from QM1 (7 queues)[; browsed][; 3 saved to FILE][; interrupted]'."""
        r = self.reading
        qmgrs = sorted({s.split(":", 1)[0] for s in [*self.sources, *self.subscribed]})
        n, subs = len(self.sources), len(self.subscribed)
        what = [f"{n} queue{'' if n == 1 else 's'}"] if n or not subs else []
        if subs:
            what.append(f"{subs} subscription{'' if subs == 1 else 's'}")
        text = f"; read live from {', '.join(qmgrs)} ({', '.join(what)})"
        if getattr(args, "browse", False):
            text += "; browsed"
        if getattr(args, "save", None):
            text += f"; {r.saved} saved to {args.save}"
        if r.interrupted:
            text += "; interrupted"
        if r.limited:
            text += ("; stopped at 10,000 messages held unprinted (MAXUMSGS): the rest stay "
                     "on their queues")
        return text

    def exit_status(self, status: int) -> int:
        """130 when interrupted (SIGINT; 143 SIGTERM), else 1 when a queue could not be
        read, else `status`."""
        if self.reading.interrupted:
            return 128 + self.signum if self.signum else EXIT_INTERRUPTED
        return max(self.status, status) if status in (EXIT_OK, EXIT_UNREADABLE) \
            else status or self.status


def _check(args: argparse.Namespace) -> None:
    wait = getattr(args, "wait", None)
    if wait is not None and not 0 <= wait <= MAX_WAIT:
        raise UsageError(f"--wait {wait:g}: seconds are 0 to {MAX_WAIT} (MQ's longest wait)")


@contextlib.contextmanager
def _transports(args: argparse.Namespace, qmgrs: list[str]) -> Iterator[list]:
    """A transport per queue manager (estate folder or real), closed at the end."""
    from mqroute.estates import is_folder, simulated_specs
    from mqroute.options import connection_given
    from traceroute.mq.client import PymqiMissing
    from traceroute.mq.transport import TransportError
    from traceroute.sim.estate import EstateError

    specs = simulated_specs(args)
    made: list = []
    try:
        if specs:
            refused = connection_given(args)
            if refused:
                raise UsageError(f"{', '.join(refused)}: no meaning with --network (a "
                                 "simulated estate has no connections to configure)")
            if not is_folder(specs):
                raise UsageError(
                    f"--network {' '.join(specs)}: a live read needs an estate folder (mqroute "
                    "sim init DIR): demo and MQSC files make a network that lives for one "
                    "command, and its system queues are empty")
            from traceroute.mq.estate import EstateTransport, queue_managers

            for name in qmgrs or queue_managers(specs[0]):
                made.append(EstateTransport(specs[0], name))
        else:
            from mqroute.options import connection_of
            from traceroute.mq.client import MQTransport
            from traceroute.mq.options import ConnectionOptionError

            try:
                base = connection_of(args)
            except ConnectionOptionError as e:
                raise UsageError(str(e)) from None
            for name in qmgrs or [""]:  # the default queue manager
                made.append(MQTransport.connect(replace(base, qmgr=name)))
    except (TransportError, PymqiMissing, EstateError) as e:
        for t in made:
            with contextlib.suppress(Exception):
                t.close()
        raise _Fatal(str(e)) from None
    try:
        yield made
    finally:
        for t in made:
            try:
                t.close()
            except (TransportError, OSError, EstateError) as e:
                _say(f"closing {t.qmgr_name}: {e}")


class _Fatal(Exception):
    """A live read cannot start or go on: one line, exit status 2."""


def _say(text: str) -> None:
    print(printable(f"mqroute: {text}"), file=sys.stderr)


@contextlib.contextmanager
def _interruptible() -> Iterator[Stop]:
    """SIGINT (Ctrl-C) and SIGTERM set the Stop instead of ending the process at once (a
    second one ends it: KeyboardInterrupt, everything not final backed out)."""
    stop = Stop()

    def handler(signum, frame):
        if stop.requested:
            raise KeyboardInterrupt
        stop(signum)

    old = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread: no handlers
        pass
    try:
        yield stop
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


def read_queues(args: argparse.Namespace, qmgrs: list[str], queues: list[str],
                consumer: Consumer, *, optional: tuple[str, ...] = (),
                topics: Callable[[str], list] | None = None,
                command: str) -> LiveOutcome:
    """Read `queues` (and `optional` ones where they exist) of each queue manager live (none
    named: every queue manager of an estate folder, or the default queue manager) and
    give every message to `consumer`; FatalError-like problems end the command with status
    2 (raised as SystemExit after one line); a queue that cannot be read is one line and
    status 1 in the outcome. `topics(qmgr)`: the topics (traceroute.mq.trace_topics
    .TraceTopic) to subscribe to on that queue manager for the reading (MQSUB, non-durable,
    managed: their publications are read as a queue's messages; the subscriptions end
    with the reading); one that MQ refuses is one line with its reason, status 1."""
    from mqroute.output import OutputError, output_written
    from traceroute.mq.archive import Archive, ArchiveError
    from traceroute.mq.live import read_live
    from traceroute.mq.transport import TransportError
    from traceroute.sim.estate import EstateError

    _check(args)
    outcome = LiveOutcome()
    try:
        archive = Archive(args.save) if args.save else None
    except ArchiveError as e:
        raise UsageError(f"{command}: {e}") from None
    try:
        with _transports(args, qmgrs) as transports, _interruptible() as stop:
            sources = [LiveSource(t, q) for t in transports for q in queues]
            sources += [LiveSource(t, q, optional=True) for t in transports for q in optional]
            outcome.sources = [s.label for s in sources]
            refused = []
            for t in transports:
                for topic in topics(t.qmgr_name) if topics else ():
                    try:
                        sources.append(LiveSource(t, t.subscribe(topic)))
                        outcome.subscribed.append(sources[-1].label)
                    except TransportError as e:
                        refused.append(f"{t.qmgr_name}:{topic.topic}: {e}")
                        _say(f"{command}: {refused[-1]}")
            try:
                outcome.reading = read_live(
                    sources, consumer, browse=args.browse, wait=args.wait, archive=archive,
                    written=output_written, stop=stop,
                    problem=lambda line: _say(f"{command}: {line}"))
                outcome.signum = stop.signum
                outcome.reading.problems[:0] = refused
            except OutputError as e:
                raise _Fatal(f"the output cannot be written ({e}): what was read and not "
                             "made final is backed out and stays on its queue") from None
            except ArchiveError as e:
                raise _Fatal(f"{e}: the message that could not be saved is backed out and "
                             "stays on its queue, as does everything read and not yet "
                             "printed") from None
            except (TransportError, EstateError) as e:
                raise _Fatal(f"{e}: what was read and not made final is backed out") from None
    except _Fatal as e:
        _say(f"{command}: {e}")
        raise SystemExit(EXIT_FATAL) from None
    finally:
        if archive is not None:
            archive.close()
    if outcome.reading.problems:
        outcome.status = EXIT_UNREADABLE
    return outcome
