"""`packs.builders`: the document pieces every pack words alike (the pii signal's personal
column names, duplicate findings)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.builders import (
    DUPLICATE_ROUTE,
    duplicate_findings,
    location,
    looks_personal,
    pii_value,
)


def test_pii_names_and_duplicate_findings() -> None:
    personal = ["email", "emailAddress", "phone_number", "home_address", "date_of_birth", "dob",
                "ssn", "passport_no", "last_login_ip", "first_name", "lastName", "full_name",
                "birth_date", "e_mail"]  # fmt: skip
    plain = ["id", "title", "created_at", "shipping", "description", "zip", "named_by"]
    assert [c for c in personal + plain if looks_personal(c)] == personal
    assert pii_value(["phone", "email", "id", "email"]) == "email,phone"
    findings = duplicate_findings(
        DUPLICATE_ROUTE,
        "route",
        {
            "GET /a": [location("b.py", 3), location("a.py", 9)],
            "GET /b": [location("a.py", 1)],
        },
    )
    assert findings == [
        {
            "code": "DUPLICATE_ROUTE",
            "detail": "route GET /a is defined 2 times",
            "locations": [location("a.py", 9), location("b.py", 3)],
        }
    ]
