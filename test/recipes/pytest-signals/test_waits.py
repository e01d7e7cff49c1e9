"""Not a recipe: a test that holds pytest running with the mock up, for the signal tests."""

import json
import time


def test_waits_for_a_signal(petstore_mock):
    with open("ready.json", "w") as ready:
        json.dump(petstore_mock, ready)
    time.sleep(60)
