"""Issue 17: the whole command line against hostile input. Random bytes, random text,
mutated and truncated real vectors and dumps, random MQSC; every run in a subprocess under
an address-space limit and a timeout. No traceback, an exit status from the documented set,
bounded memory (RLIMIT_AS), time and output."""

from __future__ import annotations

import os
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pcf import dmpmqmsg
from tests.conftest import VECTORS
from traceroute.records import example_reports

#: The documented exit statuses: 0 ok, 1 some input unreadable, 2 usage/fatal, 3-6 verdicts.
STATUSES = {0, 1, 2, 3, 4, 5, 6}
MEMORY_LIMIT = 1536 * 1024 * 1024
SECONDS = 60
SEED = int(os.environ.get("MQROUTE_FUZZ_SEED", "17"))  # other seeds explore further


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def check(*args: str, inputs: list[Path], stdin: bytes = b"") -> subprocess.CompletedProcess:
    """Run mqroute; assert the promises every run keeps."""
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "mqroute", *args], capture_output=True,
                       timeout=SECONDS, preexec_fn=_limit, input=stdin)
    took = time.monotonic() - start
    err = r.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "MemoryError" not in err and "internal error" not in err, \
        (args, err[-3000:])
    assert r.returncode in STATUSES, (args, r.returncode, err[-2000:])
    assert took < SECONDS
    size = sum(p.stat().st_size for p in inputs)
    assert len(r.stdout) <= 12 * size + 65536, (args, len(r.stdout), size)
    for line in err.splitlines():  # no piece of a traceback, no bare exception line
        assert not line.lstrip().startswith('File "'), (args, line)
        assert not re.match(r"\w+(Error|Exception|Exit)\b", line), (args, line)
    return r


def _seeds() -> list[bytes]:
    """Valid messages to mutate: the example reports, and the real vectors when present."""
    seeds = [data for _md, data in example_reports()]
    if VECTORS.is_dir():
        seeds += [p.read_bytes() for p in sorted(VECTORS.rglob("*.dat"))]
        seeds += [p.read_bytes() for p in sorted(VECTORS.rglob("*.bin"))]
    return seeds


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rnd.randint(1, 8)):
        choice = rnd.random()
        if choice < 0.5 and b:
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        elif choice < 0.7 and len(b) > 8:  # an int32 field set to an extreme
            k = rnd.randrange(len(b) - 4) & ~3
            b[k:k + 4] = rnd.choice([b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80", b"\0\0\0\0",
                                     b"\x7f\xff\xff\xff", b"\x01\0\0\0"])
        elif choice < 0.85:
            del b[rnd.randrange(len(b) + 1):]  # truncation
        else:
            k = rnd.randrange(len(b) + 1)
            b[k:k] = b[:rnd.randrange(64)]  # duplication
    return bytes(b)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[Path]:
    """Hostile inputs of every kind, a few hundred KB in all."""
    rnd = random.Random(SEED)
    d = tmp_path_factory.mktemp("fuzz")
    files: list[Path] = []

    def add(name: str, data: bytes) -> None:
        path = d / name
        path.write_bytes(data)
        files.append(path)

    seeds = _seeds()
    for k in range(12):
        add(f"raw{k}.bin", _mutate(rnd.choice(seeds), rnd))
    for k in range(4):
        add(f"random{k}.bin", bytes(rnd.randrange(256) for _ in range(rnd.randrange(2000))))
    md_data = example_reports()
    dump = dmpmqmsg.write([dmpmqmsg.DumpedMessage(m, x) for m, x in md_data]).encode()
    for k in range(6):  # dumps: lines edited, dropped, repeated; truncated anywhere
        lines = dump.split(b"\n")
        for _ in range(rnd.randint(1, 6)):
            i = rnd.randrange(len(lines))
            op = rnd.random()
            if op < 0.4:
                lines[i] = _mutate(lines[i], rnd).replace(b"\n", b"")
            elif op < 0.6:
                del lines[i]
            else:
                lines.insert(i, lines[rnd.randrange(len(lines))])
        add(f"dump{k}.dmp", b"\n".join(lines)[:rnd.randrange(len(dump) + 1)])
    dumped = [dmpmqmsg.DumpedMessage(m, _mutate(x, rnd)) for m, x in md_data]
    add("mutated_messages.dmp", dmpmqmsg.write(dumped).encode("latin-1"))
    add("empty.dmp", b"")
    add("text.txt", "".join(rnd.choice("AXSTN \n*~\"0123456789abcdef")
                            for _ in range(3000)).encode())
    return files


def test_decode_and_show_on_everything(corpus):
    names = [str(p) for p in corpus]
    for args in (["decode", *names], ["decode", "--json", *names], ["show", *names],
                 ["show", "--json", *names], ["show", *names, "-v", "all"]):  # -v goes last
        r = check(*args, inputs=corpus)
        assert r.returncode in (0, 1)


