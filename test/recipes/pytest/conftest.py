"""pytest fixtures that run petstore-mock for the tests of a Python client of the Animal Store API.

Copy this file next to your tests. It needs Node.js and petstore-mock (`npm install --save-dev
petstore-mock`, or set PETSTORE_MOCK to the command that starts it) and the requests package.
"""

import json
import os
import shlex
import signal
import subprocess
import time

import pytest
import requests

COMMAND = shlex.split(os.environ.get("PETSTORE_MOCK", "npx petstore-mock"))


@pytest.fixture(scope="session")
def petstore_mock():
    """Starts petstore-mock on a free port for the whole session; yields its ready line as a dict
    (url, origin, port, admin, keys, scenario, pid) and stops it afterwards, also when pytest is
    interrupted (Ctrl-C), terminated (a CI timeout's SIGTERM) or hung up on (SIGHUP)."""
    # --quiet: only the ready line is printed, so nothing waits for this pipe to be read.
    # --lame-duck-time 0: no load balancer is watching, so the stop need not keep answering first.
    # A session of its own: npx does not pass a signal on to the server it started, so the fixture
    # stops the whole group.
    args = ["--port", "0", "--ready-json", "--quiet", "--lame-duck-time", "0"]
    process = subprocess.Popen([*COMMAND, *args], stdout=subprocess.PIPE, text=True, start_new_session=True)
    previous = {sig: signal.signal(sig, _stop_then_end(process)) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"petstore-mock exited with code {process.wait()} before it was ready; run '{shlex.join(COMMAND)} --port 0' to see why.")
        yield json.loads(line)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _shutdown(process)


def _stop_then_end(process):
    """A signal handler: Python skips `finally` when SIGTERM or SIGHUP ends it, so the handler
    stops the mock, then lets the signal end pytest as it would have."""

    def handler(signum, _frame):
        _shutdown(process)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    return handler


def _shutdown(process):
    """Stops the whole group and returns once it is gone: npx may exit before the server it started,
    which still holds the port until its drain ends."""
    if process.stdout.closed:
        return
    _stop(process, signal.SIGTERM)
    if not _gone(process, 10):
        _stop(process, signal.SIGKILL)
        _gone(process, 5)
    process.wait()
    process.stdout.close()


def _gone(process, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        process.poll()  # reaps npx once it exits, or its zombie would keep the group alive
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _stop(process, sig):
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        pass


class Petstore:
    """A requests session on the mock's base URL, sending the demo-free key."""

    def __init__(self, ready, session):
        self.url = ready["url"]
        self.origin = ready["origin"]
        self.session = session

    def get(self, path, **kwargs):
        return self.session.get(self.url + path, timeout=10, **kwargs)

    def post(self, path, **kwargs):
        return self.session.post(self.url + path, timeout=10, **kwargs)

    def clock(self, **change):
        """Sets, freezes or advances the mock's virtual clock, so no test waits for real time:
        clock(set="2030-12-05T00:00:00Z", frozen=True), clock(advance="61s")."""
        self.session.post(f"{self.origin}/__admin/clock", json=change, timeout=10).raise_for_status()


@pytest.fixture
def petstore(petstore_mock):
    """One test's view of the mock, reset first: seeded store, fresh counters, real clock."""
    requests.post(f"{petstore_mock['origin']}/__admin/reset", json={}, timeout=10).raise_for_status()
    with requests.Session() as session:
        session.headers["Authorization"] = "Bearer demo-free"
        yield Petstore(petstore_mock, session)
