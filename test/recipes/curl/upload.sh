#!/bin/sh
# Sends a scenario and a snapshot to a running petstore-mock (a container, a CI service) with curl
# alone: ./upload.sh [ORIGIN]. Prints the status of a create in the restored session: 503.
set -eu
ORIGIN="${1:-http://127.0.0.1:4010}"
SESSION="${SESSION:-checkout}"

# A scenario as an object (what a scenario file holds), for one session.
curl -fsS -X PUT "$ORIGIN/__admin/scenario" -H "X-Mock-Session: $SESSION" \
  -H 'Content-Type: application/json' \
  -d '{"scenario": {"name": "checkout-outage", "description": "Creating an animal fails with 503.",
       "steps": [{"match": {"operation": "createPet"}, "answer": {"status": 503, "retryAfter": 5}}]}}' \
  >/dev/null

# Save the session's state to a file, and load it into another session (another mock: --import).
curl -fsS "$ORIGIN/__admin/snapshot?session=$SESSION" -o snapshot.json
curl -fsS -X PUT "$ORIGIN/__admin/snapshot?session=$SESSION-copy" \
  -H 'Content-Type: application/json' --data-binary @snapshot.json >/dev/null

curl -sS -o /dev/null -w '%{http_code}\n' -X POST "$ORIGIN/v1/pets" \
  -H "X-Mock-Session: $SESSION-copy" -H 'Authorization: Bearer demo-free' \
  -H 'Content-Type: application/json' -d '{"name": "Rex", "categoryId": 3}'
