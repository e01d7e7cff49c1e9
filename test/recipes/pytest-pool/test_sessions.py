def test_waits_out_a_429_on_its_own_clock(petstore):
    petstore.scenario("rate-limit-minute")
    limited = petstore.get("/pets?limit=1")
    assert limited.status_code == 429
    petstore.clock(advance=f"{limited.headers['Retry-After']}s")
    assert petstore.get("/pets?limit=1").status_code == 200


def test_creates_in_its_own_store(petstore):
    petstore.scenario("empty-store")
    assert petstore.post("/pets", {"name": "Rex", "categoryId": 1}).status_code == 201
    assert petstore.get("/pets").json() == [{"id": 1, "name": "Rex", "categoryId": 1}]


def test_sessions_do_not_see_each_other(petstore, petstore_origin):
    from conftest import Session

    other = Session(petstore_origin)
    petstore.clock(set="2030-12-05T00:00:00Z", frozen=True)
    assert petstore.admin("GET", "clock") == {"now": "2030-12-05T00:00:00.000Z", "frozen": True}
    assert other.admin("GET", "clock")["now"] != "2030-12-05T00:00:00.000Z"
    assert petstore.get("/pets/1").status_code == 410
    assert other.get("/pets/1").status_code == 200
