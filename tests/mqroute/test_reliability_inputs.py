"""Issue 17, classes 7, 8 and 13: reads bounded by MQ's limits, stdin/pipes/FIFOs losing no
byte, every bad input reported (file, line or offset, reason) while the rest is processed,
and one exit-code scheme (0 ok, 1 some input unreadable, 2 usage or fatal)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading

import pytest

from pcf import dmpmqmsg
from pcf.errors import InputError
from pcf.limits import MAX_MESSAGE_LENGTH
from traceroute.readers import load_records, read_messages
from traceroute.records import example_reports

MEMORY_LIMIT = 1536 * 1024 * 1024  # address space of each mqroute run


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(*args: str, stdin=None, input: bytes | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "mqroute", *args], stdin=stdin, input=input,
                            capture_output=True, timeout=120, preexec_fn=_limit)
    result.out, result.err = (result.stdout.decode("latin-1"),
                              result.stderr.decode("latin-1"))
    assert "Traceback" not in result.err and "MemoryError" not in result.err, result.err
    return result


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "good.dmp"
    dmpmqmsg.write_file(path, [dmpmqmsg.DumpedMessage(md, d) for md, d in example_reports()])
    return path


def headings(out: str) -> int:
    return sum(line.startswith("Message ") for line in out.splitlines())


# --- 7: bounded reads --------------------------------------------------------------------
def test_dev_zero_names_the_limit():
    r = run("decode", "/dev/zero")
    assert r.returncode == 1
    assert f"mqroute: /dev/zero:offset {MAX_MESSAGE_LENGTH}: " in r.err and "MAXMSGL" in r.err


def test_unbounded_stdin_pipe_names_the_limit():
    producer = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE)
    try:
        r = run("show", "-", stdin=producer.stdout)
    finally:
        producer.kill()
        producer.wait()
    assert r.returncode == 1 and "mqroute: <stdin>:offset" in r.err and "MAXMSGL" in r.err


def test_garbage_text_is_reported_line_by_line_and_bounded(tmp_path):
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(b"".join(b"Z%d garbage\n\n" % k for k in range(200)))
    r = run("decode", str(garbage))
    assert r.returncode == 1
    lines = r.err.splitlines()
    assert lines[0] == f"mqroute: {garbage}:1: unrecognised line 'Z0 garbage'"
    assert lines[-1] == f"mqroute: {garbage}: 180 more problems not shown (200 in all)"
    assert len(lines) == 21


def test_stdin_and_slow_pipe_lose_no_byte(good):
    whole = run("decode", str(good))
    assert whole.returncode == 0 and headings(whole.out) == 4
    piped = run("decode", "-", input=good.read_bytes())
    assert piped.returncode == 0
    assert piped.out == whole.out.replace(str(good), "<stdin>")
    # a writer that hands out 7 bytes at a time: the 512-byte sniff spans many reads
    writer = subprocess.Popen(
        [sys.executable, "-c", "import sys,time\nd=open(sys.argv[1],'rb').read()\n"
         "for i in range(0,len(d),7):\n sys.stdout.buffer.write(d[i:i+7]);"
         "sys.stdout.flush()\n", str(good)], stdout=subprocess.PIPE)
    slow = run("decode", "-", stdin=writer.stdout)
    writer.wait()
    assert slow.returncode == 0 and slow.out == piped.out


def test_raw_message_on_stdin(good):
    _md, data = example_reports()[0]
    r = run("decode", "-", input=data)
    assert r.returncode == 0 and "Message 1 (<stdin>), " in r.out and "Activity" in r.out


def test_fifo(tmp_path, good):
    fifo = tmp_path / "reports.fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as f:
            f.write(good.read_bytes())

    feeder = threading.Thread(target=feed)
    feeder.start()
    r = run("show", str(fifo), "--json")
    feeder.join(10)
    assert r.returncode == 0 and r.out == run("show", str(good), "--json").out


# --- 8: one bad input does not abort the others ---------------------------------------------
def test_missing_empty_directory_and_good(tmp_path, good):
    empty = tmp_path / "empty.dmp"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.dmp"
    for command in ("decode", "show"):
        r = run(command, str(missing), str(empty), str(tmp_path), str(good))
        assert r.returncode == 1, command
        assert f"mqroute: {missing}: No such file or directory" in r.err
        assert f"mqroute: {empty}: empty: no messages in it" in r.err
        assert "Is a directory" not in r.err  # a folder is read: its files, recursively
    assert headings(run("decode", str(missing), str(good)).out) == 4
    assert "Route of message" in run("show", str(missing), str(good)).out


def test_decode_goes_on_past_every_bad_dump_line(tmp_path):
    messages = [dmpmqmsg.DumpedMessage(md, d) for md, d in example_reports()]
    chunks = dmpmqmsg.write(messages).split("\n\n")  # header, 4 messages, ""
    bad = [chunks[0], chunks[1], "A ZZZ 1\nX 00", chunks[2], "X 0", chunks[3],
           "N\nN", chunks[4], ""]
    path = tmp_path / "bad.dmp"
    path.write_text("\n\n".join(bad), encoding="latin-1")
    r = run("decode", str(path))
    assert r.returncode == 1 and headings(r.out) == 4
    problems = [line for line in r.err.splitlines() if line.startswith(f"mqroute: {path}:")]
    assert len(problems) == 3
    text_lines = path.read_text(encoding="latin-1").split("\n")
    for line in problems:  # each names the line it is about
        number = int(line.split(":")[2])
        assert text_lines[number - 1].split()[0] in ("A", "X", "N")


def test_api_reports_each_input(tmp_path, good):
    with pytest.raises(InputError) as e:
        list(read_messages(tmp_path / "nope"))
    assert e.value.source == str(tmp_path / "nope") and isinstance(e.value, OSError)
    problems: list[tuple[str, str]] = []
    records = list(load_records([tmp_path / "nope", good], lambda w, r: problems.append((w, r))))
    assert len(records) == 4 and problems == [(str(tmp_path / "nope"),
                                               "No such file or directory")]


# --- 13: one exit-code scheme ----------------------------------------------------------
@pytest.mark.parametrize("args", [
    ("decode",), ("decode", "--no-such-option"), ("show",), (), ("no-such-command",),
    ("show", "GOOD", "-v", "outline", "colours"), ("show", "GOOD", "-i", "zz"),
])
def test_usage_errors_exit_2(args, good):
    r = run(*[str(good) if a == "GOOD" else a for a in args])
    assert r.returncode == 2 and r.err.strip() and "mqroute" in r.err


def test_empty_decode_is_not_silently_ok(tmp_path):
    empty = tmp_path / "e.dmp"
    empty.write_bytes(b"")
    r = run("decode", str(empty))
    assert r.returncode == 1 and f"mqroute: {empty}: empty" in r.err
    comments = tmp_path / "c.dmp"  # comments, no dump header: not a dump
    comments.write_text("* just a note\n\n")
    r = run("decode", str(comments))
    assert r.returncode == 1 and "no messages" in r.err
    header = tmp_path / "h.dmp"  # an empty queue's dump: good, holding nothing (issue 25)
    header.write_text("* Dumped by dmpmqmsg\n* Qmgr = QM1\n\n")
    r = run("decode", str(header))
    assert (r.returncode, r.err) == (0, "")


def test_ok_is_0_with_nothing_on_stderr(good):
    r = run("decode", str(good))
    assert (r.returncode, r.err) == (0, "")
