"""MQ's administrative REST API: `mqroute sim rest` serving an estate folder over real HTTP
(and HTTPS) on 127.0.0.1, and `status`, `config`, `audit -m` and `metrics` asking it with
--rest: the same answers as over PCF, and each failure one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.cli import run, stopped_demo_estate

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "MQROUTE_PASSWORD": "s3cret"}
MQSC = "/ibmmq/rest/v2/admin/action/qmgr/{}/mqsc"


@pytest.fixture
def estate(tmp_path):
    """The demo estate with QM1.TO.QM2 stopped, monitoring on, 3 messages waiting."""
    return stopped_demo_estate(str(tmp_path / "estate"))


class Server:
    """`mqroute sim rest DIR --listen 127.0.0.1:0` in its own process."""

    def __init__(self, estate: str, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mqroute", "sim", "rest", estate, "--listen",
             "127.0.0.1:0", "--user", "mqadmin", *extra], cwd=ROOT, env=ENV,
            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        assert "the REST API of estate" in line, line + self.process.stderr.read()
        self.url = line.split(" at ")[1].split("/ibmmq/")[0]

    def stop(self) -> str:
        self.process.send_signal(2)
        _, err = self.process.communicate(timeout=30)
        assert self.process.returncode == 0, err
        return err


@pytest.fixture
def server(estate):
    s = Server(estate)
    yield s
    s.stop()


def aged(text: str) -> str:
    """Output with MSGAGE (seconds since the oldest put: the wall clock moves between two
    askings) made equal."""
    import re

    return re.sub(r'"msgage": \d+', '"msgage": N', re.sub(r"MSGAGE\(\d+\)", "MSGAGE(N)", text))


def mqroute(*words: str, password: str = "s3cret") -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, "-m", "mqroute", *words], cwd=ROOT,
                       env={**ENV, "MQROUTE_PASSWORD": password}, capture_output=True,
                       text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


# --- the server, as IBM documents the resource ---------------------------------------------

def post(url: str, qmgr: str, body: object, *, auth=("mqadmin", "s3cret"),
         csrf: bool = True) -> httpx.Response:
    headers = {"ibm-mq-rest-csrf-token": "x"} if csrf else {}
    return httpx.post(url + MQSC.format(qmgr), json=body, auth=auth, headers=headers,
                      timeout=30)


def test_the_server_answers_runcommandjson_and_refuses_as_mqweb_does(server):
    display = {"type": "runCommandJSON", "command": "display", "qualifier": "qstatus",
               "name": "QM2", "responseParameters": ["all"]}
    r = post(server.url, "QM1", display)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    answer = r.json()
    assert answer["overallCompletionCode"] == 0 and answer["overallReasonCode"] == 0
    [item] = answer["commandResponse"]
    assert item["completionCode"] == 0 and item["reasonCode"] == 0
    assert item["parameters"]["queue"] == "QM2" and item["parameters"]["curdepth"] == 3
    assert item["parameters"]["monq"] == "MEDIUM"

    missing = post(server.url, "QM1", {**display, "name": "NO.SUCH.Q"})
    assert missing.status_code == 200 and missing.json()["overallCompletionCode"] == 2
    assert missing.json()["overallReasonCode"] == 3008  # MQRCCF_COMMAND_FAILED
    assert missing.json()["commandResponse"][0]["reasonCode"] == 2085

    no_csrf = post(server.url, "QM1", display, csrf=False)
    assert no_csrf.status_code == 403
    assert no_csrf.json()["error"][0]["messageId"] == "MQWB0100E"

    bad = post(server.url, "QM1", display, auth=("mqadmin", "wrong"))
    assert bad.status_code == 401 and "Basic" in bad.headers["www-authenticate"]
    assert post(server.url, "QM1", display, auth=("nobody", "s3cret")).status_code == 401

    unknown = post(server.url, "QM9", display)
    assert unknown.status_code == 404
    assert unknown.json()["error"][0]["messageId"] == "MQWB0009E"

    assert post(server.url, "QM1", {"type": "runCommand"}).status_code == 400
    junk = httpx.post(server.url + MQSC.format("QM1"), content=b"{not json",
                      auth=("mqadmin", "s3cret"), headers={"ibm-mq-rest-csrf-token": "x"})
    assert junk.status_code == 400 and "MQWB2004E" in junk.json()["error"][0]["message"]
    assert httpx.get(server.url + MQSC.format("QM1"), auth=("mqadmin", "s3cret")) \
        .status_code == 405
    assert httpx.post(server.url + "/elsewhere", auth=("mqadmin", "s3cret")).status_code == 404


# --- the client: the same as PCF ---------------------------------------------------------

def test_status_and_config_over_rest_equal_pcf(server, estate):
    for words in (("status", "--json"), ("status", "--json", "--queue", "QM*"),
                  ("status", "--channel", "QM1.*"), ("config",)):
        rest = mqroute(*words, "-m", "QM1", "--rest", server.url, "-u", "mqadmin")
        pcf = mqroute(*words, "-m", "QM1", "--network", estate)
        assert rest[0] == pcf[0] == 0, rest[2]
        assert aged(rest[1]) == aged(pcf[1]) and rest[1].strip()


@pytest.mark.parametrize("kind, faults", [
    ("hub", {"stopped_channel": 1, "remote_def_no_channel": 1}),
    ("cluster", None),
])
def test_status_rest_equals_status_network_on_generated_estates(tmp_path, kind, faults):
    from traceroute.sim.mqsc import to_mqsc
    from traceroute.sim.netgen import generate

    network = generate(kind, 5, seed=11, faults=faults).network
    mqsc = tmp_path / "estate.mqsc"
    mqsc.write_text(to_mqsc(network))
    estate = str(tmp_path / "e")
    assert run("sim", "init", estate, str(mqsc))[0] == 0
    first = next(iter(network.qmgrs))
    for qmgr in network.qmgrs:  # something to see: messages put everywhere
        run("sim", "runmqsc", estate, qmgr, stdin="ALTER QMGR MONQ(HIGH) MONCHL(HIGH)\n")
    server = Server(estate)
    try:
        for qmgr in network.qmgrs:
            rest = mqroute("status", "--json", "--system", "-m", qmgr, "--rest", server.url,
                           "-u", "mqadmin")
            pcf = mqroute("status", "--json", "--system", "-m", qmgr, "--network", estate)
            assert rest[0] == pcf[0] == 0, rest[2]
            own = ("MQROUTE.ADMIN", "SYSTEM.ADMIN.COMMAND.QUEUE")  # the asking's own marks
            assert [x for x in aged(rest[1]).splitlines() if not any(o in x for o in own)] == \
                [x for x in aged(pcf[1]).splitlines() if not any(o in x for o in own)]
        audit_rest = mqroute("audit", "-m", first, "--rest", server.url, "-u", "mqadmin",
                             "--json")
        audit_pcf = mqroute("audit", "-m", first, "--network", estate, "--json")
        assert audit_rest[0] == audit_pcf[0] and audit_rest[1] == audit_pcf[1]
    finally:
        server.stop()


def test_each_failure_is_one_clear_line(server, estate):
    status, _, err = mqroute("status", "-m", "QM1", "--rest", server.url, "-u", "mqadmin",
                             password="wrong")
    assert status == 2 and err.count("\n") == 1
    assert "HTTP 401" in err and "user mqadmin not accepted" in err
    status, _, err = mqroute("status", "-m", "QM9", "--rest", server.url, "-u", "mqadmin")
    assert status == 2 and err.count("\n") == 1 and "HTTP 404" in err and "MQWB0009E" in err
    status, _, err = mqroute("status", "-m", "QM1", "--queue", "NO.SUCH.Q", "--rest",
                             server.url, "-u", "mqadmin")
    assert status == 1 and "MQRC_UNKNOWN_OBJECT_NAME (2085)" in err
    status, _, err = mqroute("status", "-m", "QM1", "--rest", "http://127.0.0.1:9", "-u",
                             "mqadmin")
    assert status == 2 and err.count("\n") == 1 and "cannot reach the REST API" in err
    status, _, err = mqroute("status", "-m", "QM1", "--rest", server.url, "--network", estate,
                             "-u", "mqadmin")
    assert status == 2 and "not with --network" in err
    status, _, err = mqroute("status", "-m", "QM1", "--rest", server.url, "-c", "-u",
                             "mqadmin")
    assert status == 2 and "no meaning with --rest" in err
    status, _, err = mqroute("status", "--rest", server.url, "-u", "mqadmin")
    assert status == 2 and "-m" in err


def answer(handler):
    """A client over an in-process answerer (httpx.MockTransport)."""
    from traceroute.mq.admin import Admin
    from traceroute.mq.rest import RestCommands

    client = httpx.Client(transport=httpx.MockTransport(handler))
    pauses: list[float] = []
    return Admin(RestCommands("https://mqweb.example:9443", "QM1", user="u", password="p",
                              client=client, sleep=pauses.append)), pauses


def test_csrf_refusal_non_json_and_retries_are_stated():
    from traceroute.mq.admin import AdminError

    seen = []

    def csrf(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(403, json={"error": [{"type": "rest", "messageId": "MQWB0100E",
                                                    "message": "MQWB0100E: The CSRF header "
                                                    "ibm-mq-rest-csrf-token was omitted from "
                                                    "the request."}]})

    admin, _ = answer(csrf)
    with pytest.raises(AdminError) as e:
        admin.queue_status()
    assert "HTTP 403" in str(e.value) and "CSRF header" in str(e.value)
    assert "\n" not in str(e.value)
    sent = seen[0]
    assert sent.url.path == "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc"
    assert sent.headers["ibm-mq-rest-csrf-token"] and sent.headers["authorization"]
    assert json.loads(sent.content) == {"type": "runCommandJSON", "command": "display",
                                        "qualifier": "qstatus", "name": "*",
                                        "parameters": {"type": "queue"},
                                        "responseParameters": ["all"]}

    admin, _ = answer(lambda r: httpx.Response(200, text="<html>Welcome to nginx</html>"))
    with pytest.raises(AdminError) as e:
        admin.queue_status()
    assert "not JSON: '<html>Welcome to nginx</html>'" in str(e.value)

    admin, _ = answer(lambda r: httpx.Response(200, json={"commandResponse": "nonsense"}))
    with pytest.raises(AdminError) as e:
        admin.queue_status()
    assert "not runCommandJSON's" in str(e.value)

    calls = []

    def busy(request: httpx.Request) -> httpx.Response:
        calls.append(json.loads(request.content)["command"])
        return httpx.Response(503, text="")

    admin, pauses = answer(busy)
    with pytest.raises(AdminError):
        admin.queue_status()
    assert calls == ["display"] * 3 and pauses == [0.5, 1.0]  # a DISPLAY twice again
    calls.clear()
    with pytest.raises(AdminError):
        admin.stop_channel("X")
    assert calls == ["stop"]  # a change is never sent twice


def test_the_qmgr_name_is_url_encoded_and_the_base_url_may_hold_the_api_path():
    from traceroute.mq.rest import mqsc_url

    assert mqsc_url("https://h:9443", "QM.A/B%") == \
        "https://h:9443/ibmmq/rest/v2/admin/action/qmgr/QM%2EA%2FB%25/mqsc"
    assert mqsc_url("https://h:9443/ibmmq/rest/v3/", "QM1") == \
        "https://h:9443/ibmmq/rest/v3/admin/action/qmgr/QM1/mqsc"


# --- HTTPS -------------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_https_with_the_servers_ca_or_insecure(estate, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True,
                   capture_output=True)
    server = Server(estate, "--cert", str(cert), "--key", str(key))
    try:
        assert server.url.startswith("https://")
        ok = mqroute("status", "-m", "QM1", "--json", "--rest", server.url, "-u", "mqadmin",
                     "--ca", str(cert))
        assert ok[0] == 0 and '"name": "QM2"' in ok[1]
        unknown = mqroute("status", "-m", "QM1", "--rest", server.url, "-u", "mqadmin")
        assert unknown[0] == 2 and "--ca FILE" in unknown[2] and unknown[2].count("\n") == 1
        insecure = mqroute("status", "-m", "QM1", "--json", "--rest", server.url, "-u",
                           "mqadmin", "--insecure")
        assert insecure[0] == 0 and aged(insecure[1]) == aged(ok[1])
    finally:
        server.stop()


# --- metrics' REST source ------------------------------------------------------------------

def test_metrics_live_status_through_the_rest_api(server, tmp_path):
    out = tmp_path / "qm1.prom"
    status, _, err = mqroute("metrics", "-m", "QM1", "--rest", server.url, "-u", "mqadmin",
                             "--textfile", str(out))
    assert status == 0, err
    text = out.read_text()
    depth = [line for line in text.splitlines()
             if line.startswith("ibmmq_queue_depth{") and 'queue="QM2"' in line]
    assert depth and depth[0].endswith(" 3.0"), depth


def test_the_server_stops_cleanly_and_says_how_many_requests(estate):
    server = Server(estate)
    post(server.url, "QM1", {"type": "runCommandJSON", "command": "display",
                             "qualifier": "qmgr"})
    time.sleep(0.1)
    assert "stopped after 1 requests" in server.stop()


def test_hostile_requests_are_error_bodies_and_the_server_lives_on(estate):
    from traceroute.sim.rest import RestServer

    server = RestServer(estate, user="mqadmin", password="s3cret").start()
    try:
        url = server.url + MQSC.format("QM1")
        auth = ("mqadmin", "s3cret")
        csrf = {"ibm-mq-rest-csrf-token": "x"}
        deep = b"[" * 100_000 + b"]" * 100_000
        r = httpx.post(url, content=deep, auth=auth, headers=csrf, timeout=30)
        assert r.status_code == 400 and "MQWB2004E" in r.json()["error"][0]["message"]
        import base64
        import socket

        host, port = server.address
        with socket.create_connection((host, port), timeout=30) as s:  # a length it will not read
            token = base64.b64encode(b"mqadmin:s3cret").decode()
            s.sendall((f"POST {MQSC.format('QM1')} HTTP/1.1\r\nHost: x\r\n"
                       f"Authorization: Basic {token}\r\nibm-mq-rest-csrf-token: x\r\n"
                       f"Content-Length: {10 << 20}\r\n\r\n{{}}").encode())
            head = s.recv(4096).decode("latin-1")
        assert head.startswith("HTTP/1.1 413")
        odd = httpx.post(server.url + MQSC.format("Q%2FM%00%0A"), json={
            "type": "runCommandJSON", "command": "display", "qualifier": "qmgr"},
            auth=auth, headers=csrf, timeout=30)
        from traceroute.rest.errors import failure_line

        assert odd.status_code == 404 and "'Q/M\x00\n'" in odd.json()["error"][0]["message"]
        line = failure_line(odd.status_code, odd.text, url=url)  # the client says it: one line
        assert "\n" not in line and "\x00" not in line and "MQWB0009E" in line
        wrong = httpx.post(url, json={"type": "runCommandJSON", "command": "display",
                                      "qualifier": "qstatus", "name": 7},
                           auth=auth, headers=csrf, timeout=30)
        assert wrong.status_code == 400 and "name is not text" in wrong.text
        ok = post(server.url, "QM1", {"type": "runCommandJSON", "command": "display",
                                      "qualifier": "qmgr"})
        assert ok.status_code == 200 and ok.json()["commandResponse"][0]["parameters"][
            "qmname"] == "QM1"
    finally:
        server.shutdown()
