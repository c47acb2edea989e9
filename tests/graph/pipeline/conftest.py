"""A real S3-compatible server on 127.0.0.1 (moto in server mode), stopped by PID afterwards."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Settings every S3 client in these tests gets (moto takes any key unless auth is on).
S3_ENV = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
          "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
          "AWS_EC2_METADATA_DISABLED": "true"}


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, seconds: float = 60) -> None:
    """Wait until something listens on 127.0.0.1:port."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {seconds} s")


@dataclass
class S3Server:
    """A moto server: its endpoint, log file, and the environment that points at it."""

    endpoint: str
    log: Path
    env: dict[str, str]

    def client(self, **credentials):
        """A boto3 S3 client of this server."""
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id=credentials.get("key", "testing"),
                            aws_secret_access_key=credentials.get("secret", "testing"))

    def requests(self) -> list[str]:
        """The HTTP request lines the server logged so far."""
        return [line for line in self.log.read_text().splitlines() if '"' in line]


def start_moto(tmp: Path, *, auth_after: int | None = None):
    """Start `python -m moto.server`; with `auth_after`, IAM is enforced after that many calls."""
    pytest.importorskip("moto", reason="moto[server] is in the test extra")
    port = free_port()
    log = tmp / f"moto-{port}.log"
    env = {**os.environ, **S3_ENV}
    if auth_after is not None:
        env["INITIAL_NO_AUTH_ACTION_COUNT"] = str(auth_after)
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p",
                             str(port)], env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)
    try:
        wait_for(port)
    except TimeoutError:
        proc.kill()
        raise
    endpoint = f"http://127.0.0.1:{port}"
    return proc, S3Server(endpoint, log, {**S3_ENV, "AWS_ENDPOINT_URL": endpoint})


def stop(proc: subprocess.Popen) -> None:
    """Stop a process this test started (by its PID)."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """An open moto S3 server (any credentials)."""
    proc, server = start_moto(tmp_path_factory.mktemp("moto"))
    yield server
    stop(proc)


@pytest.fixture(scope="module")
def s3_denying(tmp_path_factory):
    """A moto server enforcing IAM: bucket `mq-deny` with good.dmp readable, secret.dmp not.

    Returns (server, reader credentials, bucket); the reader may list the bucket and get
    good.dmp only. Objects sit at the bucket's root.
    """
    setup_calls = 6  # create bucket, 2 puts, create user, put policy, create key
    proc, server = start_moto(tmp_path_factory.mktemp("moto-auth"), auth_after=setup_calls)
    yield server, proc
    stop(proc)


def denying_setup(server: S3Server, good: bytes, secret: bytes) -> dict[str, str]:
    """Fill the auth server (exactly its free calls) and give the reader's environment."""
    import boto3

    s3 = server.client()
    iam = boto3.client("iam", endpoint_url=server.endpoint, region_name="us-east-1",
                       aws_access_key_id="testing", aws_secret_access_key="testing")
    s3.create_bucket(Bucket="mq-deny")
    s3.put_object(Bucket="mq-deny", Key="good.dmp", Body=good)
    s3.put_object(Bucket="mq-deny", Key="secret.dmp", Body=secret)
    iam.create_user(UserName="reader")
    policy = {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:ListBucket"], "Resource": "arn:aws:s3:::mq-deny"},
        {"Effect": "Allow", "Action": ["s3:GetObject"],
         "Resource": "arn:aws:s3:::mq-deny/good.dmp"}]}
    iam.put_user_policy(UserName="reader", PolicyName="read-good",
                        PolicyDocument=json.dumps(policy))
    key = iam.create_access_key(UserName="reader")["AccessKey"]
    return {**server.env, "AWS_ACCESS_KEY_ID": key["AccessKeyId"],
            "AWS_SECRET_ACCESS_KEY": key["SecretAccessKey"]}
