"""Tests that upload a scenario and a snapshot to petstore-mock, with the conftest.py fixture of
docs/client-details.md. Each test runs in a session of its own (X-Mock-Session), so they can run
side by side against one mock or one container."""

import uuid

import pytest
import requests


@pytest.fixture
def session(petstore):
    """A fresh session id for this test, sent on every API call of `petstore`."""
    session_id = f"test-{uuid.uuid4().hex[:12]}"
    petstore.session.headers["X-Mock-Session"] = session_id
    return session_id


def admin(petstore, method, path, session, **kwargs):
    return requests.request(method, f"{petstore.origin}/__admin/{path}", headers={"X-Mock-Session": session}, timeout=10, **kwargs)


def test_a_scenario_sent_as_an_object(petstore, session):
    scenario = {
        "name": "checkout-outage",
        "description": "The second create fails with 503 and Retry-After.",
        "steps": [
            {"match": {"operation": "createPet"}, "answer": "normal"},
            {"match": {"operation": "createPet"}, "answer": {"status": 503, "retryAfter": 5}},
        ],
    }
    admin(petstore, "PUT", "scenario", session, json={"scenario": scenario}).raise_for_status()
    assert petstore.post("/pets", json={"name": "Rex", "categoryId": 3}).status_code == 201
    failed = petstore.post("/pets", json={"name": "Rex", "categoryId": 3})
    assert failed.status_code == 503
    assert failed.headers["Retry-After"] == "5"
    assert admin(petstore, "GET", "scenario", session).json()["definition"] == scenario


def test_a_wrong_scenario_names_each_field(petstore, session):
    wrong = {"description": "typos", "steps": [{"answer": {"status": 418}}], "stpes": []}
    response = admin(petstore, "PUT", "scenario", session, json={"scenario": wrong})
    assert response.status_code == 400
    assert sorted(d["field"] for d in response.json()["details"]) == ["/steps/0/answer/status", "/stpes"]


def test_starts_from_a_saved_snapshot(petstore, session, tmp_path):
    # Prepare a state once (here: an animal and a clock at the removal date's eve) and save it ...
    petstore.clock(set="2030-12-04T23:59:00Z", frozen=True)
    rex = petstore.post("/pets", json={"name": "Rex", "categoryId": 3}).json()
    saved = tmp_path / "eve.json"
    saved.write_bytes(admin(petstore, "GET", "snapshot", session).content)

    # ... then start any test from it, in a session of its own.
    other = f"{session}-copy"
    admin(petstore, "PUT", "snapshot", other, data=saved.read_bytes()).raise_for_status()
    petstore.session.headers["X-Mock-Session"] = other
    assert petstore.get(f"/pets/{rex['id']}").json() == rex
    petstore.clock(advance="61s")
    assert petstore.get(f"/pets/{rex['id']}").status_code == 410
