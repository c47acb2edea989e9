"""The estate folder: what it holds, that it lives between commands with real ages, that a
save is all-or-nothing, and that it refuses what it cannot read (naming the file)."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta
from importlib import resources

import pytest

from pcf.dmpmqmsg import read_file
from pcf.mqmd import MQMD
from traceroute.sim.estate import Estate, EstateError, is_estate
from traceroute.sim.estate.folder import Folder, FolderError, file_name, mq_name
from traceroute.sim.mqsc import parse_mqsc, read_mqsc

T0 = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)


def demo():
    return parse_mqsc(resources.files("traceroute").joinpath("examples/qm1_qm2.mqsc")
                      .read_text())


@pytest.fixture
def estate(tmp_path):
    path = tmp_path / "estate"
    Estate.create(path, demo(), now=T0)
    return path


def put(e: Estate, qmgr: str, queue: str, data: bytes = b"hello") -> bytes:
    result = e.sim.put(qmgr, queue, MQMD(format="MQSTR"), data)
    assert result.ok, result.reason
    return result.msg_id


def test_the_folder_is_mqsc_dumps_and_json(estate):
    assert is_estate(estate)
    with Estate.open(estate, now=T0 + timedelta(seconds=5)) as e:
        e.sim.stop_channel("QM1", "QM1.TO.QM2")
        put(e, "QM1", "TARG.AT.QM2", b"first")
        put(e, "QM1", "ACTIV.REPLY.Q", b"local")
    files = sorted(str(p.relative_to(estate)) for p in estate.rglob("*") if p.is_file())
    assert files == [".lock", "QM1/channels.json", "QM1/definitions.mqsc",
                     "QM1/messages/ACTIV.REPLY.Q.dmp", "QM1/messages/QM2.dmp",
                     "QM1/queues.json", "QM2/channels.json", "QM2/definitions.mqsc",
                     "QM2/queues.json", "estate.json"]
    # definitions: MQSC that reads back to the demo's objects (no STOP CHANNEL: state)
    text = (estate / "QM1" / "definitions.mqsc").read_text()
    assert "STOP CHANNEL" not in text
    back = read_mqsc([estate / "QM1" / "definitions.mqsc"]).qmgrs["QM1"]
    assert back.queues["TARG.AT.QM2"].attrs == demo().qmgrs["QM1"].queues["TARG.AT.QM2"].attrs
    # messages: dmpmqmsg dumps our own reader (and dmpmqmsg -f) reads
    dump = read_file(estate / "QM1" / "messages" / "QM2.dmp")
    assert dump.qmgr == "QM1" and dump.queue == "QM2" and len(dump.messages) == 1
    assert dump.messages[0].md.format == "MQXMIT" and dump.messages[0].data.endswith(b"first")
    # state: JSON with wall-clock times
    channels = json.loads((estate / "QM1" / "channels.json").read_text())
    assert channels["QM1.TO.QM2"] == {"status": "STOPPED", "stopped": True}
    queues = json.loads((estate / "QM1" / "queues.json").read_text())
    assert queues["QM2"]["messages"][0]["put"] == "2026-11-28T12:00:05.000000Z"
    meta = json.loads((estate / "estate.json").read_text())
    assert meta["queue_managers"] == ["QM1", "QM2"] and meta["epoch"].startswith("2026-11-28")


def test_state_lives_between_commands_and_ages_are_real(estate):
    with Estate.open(estate, now=T0 + timedelta(seconds=10)) as e:
        e.sim.stop_channel("QM1", "QM1.TO.QM2")
        ids = [put(e, "QM1", "TARG.AT.QM2", b"m%d" % i) for i in range(3)]
        e.sim.network.qmgrs["QM1"].attrs["MONQ"] = "MEDIUM"
    with Estate.open(estate, now=T0 + timedelta(seconds=51)) as e:
        assert e.sim.depth("QM1", "QM2") == 3
        assert e.monitor.channel_state("QM1", "QM1.TO.QM2")[0] == "STOPPED"
        assert e.monitor.queue_status("QM1", "QM2").msgage == 41  # put 41 s ago, really
        e.sim.start_channel("QM1", "QM1.TO.QM2")
    with Estate.open(estate, now=T0 + timedelta(seconds=60)) as e:
        assert e.sim.depth("QM1", "QM2") == 0
        got = [e.sim.get("QM2", "TARGET.Q") for _ in range(3)]
        assert [md.msg_id for md, _ in got] == ids
        assert e.monitor.channel_state("QM1", "QM1.TO.QM2")[0] == "RUNNING"
        # MsgIds made later never repeat the earlier ones
        assert put(e, "QM1", "ACTIV.REPLY.Q") not in ids


def test_the_clock_never_goes_back(estate):
    with Estate.open(estate, now=T0 + timedelta(seconds=100)) as e:
        put(e, "QM1", "ACTIV.REPLY.Q")
    with Estate.open(estate, now=T0 + timedelta(seconds=50)) as e:  # the wall clock went back
        assert e.sim.now >= 100
        assert e.monitor.queue_status("QM1", "ACTIV.REPLY.Q").curdepth == 1


def test_a_channel_retrying_reaches_its_partner_once_it_exists(estate):
    with Estate.open(estate, now=T0) as e:
        qm2 = e.sim.network.qmgrs["QM2"]
        del qm2.channels["QM1.TO.QM2"]  # the receiving end is gone
        put(e, "QM1", "TARG.AT.QM2")
    with Estate.open(estate, now=T0 + timedelta(seconds=1)) as e:
        assert e.monitor.channel_state("QM1", "QM1.TO.QM2")[0] == "RETRYING"
        assert e.sim.depth("QM1", "QM2") == 1
        from traceroute.sim.network import MQObject

        e.sim.network.qmgrs["QM2"].channels["QM1.TO.QM2"] = MQObject(
            "CHANNEL", "QM1.TO.QM2", {"CHLTYPE": "RCVR", "TRPTYPE": "TCP"})
    with Estate.open(estate, now=T0 + timedelta(seconds=2)) as e:  # the retry timer ran
        assert e.sim.depth("QM1", "QM2") == 0 and e.sim.depth("QM2", "TARGET.Q") == 1
        assert e.monitor.channel_state("QM1", "QM1.TO.QM2")[0] == "RUNNING"


def test_an_exception_leaves_the_folder_as_it_was(estate):
    before = {p: p.read_bytes() for p in estate.rglob("*") if p.is_file()}
    with pytest.raises(RuntimeError), Estate.open(estate) as e:
        put(e, "QM1", "ACTIV.REPLY.Q")
        raise RuntimeError("the command failed")
    assert {p: p.read_bytes() for p in estate.rglob("*") if p.is_file()} == before


def test_a_save_interrupted_after_its_journal_is_finished_by_the_next_open(estate, monkeypatch):
    def crash(self, writes, removes):
        raise KeyboardInterrupt  # killed between the journal and the renames

    with monkeypatch.context() as m:
        m.setattr(Folder, "_apply", crash)
        with pytest.raises(KeyboardInterrupt), Estate.open(estate) as e:
            put(e, "QM1", "ACTIV.REPLY.Q", b"kept")
    assert (estate / ".commit").exists()
    with Estate.open(estate) as e:
        assert e.sim.browse("QM1", "ACTIV.REPLY.Q")[0][1] == b"kept"
    assert not (estate / ".commit").exists() and not list(estate.rglob("*.new"))


def test_a_save_interrupted_before_its_journal_changes_nothing(estate, monkeypatch):
    from traceroute.sim.estate import folder

    real = folder.write_beside

    def crash(path, text):
        if path.name == ".commit":
            raise KeyboardInterrupt
        return real(path, text)

    with monkeypatch.context() as m:
        m.setattr(folder, "write_beside", crash)
        with pytest.raises(KeyboardInterrupt), Estate.open(estate) as e:
            put(e, "QM1", "ACTIV.REPLY.Q", b"lost")
    assert list(estate.rglob("*.new"))
    with Estate.open(estate) as e:
        assert e.sim.depth("QM1", "ACTIV.REPLY.Q") == 0
    assert not list(estate.rglob("*.new"))


def test_a_second_command_waits_for_the_lock_and_gives_up_with_a_sentence(estate):
    held, release = threading.Event(), threading.Event()

    def hold():
        with Estate.open(estate):
            held.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(10)
    try:
        with pytest.raises(EstateError, match="another command has been using the estate"), \
                Estate.open(estate, wait=0.2):
            pass
    finally:
        release.set()
        t.join()
    with Estate.open(estate, wait=1):
        pass


@pytest.mark.parametrize("damage, says", [
    (lambda d: (d / "estate.json").write_text("{"), "estate.json: not JSON"),
    (lambda d: (d / "estate.json").write_text('{"format": "x"}'), "not an estate folder's"),
    (lambda d: (d / "QM1" / "definitions.mqsc").write_text("DEFINE QLOCAL(\n"),
     "definitions.mqsc:1"),
    (lambda d: (d / "QM1" / "channels.json").write_text("[1]"), "channels.json: not a JSON"),
    (lambda d: (d / "QM1" / "messages").mkdir() or
     (d / "QM1" / "messages" / "NOPE.dmp").write_text(""), "NOPE is not defined on QM1"),
    (lambda d: (d / "QM1" / "queues.json").write_text('{"Q": {"last_put": "noon"}}'),
     "'noon' is not an ISO 8601 time"),
    (lambda d: (d / "QM1" / "queues.json").write_bytes(b'{"\xff"}'),
     r"queues.json: not UTF-8 text \(byte 0xFF at offset 2\)"),
])
def test_a_damaged_folder_is_refused_naming_the_file(estate, damage, says):
    damage(estate)
    with pytest.raises(EstateError, match=says), Estate.open(estate):
        pass


def test_creating_refuses_a_folder_in_use(tmp_path, estate):
    with pytest.raises(EstateError, match="already an estate"):
        Estate.create(estate, demo())
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(EstateError, match="not an empty folder"):
        Estate.create(tmp_path / "full", demo())
    with pytest.raises(EstateError, match="not an estate folder"):
        Estate.open(tmp_path / "full").__enter__()


@pytest.mark.parametrize("name", ["A/B", "50%", ".HIDDEN", "..", "Q.1_x", "a/../b"])
def test_names_become_safe_file_names_and_back(name):
    file = file_name(name)
    assert "/" not in file and not file.startswith(".") and mq_name(file) == name


def test_messages_on_a_queue_whose_name_has_a_slash(estate):
    with Estate.open(estate) as e:
        from traceroute.sim.network import MQObject

        e.sim.network.qmgrs["QM1"].queues["A/B"] = MQObject("QLOCAL", "A/B", {})
        put(e, "QM1", "A/B", b"slash")
    assert (estate / "QM1" / "messages" / "A%2FB.dmp").exists()
    with Estate.open(estate) as e:
        assert e.sim.browse("QM1", "A/B")[0][1] == b"slash"


def test_folder_lock_error_is_an_oserror_with_the_path(tmp_path):
    f = Folder(tmp_path / "missing" / "deeper")
    with pytest.raises(FolderError, match="cannot lock"), f.locked():
        pass


def test_model_queues_are_kept_and_temporary_dynamic_queues_are_not(tmp_path):
    """A QMODEL's DEFTYPE(TEMPDYN) says what it makes: the model itself is configuration
    (it vanished from the folder before); a temporary dynamic queue ends with the command."""
    network = parse_mqsc("* Queue manager name: QMA\nDEFINE QMODEL(APP.MODEL) DESCR('m')\n"
                         "DEFINE QMODEL(APP.PERM) DEFTYPE(PERMDYN)\n")
    Estate.create(tmp_path / "e", network, now=T0)
    with Estate.open(tmp_path / "e", now=T0) as e:
        assert e.sim.network.qmgrs["QMA"].queues["APP.MODEL"].kind == "QMODEL"
        opened = e.sim.open_model("QMA", "APP.MODEL", dynamic_name="TMP.*")
        assert opened.queue.startswith("TMP.")
    text = (tmp_path / "e" / "QMA" / "definitions.mqsc").read_text()
    assert "DEFINE QMODEL('APP.MODEL')" in text and "DEFINE QMODEL('APP.PERM')" in text
    assert "TMP." not in text