def test_each_input_alone(corpus):
    rnd = random.Random(SEED)
    for path in rnd.sample(corpus, 3):
        check("show", str(path), "-v", "outline", "identifiers", inputs=[path])
        check("decode", "--json", str(path), inputs=[path])


def test_other_readers_on_everything(corpus):
    names = [str(p) for p in corpus]
    for args in (["stats"], ["events"], ["follow"]):
        check(*args, *names, inputs=corpus)
    # events that explain routes and journeys, read from every kind of hostile input
    check("show", *names[:4], "--events", *names, inputs=corpus)
    check("follow", *names[:4], "--json", "--events", *names, inputs=corpus)


def test_metrics_on_everything(corpus, tmp_path):
    """mqroute metrics: every hostile input as statistics and as events, once to a textfile
    and OTLP/JSON; an analyze folder of junk tables."""
    pytest.importorskip("prometheus_client")
    names = [str(p) for p in corpus]
    out = tmp_path / "m.prom"
    check("metrics", "--stats", *names, "--events", *names, "--textfile", str(out),
          "--otlp", str(tmp_path / "m.json"), inputs=corpus)
    assert out.exists()
    junk = tmp_path / "out"
    rnd = random.Random(SEED)
    for table in ("routes", "hops", "journeys", "events"):
        (junk / table).mkdir(parents=True)
        (junk / table / "part-0.parquet").write_bytes(rnd.choice(corpus).read_bytes())
    r = check("metrics", "--analyze", str(junk), "--textfile", str(out), inputs=[])
    assert r.returncode == 1


KEYWORDS = ["DEFINE", "DEF", "QLOCAL", "QL", "QREMOTE", "QR", "QALIAS", "CHANNEL",
            "CHLTYPE(SDR)", "CHLTYPE(RCVR)", "XMITQ(QM2)", "RNAME(TARGET.Q)", "RQMNAME(QM2)",
            "CONNAME('h(1414)')", "TARGET(X)", "USAGE(XMITQ)", "REPLACE", "CLUSTER(C)",
            "QMNAME(QM1)", "+", "-", "*", "'", "(", ")", "STOP", "ALTER", "DEFXMITQ(QM2)",
            "\n", "\n", "\n", "A" * 49, "\xe9", "QM1.TO.QM2", "TARG.AT.QM2"]


def test_random_mqsc(tmp_path):
    rnd = random.Random(SEED)
    base = ("DEFINE QREMOTE(TARG.AT.QM2) RNAME(TARGET.Q) RQMNAME(QM2) XMITQ(QM2)\n"
            "DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
            "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(QM2)\n")
    files = []
    for k in range(3):
        words = [rnd.choice(KEYWORDS) for _ in range(rnd.randrange(5, 60))]
        text = base + " ".join(words)
        if k % 2:
            text = text[:rnd.randrange(len(text))]
        path = tmp_path / f"QM1_{k}.mqsc"
        path.write_bytes(text.encode("latin-1", "replace"))
        files.append(path)
    for path in files:
        check("audit", "--mqsc", str(path), inputs=[path])
        check("trace", "--network", str(path), "-m", "QM1", "-q", "TARG.AT.QM2", "-w", "1",
              inputs=[path])


OPS_WORDS = ["time_ms,qmgr,queue,op,count", "0", "1000", "-5", "99999999999999999999", "QM1",
             "Q1", "", "PUT", "GET", "RESET_STATS", "RESTART", "put", "1000000", "\"", ",",
             "\n", "\n", "\x00", "\xe9", "3"]


def _random_ops(rnd: random.Random) -> str:
    rows = ["time_ms,qmgr,queue,op,count"]
    for _ in range(rnd.randrange(1, 40)):
        rows.append(",".join(rnd.choice(OPS_WORDS) for _ in range(rnd.randrange(1, 7))))
    return "\n".join(rows)


def test_events_replay_and_from_json_on_everything(corpus, tmp_path):
    """events replay with random and hostile OPS.csv, amqsevt JSON that is anything but."""
    rnd = random.Random(SEED)
    mqsc = tmp_path / "QM1.mqsc"
    mqsc.write_text("ALTER QMGR PERFMEV(ENABLED)\nDEFINE QLOCAL(Q1) MAXDEPTH(5) "
                    "QDPHIEV(ENABLED) QDPMAXEV(ENABLED) QSVCIEV(HIGH) QSVCINT(100)\n")
    names = [str(p) for p in corpus]
    check("events", "--from-json", *names, inputs=corpus)
    for k in range(4):
        ops = tmp_path / f"ops{k}.csv"
        ops.write_bytes(_random_ops(rnd).encode("utf-8", "replace"))
        check("events", "replay", "--mqsc", str(mqsc), "--ops", str(ops), "--json",
              inputs=[ops])
    for path in rnd.sample(corpus, 4):
        check("events", "replay", "--mqsc", str(mqsc), "--ops", str(path), inputs=[path])
        check("events", "replay", "--mqsc", str(path), "--ops", str(path), inputs=[path])


