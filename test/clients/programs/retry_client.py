"""Python clients the audit suite runs: requests with urllib3's Retry, and tenacity around httpx.

Usage: retry_client.py LIB MODE WORKERS URL KEY SESSION
  LIB      requests | tenacity
  MODE     good (waits Retry-After, as the libraries' docs advise) | bad (ignores it: requests retries at once, tenacity after 50 ms)
  WORKERS  how many calls run at once, each in its own thread
Prints the final status of each call, comma-separated.
"""
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

lib, mode, workers, url, key, session = sys.argv[1:7]
headers = {"Authorization": f"Bearer {key}", "X-Mock-Session": session}
target = f"{url}/pets?limit=1"


def with_requests():
    """One caller: a Session with urllib3's Retry mounted; returns the call."""
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry

    if mode == "good":
        retry = Retry(total=3, status_forcelist=[429], respect_retry_after_header=True, backoff_factor=0.5, raise_on_status=False)
    else:
        # Retry-After ignored and no backoff: urllib3 retries at once.
        retry = Retry(total=3, status_forcelist=[429], respect_retry_after_header=False, backoff_factor=0, raise_on_status=False)
    session = requests.Session()
    session.mount("http://", HTTPAdapter(max_retries=retry))
    return lambda: session.get(target, headers=headers, timeout=10).status_code


class Limited(Exception):
    def __init__(self, response):
        super().__init__(f"429, Retry-After {response.headers.get('retry-after')}")
        self.response = response


def with_tenacity():
    """One caller: an httpx.Client and a tenacity-wrapped call; returns the call."""
    import httpx
    from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential, wait_fixed

    def wait_retry_after(state) -> float:
        # The wait tenacity's docs suggest composing: the server's Retry-After, else exponential.
        error = state.outcome.exception()
        header = error.response.headers.get("retry-after") if isinstance(error, Limited) else None
        backoff = wait_exponential(multiplier=0.25)(state)
        return max(float(header), backoff) if header and header.isdigit() else backoff

    @retry(
        retry=retry_if_exception_type(Limited),
        stop=stop_after_attempt(4),
        wait=wait_retry_after if mode == "good" else wait_fixed(0.05),
        reraise=True,
    )
    def call(client) -> int:
        response = client.get(target, headers=headers)
        if response.status_code == 429:
            raise Limited(response)
        return response.status_code

    client = httpx.Client(timeout=10)

    def run() -> int:
        try:
            return call(client)
        except Limited as error:
            return error.response.status_code

    return run


# Every caller is built (an httpx.Client takes tens of milliseconds) before the threads are
# released together: four calls at once.
make = with_requests if lib == "requests" else with_tenacity
calls = [make() for _ in range(int(workers))]
start = threading.Barrier(int(workers))


def worker(i):
    start.wait()
    return calls[i]()


with ThreadPoolExecutor(max_workers=int(workers)) as pool:
    print(",".join(str(s) for s in pool.map(worker, range(int(workers)))))
