# A requests.Session shared by threads, its connections pooled across sessions: it warms two
# connections in session WARM, is refused in SESSION, sends a slow request of WARM from another
# thread, and retries 85 ms after the 429 on the pool's other connection.
#
# Usage: python3 pooled_client.py URL KEY SESSION WARM
# Prints the statuses of the refused request and of the retry, comma-separated.
import sys
import threading
import time

import requests

url, key, session, warm = sys.argv[1:5]
target = url + "/pets?limit=1"
http = requests.Session()


def get(sid):
    return http.get(target, headers={"Authorization": "Bearer " + key, "X-Mock-Session": sid}).status_code


def in_thread(sid):
    t = threading.Thread(target=get, args=(sid,))
    t.start()
    return t


warming = [in_thread(warm), in_thread(warm)]
for t in warming:
    t.join()
refused = get(session)
slow = in_thread(warm)
time.sleep(0.085)
retried = get(session)
slow.join()
print("%d,%d" % (refused, retried))