def test_cfstruct_report_audit_on_everything(corpus, tmp_path):
    """cfstruct on random MQSC and sizes; report and audit --observed on folders of junk."""
    rnd = random.Random(SEED)
    for path in rnd.sample(corpus, 3):
        check("cfstruct", "--mqsc", str(path), inputs=[path])
    for size in ("4G", "0", "-1G", "1Q", "9" * 40, "1.5M", "", "G"):
        check("cfstruct", "--size", size, "--backlog", size, "--message", size, "--usage",
              "80", inputs=[])
    junk = tmp_path / "out"
    for table in ("routes", "hops", "channel_stats", "queue_stats"):
        (junk / table).mkdir(parents=True)
        (junk / table / "part-0.parquet").write_bytes(rnd.choice(corpus).read_bytes())
    mqsc = tmp_path / "QM1.mqsc"
    mqsc.write_text("DEFINE QLOCAL(Q1)\n")
    r = check("report", str(junk), "-o", str(tmp_path / "r.html"), inputs=[])
    assert r.returncode in (0, 2)
    check("audit", "--mqsc", str(mqsc), "--observed", str(junk), inputs=[])
    check("audit", "--mqsc", str(mqsc), "--observed", str(corpus[0]), inputs=[])


def test_smf_on_everything(corpus, tmp_path):
    """mqroute smf: every hostile input, and SMF data sets cut, overwritten and spliced (the
    real ones when present), as data sets with and without RDWs; summary, findings, tables.
    Its --json is IBM's formatter's verbose shape (a 600-byte WQ is 20 KB of JSON): bounded
    by the size of everything read, not of each file."""
    from tests.support.smfrecords import qwhs, record, structure

    rnd = random.Random(SEED)
    built = record(116, 10, qwhs(2), {1: [structure("QCST", {"chlName": "A.B"})] * 3})
    smf = [built * 4] + [p.read_bytes() for p in sorted((VECTORS / "smf").glob("*.dat"))
                         if VECTORS.is_dir()]
    files = list(corpus)
    for k in range(6):
        path = tmp_path / f"smf{k}.dat"
        path.write_bytes(_mutate(rnd.choice(smf), rnd))
        files.append(path)
    names = [str(p) for p in files]
    for args in (["smf"], ["smf", "--findings", "--json"], ["smf", "--no-rdw", "--findings"],
                 ["smf", "--out", str(tmp_path / "tables")], ["smf", "--json", *names[-6:]]):
        r = check(*args, *names, inputs=files + files)
        assert r.returncode in (0, 1, 3)


def test_every_subcommand_is_fuzzed():
    """A new subcommand must be added to this module's runs."""
    from mqroute.main import COMMANDS

    text = Path(__file__).read_text()
    missing = [c for c in COMMANDS if c != "analyze" and f'"{c}"' not in text]
    assert not missing, f"subcommands without a fuzz run: {missing}"


def test_estates_status_and_config_on_everything(corpus, tmp_path):
    """sim init from hostile MQSC; sim runmqsc fed hostile bytes; status, config, sim put and
    get on an estate whose every file was overwritten with junk: an exit status, one line."""
    rnd = random.Random(SEED)
    for k, path in enumerate(rnd.sample(corpus, 3)):
        check("sim", "init", str(tmp_path / f"bad{k}"), str(path), inputs=[path])
    good = tmp_path / "estate"
    check("sim", "init", str(good), "--network", "demo", inputs=[])
    for path in rnd.sample(corpus, 3):
        r = check("sim", "runmqsc", str(good), "QM1", inputs=[path], stdin=path.read_bytes())
        assert r.returncode in (0, 2)
    r = check("sim", "put", str(good), "-m", "QM1", "-q", "TARG.AT.QM2", "--count", "3",
              inputs=[])
    assert r.returncode in (0, 2)
    files = [p for p in sorted(good.rglob("*")) if p.is_file() and p.name != ".lock"]
    for victim in rnd.sample(files, min(4, len(files))):
        saved = victim.read_bytes()
        victim.write_bytes(_mutate(saved or b"x", rnd))
        for words in (["status", "--network", str(good), "-m", "QM1", "--json"],
                      ["config", "--network", str(good), "-m", "QM2"],
                      ["sim", "get", str(good), "-m", "QM1", "-q", "QM2", "--browse"],
                      ["audit", "--network", str(good)]):
            r = check(*words, inputs=[victim])
            assert r.returncode in (0, 1, 2, 3)
        victim.write_bytes(saved)
