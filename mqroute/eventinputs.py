"""Events as inputs, shared by `events`, `show --events` and `follow --events`.

Event messages from dmpmqmsg dumps and raw files, amqsevt JSON (`-o json` / `json_compact`),
and the explanations they give routes and journeys (a channel stopped beside a message stuck
on its transmission queue ...). Reads through `mqroute.inputs`; reports through `Problems`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from mqroute.errors import Problems
from mqroute.inputs import Inputs, expand, read_text
from pcf.errors import InputError
from pcf.text import printable
from traceroute.display.amqsevt import iter_json
from traceroute.events import Event, NotEventData, decode_event
from traceroute.readers import source_name


def read_event_files(inputs: Inputs) -> Iterator[Event]:
    """Every event message of the inputs; other messages counted as skipped."""
    return inputs.decoded(lambda item: decode_event(item.data, item.md, where=item.place),
                          skip=(NotEventData,))


def read_event_json(files: list[str], problems: Problems) -> Iterator[Event]:
    """Every event of amqsevt JSON files (`-`: standard input); bad ones reported."""
    for path in files:
        try:
            text = read_text(path, what="amqsevt JSON")
        except InputError as e:
            problems.error(e)
            continue
        source = source_name(path)
        for item in iter_json(text, source=source):
            if item.event is None:
                problems(f"{source}:{item.line}", item.error or "unreadable")
            else:
                yield item.event


def add_events_option(parser: argparse.ArgumentParser) -> None:
    """`--events FILE...`: event queues (dumps, raw messages) or amqsevt JSON files whose
    events explain where messages stopped."""
    from mqroute.options import several

    several(parser, "--events", dest="events", files=True, metavar="FILE",
            help="event messages (dmpmqmsg dumps, raw files) or amqsevt JSON "
                 "that explain where messages stopped (channel stopped, queue full, service "
                 "interval high ...); repeatable")


def split_json(paths: list[str], problems: Problems) -> tuple[list[str], list[str]]:
    """(dumps and raw files, amqsevt JSON files) of the inputs, folders and URIs expanded:
    JSON is text starting with {, [ or # (a URI: a name ending .json); `-` counts as a dump
    (standard input is read once)."""
    dumps_, jsons = [], []
    for path in (p for given in paths for p in expand(given, problems)):
        if path == "-" or "://" in path:
            (jsons if path.endswith(".json") else dumps_).append(path)
            continue
        try:
            with open(path, "rb") as f:
                head = f.read(4096).lstrip()
        except OSError as e:
            problems(path, e.strerror or str(e))
            continue
        (jsons if head[:1] in (b"{", b"#", b"[") else dumps_).append(path)
    return dumps_, jsons


def read_any_events(paths: list[str], problems: Problems) -> list[Event]:
    """Events from dumps/raw files, or from amqsevt JSON (files whose text starts with {)."""
    dumps_, jsons = split_json(paths, problems)
    return [*read_event_files(Inputs(dumps_, problems)), *read_event_json(jsons, problems)]


def print_explanations(args: argparse.Namespace, *, routes=(), journeys=(),
                       problem=None) -> int:
    """Print the events that explain each route/journey (text: stdout; --json: stderr);
    how many explanations were printed."""
    if not getattr(args, "events", None):
        return 0
    from traceroute.events.explain import explain_journeys, explain_routes

    problem = problem or Problems()
    events = read_any_events(args.events, problem)
    pairs = [(r.correl_id, why) for r, why in explain_routes(list(routes), events)]
    pairs += [(j.msg_id, why) for j, why in explain_journeys(list(journeys), events)]
    out = sys.stderr if getattr(args, "json", False) else sys.stdout
    shown = 0
    for msg_id, why in pairs:
        for w in why:
            when = w.event.time.strftime("%Y-%m-%dT%H:%M:%SZ") if w.event.time else "-"
            print(printable(f"event {msg_id.hex().upper()}: {when} {w.text}"), file=out)
            shown += 1
    print(f"mqroute: {len(events)} events read; {shown} explain where messages stopped",
          file=sys.stderr)
    return shown
