"""dmpmqmsg (QLOAD) dump files: spec examples, errors with line numbers, round trips, fuzzing."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcf.dmpmqmsg import (
    DumpedMessage,
    DumpFile,
    iter_file,
    iter_messages,
    read,
    read_file,
    write,
    write_file,
)
from pcf.errors import DumpFormatError
from pcf.mqmd import MQMD

INT_FIELDS = ("report", "msg_type", "expiry", "feedback", "encoding", "coded_char_set_id",
              "priority", "persistence", "backout_count", "put_appl_type")
CHAR_FIELDS = {"format": 8, "reply_to_q": 48, "reply_to_q_mgr": 48, "user_identifier": 12,
               "appl_identity_data": 32, "put_appl_name": 28, "put_date": 8, "put_time": 8,
               "appl_origin_data": 4}
BYTE_FIELDS = {"msg_id": 24, "correl_id": 24, "accounting_token": 32}
V2_INT_FIELDS = ("msg_seq_number", "offset", "msg_flags", "original_length")

MQLONG = st.integers(-(2**31), 2**31 - 1)
PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)


def chars(size: int) -> st.SearchStrategy[str]:
    """MQ character field text: printable ASCII, no trailing blanks, within the field."""
    return st.text(PRINTABLE, max_size=size).map(lambda s: s.rstrip(" "))


@st.composite
def mqmds(draw: st.DrawFn) -> MQMD:
    version = draw(st.sampled_from([1, 2]))
    kw: dict[str, object] = {name: draw(MQLONG) for name in INT_FIELDS}
    kw |= {name: draw(chars(size)) for name, size in CHAR_FIELDS.items()}
    kw |= {name: draw(st.binary(min_size=size, max_size=size))
           for name, size in BYTE_FIELDS.items()}
    if version == 2:
        kw |= {name: draw(MQLONG) for name in V2_INT_FIELDS}
        kw["group_id"] = draw(st.binary(min_size=24, max_size=24))
    return MQMD(version=version, **kw)


# Data with runs of printable bytes (to get S lines) as well as arbitrary bytes.
PIECES = st.sampled_from([b"~", b'"', b"~~\"", b"abcd", b"MQADMIN ", b"\x00", b" ", b"\xff",
                          b"<x>", b"hello, world", b"\n", b"\r\n"])
DATA = st.one_of(st.binary(max_size=120), st.lists(PIECES | st.binary(max_size=6),
                                                   max_size=12).map(b"".join))
MESSAGES = st.builds(DumpedMessage, md=st.none() | mqmds(), data=DATA,
                     index=st.none() | st.integers(0, 10**6))
NAMES = st.none() | st.text("ABCXYZ0123456789._%/", max_size=48)


# -- examples written from the spec -------------------------------------------------------------

SPEC_DUMP = """\
* QLOAD Version:V8.0.0 Created:Mon Jan 01 10:00:00 2024
* Qmgr  = QM1
* Queue = SYSTEM.ADMIN.TRACE.ROUTE.QUEUE

* Index 7
A VER 2
A RPT 0
A MST 8
A EXP -1
A FDB 0
A ENC 546
A CCS 819
A FMT MQADMIN
A PRI 0
A PER 1
A MSI 414D5120514D3120202020202020202001020304050607ff
A COI 000000000000000000000000000000000000000000000000
A BOC 3
A RTQ REPLY.Q
A RTM QM1
A USR mqm
A ACC 0000000000000000000000000000000000000000000000000000000000000000
A AIX 6D79206964202020202020202020202020202020202020202020202020202020
A PAT 6
A PAN amqsput
A PTD 20240101
A PTT 10000000
A AOX 61620000
A GRP 000000000000000000000000000000000000000000000001
A MSQ 2
A OFF -16
A MSF 0
A ORL -1
X 0100000024000000      <....$...>
S "Hello ~"world~" ~~ ok"
* a comment inside the message
T plain text  \n\
X ff

N
T two

