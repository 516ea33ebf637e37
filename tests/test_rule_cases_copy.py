"""The rule cases the tests read live in tests/data; when the project's shared folder sits beside the repository
(a development checkout), its cases must equal this copy. Without that folder the test is skipped: nothing in
the suite depends on it."""

import pytest

from conftest import DATA, ROOT, read_cases

UPSTREAM = ROOT.parent / "shared" / "cases"
NAMES = ["race-cases.jsonl", "settle-cases.jsonl"]


@pytest.mark.parametrize("name", NAMES)
def test_copy_in_tests_data_equals_the_upstream_cases(name):
    upstream = UPSTREAM / name
    if not upstream.exists():
        pytest.skip(f"no {upstream} beside this repository")
    assert read_cases(DATA / name) == read_cases(upstream)


@pytest.mark.parametrize("name", NAMES)
def test_copy_in_tests_data_has_named_cases(name):
    cases = read_cases(DATA / name)
    assert cases and all(c["name"] and "expect" in c for c in cases)
    assert len({c["name"] for c in cases}) == len(cases)
