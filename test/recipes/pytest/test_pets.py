from email.utils import parsedate_to_datetime


def test_lists_animals_in_id_order(petstore):
    response = petstore.get("/pets", params={"limit": 5})
    assert response.status_code == 200
    ids = [pet["id"] for pet in response.json()]
    assert len(ids) == 5
    assert ids == sorted(ids)
    assert response.headers["X-RateLimit-Limit"] == "60"


def test_creates_an_animal_and_fetches_it_from_location(petstore):
    created = petstore.post("/pets", json={"name": "Rex", "categoryId": 3})
    assert created.status_code == 201
    fetched = petstore.session.get(petstore.origin + created.headers["Location"], timeout=10)
    assert fetched.json() == created.json()
    assert fetched.headers["Sunset"] == "Thu, 05 Dec 2030 00:00:00 GMT"


def test_waits_out_a_429_on_the_virtual_clock(petstore):
    # A frozen clock at a whole minute: the 61 requests all fall in one window.
    petstore.clock(set="2026-03-10T12:00:00Z", frozen=True)
    statuses = [petstore.get("/pets", params={"limit": 1}).status_code for _ in range(61)]
    assert statuses == [200] * 60 + [429]
    limited = petstore.get("/pets")
    wait = int(limited.headers["Retry-After"])
    date = parsedate_to_datetime(limited.headers["Date"]).timestamp()
    assert int(limited.headers["X-RateLimit-Reset"]) - date == wait
    assert wait == 60
    petstore.clock(advance=f"{wait}s")
    assert petstore.get("/pets").status_code == 200
