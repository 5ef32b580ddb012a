"""gpp/core/messages.py: the events carry every field of their payloads, both ways."""

from __future__ import annotations

import pytest
from test_contract import CONTRACT, cases

from gpp.core.messages import Discover
from gpp.core.schema import Violation

DISCOVER_CASES = cases(CONTRACT["payloads"]["discover"])[1]


def test_discover_carries_every_field_of_its_payload() -> None:
    """A field added to the contract's `discover` payload fails here until `Discover` has it
    (the attribute, `from_payload`, `to_payload`): the request object is the whole request."""
    valid = [value for value, _, ok in DISCOVER_CASES if ok]
    assert valid
    for value in valid:
        assert Discover.from_payload(value, "").to_payload() == value
        assert Discover.validated(value).to_payload() == value


def test_validated_refuses_what_the_payload_schema_refuses() -> None:
    refused = [(value, field) for value, field, ok in DISCOVER_CASES if not ok]
    assert refused
    for value, _ in refused:
        with pytest.raises(Violation):
            Discover.validated(value)
