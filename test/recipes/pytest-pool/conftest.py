"""One petstore-mock for the whole pytest run, each test in a session of its own (X-Mock-Session),
its clock and scenario driven over the admin API. Works the same under pytest-xdist: every test
names its own session, so workers never see each other's store, counters or clock."""

import json
import os
import shlex
import signal
import subprocess
import uuid

import pytest
import requests

COMMAND = shlex.split(os.environ.get("PETSTORE_MOCK", "npx petstore-mock"))


@pytest.fixture(scope="session")
def petstore_origin():
    """Starts the mock once; yields its origin, e.g. http://127.0.0.1:4010."""
    process = subprocess.Popen([*COMMAND, "--port", "0", "--ready-json", "--quiet"], stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"petstore-mock exited with code {process.wait()} before it was ready")
        yield json.loads(line)["origin"]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
        process.stdout.close()


class Session:
    """One test's own session of the shared mock: the API with its header, and its admin calls."""

    def __init__(self, origin):
        self.origin = origin
        self.http = requests.Session()
        self.http.headers["X-Mock-Session"] = f"pytest-{uuid.uuid4()}"

    def get(self, path, key="demo-free"):
        return self.http.get(f"{self.origin}/v1{path}", headers={"Authorization": f"Bearer {key}"}, timeout=10)

    def post(self, path, body, key="demo-free"):
        return self.http.post(f"{self.origin}/v1{path}", json=body, headers={"Authorization": f"Bearer {key}"}, timeout=10)

    def admin(self, method, path, body=None):
        answer = self.http.request(method, f"{self.origin}/__admin/{path}", json=body, timeout=10)
        answer.raise_for_status()
        return answer.json()

    def scenario(self, name):
        return self.admin("PUT", "scenario", {"name": name})

    def clock(self, **change):
        """clock(set="2030-12-05T00:00:00Z", frozen=True), clock(advance="61s")."""
        return self.admin("POST", "clock", change)


@pytest.fixture
def petstore(petstore_origin):
    session = Session(petstore_origin)
    yield session
    session.http.close()