* Index 9
A VER 1
A FMT MQSTR   \n\
A RTQ
"""


def test_spec_example() -> None:
    dump = read(SPEC_DUMP, source="spec.dmp")
    assert (dump.qmgr, dump.queue) == ("QM1", "SYSTEM.ADMIN.TRACE.ROUTE.QUEUE")
    first, second, third = dump.messages
    assert first.md == MQMD(
        version=2, report=0, msg_type=8, expiry=-1, feedback=0, encoding=546,
        coded_char_set_id=819, format="MQADMIN", priority=0, persistence=1,
        msg_id=bytes.fromhex("414D5120514D3120202020202020202001020304050607ff"),
        correl_id=bytes(24), backout_count=3, reply_to_q="REPLY.Q", reply_to_q_mgr="QM1",
        user_identifier="mqm", accounting_token=bytes(32), appl_identity_data="my id",
        put_appl_type=6, put_appl_name="amqsput", put_date="20240101", put_time="10000000",
        appl_origin_data="ab", group_id=bytes(23) + b"\x01", msg_seq_number=2, offset=-16,
        msg_flags=0, original_length=-1)
    assert first.data == (bytes.fromhex("0100000024000000") + b'Hello "world" ~ ok'
                          + b"plain text  \n" + b"\xff")
    assert (first.line, first.index) == (6, 7)
    assert second == DumpedMessage(None, b"two\n")
    assert (second.line, second.index) == (40, None)
    # The last message ends at end of file; fields it leaves out keep the MQMD defaults.
    assert third.md == MQMD(version=1, format="MQSTR", reply_to_q="")
    assert (third.data, third.line, third.index) == (b"", 44, 9)


def test_data_line_kinds() -> None:
    text = "\n".join([
        "X 48656c6c6f2020    <Hello  >",
        "X 3C3E  <<>>",
        "X",
        'S ""',
        'S "~~~"~~"  ',
        "T",
        "T  two spaces ",
        "X 00 01\t02",
    ])
    [message] = read(text).messages
    assert message.md == MQMD()  # no N line: a descriptor of defaults
    assert message.data == b'Hello  <>~"~\n two spaces \n\x00\x01\x02'


def test_crlf_line_ends_and_blank_lines_of_spaces() -> None:
    dump = read("A VER 1\r\nA USR bob  \r\nX 00\r\n  \r\nN\r\nT x\r\n")
    assert [m.md for m in dump.messages] == [MQMD(version=1, user_identifier="bob"), None]
    assert [m.data for m in dump.messages] == [b"\x00", b"x\n"]


def test_descriptor_leniency() -> None:
    aix = b"id".ljust(32, b"\x00").hex()
    [a, b] = read(f"A VER 1\nA MSQ 5\nA AIX {aix}\nA MSI {'ab' * 24}\n\n"
                  "A AID  my id  \nA AOD ab\nA PRI +4\nA RTQ\n").messages
    # Version-2 codes in a version-1 descriptor are taken (but not written back).
    assert a.md == MQMD(version=1, msg_seq_number=5, appl_identity_data="id",
                        msg_id=b"\xab" * 24)
    assert "A MSQ" not in write([a]) and "A GRP" not in write([a])
    assert b.md == MQMD(appl_identity_data=" my id", appl_origin_data="ab", priority=4)


def test_decimal_limits_and_index_comments() -> None:
    [m] = read(f"* Index {'9' * 5000}\n* Index 12\nA EXP -2147483648\nA PRI 007\n").messages
    assert (m.md.expiry, m.md.priority, m.index) == (-2**31, 7, 12)
    [m] = read(f"* Index {'9' * 5000}\nA OFF {'0' * 5000}2147483647\nA MSQ -00\n").messages
    assert (m.md.offset, m.md.msg_seq_number, m.index) == (2**31 - 1, 0, None)


def test_header_comments() -> None:
    assert read("* Qmgr  = QM1  \n* Queue =\nN\n") == DumpFile(
        "QM1", "", [DumpedMessage(None, b"")])
    assert read("N\n") == DumpFile(None, None, [DumpedMessage(None, b"")])
    assert read("") == DumpFile(None, None, [])
    # read() takes lines as well as text.
    assert read(["* Queue = Q1\n", "X 00\n"]).queue == "Q1"


def test_write_layout() -> None:
    md = MQMD(version=1, format="MQSTR", reply_to_q="R", put_appl_name="app")
    text = write([DumpedMessage(md, bytes(range(10)), index=4)], qmgr="QM1", queue="Q",
                 width=4)
    lines = text.split("\n")
    assert lines[:4] == ["* Dumped by mqroute (dmpmqmsg format)", "* Qmgr  = QM1",
                         "* Queue = Q", ""]
    assert lines[4] == "* Index 4"
    codes = [line[2:5] for line in lines if line.startswith("A ")]
    assert codes == ["VER", "RPT", "MST", "EXP", "FDB", "ENC", "CCS", "FMT", "PRI", "PER",
                     "MSI", "COI", "BOC", "RTQ", "RTM", "USR", "ACC", "AIX", "PAT", "PAN",
                     "PTD", "PTT", "AOX"]
    assert "A FMT MQSTR   " in lines and "A RTQ " + "R".ljust(48) in lines
    assert "A PAN " + "app".ljust(28) in lines
    assert [line for line in lines if line.startswith("X")] == [
        "X 00010203", "X 04050607", "X 0809"]
    assert text.endswith("X 0809\n\n")
    v2 = write([DumpedMessage(MQMD(version=2), b"")])
    assert [line[2:5] for line in v2.split("\n") if line.startswith("A ")][-5:] == [
        "GRP", "MSQ", "OFF", "MSF", "ORL"]
    assert write([DumpedMessage(None, b"")]).endswith("\n\nN\n\n")


def test_write_text_mode_uses_s_and_x_lines() -> None:
    data = b'\x00\x01ab~"cdefgh\x02xyz\x03'
    text = write([DumpedMessage(None, data)], width=4, text=True)
    body = text.split("\n")[2:]
    assert body == ["N", "X 0001", 'S "ab~~~""', 'S "cdef"', 'S "gh"', "X 0278797A", "X 03",
                    "", ""]
    assert read(text).messages[0].data == data


def test_write_rejects_what_a_dump_cannot_hold() -> None:
    with pytest.raises(ValueError, match="reply_to_q"):
        write([DumpedMessage(MQMD(reply_to_q="Q" * 49), b"")])
    with pytest.raises(ValueError, match="user_identifier"):
        write([DumpedMessage(MQMD(user_identifier="a\nb"), b"")])
    with pytest.raises(ValueError, match="priority"):
        write([DumpedMessage(MQMD(priority=2**31), b"")])
    with pytest.raises(ValueError, match="version"):
        write([DumpedMessage(MQMD(version=3), b"")])
    with pytest.raises(ValueError, match="width"):
        write([], width=0)


def test_iter_messages_streams() -> None:
    consumed = 0

    def endless():
        nonlocal consumed
        for line in itertools.cycle(["* Index 1", "A VER 1", "X 0102", ""]):
            consumed += 1
            yield line

    messages = iter_messages(endless())
    first = next(messages)
    assert (first.data, first.line, consumed) == (b"\x01\x02", 2, 4)
    tenth = next(itertools.islice(messages, 8, None))
    assert (tenth.line, tenth.index, consumed) == (38, 1, 40)


def test_files_are_lossless(tmp_path) -> None:
    path = tmp_path / "q.dmp"
    path.write_bytes(b"* Qmgr  = QM\xe91\r\n\r\nA VER 1\r\nA PAN Z\xfcrich\r\n"
                     b'S "\xe9\x85\x0c\x1c"\r\nT caf\xe9\xff\n\nN\nX 0d0a\n')
    dump = read_file(path)
    assert dump.qmgr == "QM\xe91"
    assert dump.messages[0].md == MQMD(version=1, put_appl_name="Z\xfcrich")
    assert dump.messages[0].data == b"\xe9\x85\x0c\x1c" + b"caf\xe9\xff\n"
    assert [m.line for m in iter_file(path)] == [3, 8]
    out = tmp_path / "out.dmp"
    write_file(out, dump.messages, qmgr=dump.qmgr, text=True)
    assert read_file(out) == dump
    assert b"\r" not in out.read_bytes()
    assert write(dump.messages, qmgr=dump.qmgr, text=True) == out.read_bytes().decode("latin-1")


# -- errors name their line ---------------------------------------------------------------------

HEX48 = "00" * 24


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("A VER 2\nA MSI 00\n", 2, "MSI"),
    ("A VER 2\nA MSI " + "G" * 48, 2, "MSI"),
    ("A COI " + HEX48 + "00", 1, "COI"),
    ("A GRP " + "0" * 47, 1, "GRP"),
    ("A ACC " + "00" * 31, 1, "ACC"),
    ("A AIX 20", 1, "AIX"),
    ("A AOX 2020", 1, "AOX"),
    ("A AOX 2020202Z", 1, "AOX"),
    ("* c\n\n* c\nA XYZ 1", 4, "XYZ"),
    ("A PRI abc", 1, "PRI"),
    ("A PRI 1_0", 1, "PRI"),
    ("A PRI", 1, "PRI"),
    ("A EXP 2147483648", 1, "EXP"),
    ("A EXP -2147483649", 1, "EXP"),
    ("A MSQ " + "1" * 5000, 1, "MSQ"),
    ("A VER 3", 1, "VER"),
    ("A RTQ " + "Q" * 49, 1, "RTQ"),
    ("A FMTX", 1, "descriptor"),
    ("A", 1, "descriptor"),
    ("A PRI 1\nA PRI 2", 2, "PRI"),
    ("A AIX " + "20" * 32 + "\nA AID x", 2, "AID"),
    ("X 0G", 1, "hex"),
    ("N\nX 123", 2, "hex"),
    ('S "abc', 1, "closing quote"),
    ('S "a~b"', 1, "~"),
    ('S "a~', 1, "~"),
    ("S abc", 1, "double quotes"),
    ('S "a" b', 1, "after its closing quote"),
    ("X 00\nA VER 2", 2, "after"),
    ("N\nA VER 2", 2, "without descriptor"),
    ("X 00\nN", 2, "N line"),
    ("N\nN", 2, "N line"),
    ("N x", 1, "N line"),
    ("\n\nQ hello", 3, "unrecognised"),
    ("Xab", 1, "unrecognised"),
    (" A VER 1", 1, "unrecognised"),
    ("T caf\u20ac", 1, "byte"),
])
def test_errors_name_the_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(DumpFormatError) as info:
        read(text, source="bad.dmp")
    assert info.value.line == line
    assert fragment in info.value.reason
    assert str(info.value).startswith(f"bad.dmp, line {line}: ")


def test_error_lines_count_from_first_line() -> None:
    messages = iter_messages(["X 00", "", "X 0"], source="part", first_line=100)
    assert next(messages).line == 100
    with pytest.raises(DumpFormatError, match="part, line 102"):
        next(messages)


# -- properties ---------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(MESSAGES, max_size=4), st.integers(1, 64), st.booleans(), NAMES, NAMES)
def test_round_trip(messages: list[DumpedMessage], width: int, text: bool,
                    qmgr: str | None, queue: str | None) -> None:
    dumped = write(messages, qmgr=qmgr, queue=queue, width=width, text=text)
    dump = read(dumped)
    assert dump == DumpFile(qmgr, queue, messages)
    assert [m.index for m in dump.messages] == [m.index for m in messages]
    lines = dumped.split("\n")
    assert all(lines[m.line - 1][:1] in "AN" for m in dump.messages)
    for line in lines:
        if line.startswith("X "):
            assert len(line) <= 2 + 2 * width
        assert text or not line.startswith("S ")


def _is_error_or_fine(text: str) -> None:
    with contextlib.suppress(DumpFormatError):
        assert isinstance(read(text), DumpFile)


LINE_STARTS = st.sampled_from(["A VER ", "A MSI ", "A AIX ", "A AOD ", "A RTQ ", "A ", "X ",
                               'S "', "T ", "N", "", "* Index ", "* Qmgr  = ", "A"])
FUZZ_CHARS = st.sampled_from('0123456789abcdefABCDEFG +-_~"<> \t\r\x00\xe9\u20acNAXST*') | \
    st.characters()


@settings(max_examples=150, deadline=None)
@given(st.text(FUZZ_CHARS, max_size=200))
def test_fuzz_random_text(text: str) -> None:
    _is_error_or_fine(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(LINE_STARTS, st.text(FUZZ_CHARS, max_size=50)), max_size=12))
def test_fuzz_random_lines(parts: list[tuple[str, str]]) -> None:
    _is_error_or_fine("\n".join(start + rest for start, rest in parts))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MESSAGES, min_size=1, max_size=2), st.booleans(), st.data())
def test_fuzz_mutated_dumps(messages: list[DumpedMessage], text: bool,
                            data: st.DataObject) -> None:
    lines = write(messages, qmgr="QM1", queue="Q", width=16, text=text).split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["delete", "insert", "replace", "drop", "dup", "cut"]))
        line = lines[i]
        j = data.draw(st.integers(0, len(line)))
        if op == "delete":
            lines[i] = line[:j] + line[j + 1:]
        elif op in ("insert", "replace"):
            c = data.draw(FUZZ_CHARS)
            lines[i] = line[:j] + c + line[j + (op == "replace"):]
        elif op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, line)
        else:
            lines[i] = line[:j]
        if not lines:
            break
    _is_error_or_fine("\n".join(lines))


def test_on_error_skips_the_bad_message_and_goes_on():
    text = "A FMT MQSTR\nX 4142\n\nA FMT MQSTR\nA ZZZ 1\nX 4344\n\nA FMT MQSTR\nX 4546\n"
    errors = []
    messages = list(iter_messages(text.split("\n"), source="d.dmp", on_error=errors.append))
    assert [m.data for m in messages] == [b"AB", b"EF"]
    assert [e.line for e in errors] == [5] and "d.dmp, line 5" in str(errors[0])
