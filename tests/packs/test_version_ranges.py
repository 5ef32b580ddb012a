"""`packs.version_ranges`: the exact intervals each PEP 440, npm and Poetry specifier admits,
and the interval algebra `declared_versions` decides with (tests/packs/
test_pack_declared_versions.py checks the decisions; this file the ranges themselves)."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.version_ranges import (
    EVERY,
    Interval,
    Range,
    exactly,
    normal,
    parse_version,
    pep440,
    poetry,
    semver,
)


def shown(admits: Range) -> str:
    """A range as math writes it: `[2.4, 3)`, `(-, 2]`, unions joined by ` u `, `{}` empty."""

    def end(version: tuple[int, ...] | None) -> str:
        return "-" if version is None else ".".join(map(str, version))

    def interval(i: Interval) -> str:
        opening = "[" if i.low_closed else "("
        closing = "]" if i.high_closed else ")"
        return f"{opening}{end(i.low)}, {end(i.high)}{closing}"

    return " u ".join(map(interval, admits.intervals)) or "{}"


@pytest.mark.parametrize(
    ("spec", "admits"),
    [
        ("==2.4.0", "[2.4, 2.4]"),
        ("===2.4", "[2.4, 2.4]"),
        (">=2.0,<3", "[2, 3)"),
        (" >2 , <=3.1 ", "(2, 3.1]"),
        ("~=2.4", "[2.4, 3)"),
        ("~=2.4.1", "[2.4.1, 2.5)"),
        ("==2.*", "[2, 3)"),
        ("==2.4.*", "[2.4, 2.5)"),
        ("!=2.4", "(-, -)"),  # restricts nothing here
        (">=3rc1", "[3, -)"),  # a pre-release read as its release
        (">=2,<2", "{}"),
        ("", "(-, -)"),
        ("@ https://example.org/x.whl", "(-, -)"),
    ],
)
def test_pep440(spec: str, admits: str) -> None:
    assert shown(pep440(spec)) == admits


@pytest.mark.parametrize(
    ("spec", "admits"),
    [
        ("^5.1.2", "[5.1.2, 6)"),
        ("^0.2.3", "[0.2.3, 0.3)"),
        ("^0.0.3", "[0.0.3, 0.0.4)"),
        ("~4.2.1", "[4.2.1, 4.3)"),
        ("~4", "[4, 5)"),
        ("5.x", "[5, 6)"),
        ("5.2", "[5.2, 5.3)"),
        ("=5.2.1", "[5.2.1, 5.2.1]"),
        ("v5.2.1", "[5.2.1, 5.2.1]"),
        (">1.2", "[1.3, -)"),  # `>1.2` is `>=1.3`
        ("<=1.2", "(-, 1.3)"),  # `<=1.2` is `<1.3`
        (">=1.2.3 <2", "[1.2.3, 2)"),
        ("1.2.3 - 2.3.4", "[1.2.3, 2.3.4]"),
        ("1 - 2", "[1, 3)"),  # a partial top admits its whole major
        ("^4 || ^6.1", "[4, 5) u [6.1, 7)"),
        ("npm:express@^4.18.0", "[4.18, 5)"),
        ("*", "(-, -)"),
        ("latest", "(-, -)"),
        ("github:user/repo", "(-, -)"),
        ("file:../lib", "(-, -)"),
    ],
)
def test_semver(spec: str, admits: str) -> None:
    assert shown(semver(spec)) == admits


@pytest.mark.parametrize(
    ("spec", "admits"),
    [
        ("^2.4", "[2.4, 3)"),
        (">=2,<3", "[2, 3)"),  # Poetry's comma: npm's space
        ("2.*", "[2, 3)"),
        ("==2.4.0", "[2.4, 2.4]"),  # an operator only PEP 440 has: read as PEP 440
        ("~=2.4", "[2.4, 3)"),  # PEP 440's ~=, not npm's ~
        ("~2.4", "[2.4, 2.5)"),
    ],
)
def test_poetry(spec: str, admits: str) -> None:
    assert shown(poetry(spec)) == admits


def test_versions_compare_without_trailing_zeros() -> None:
    assert normal((3, 0, 0)) == (3,)
    assert normal((0, 0)) == (0,)
    assert normal((1, 0, 2, 0)) == (1, 0, 2)
    assert parse_version("v2.4.0rc1") == (2, 4)
    assert parse_version("= 10.0.1") == (10, 0, 1)
    assert parse_version("next") is None


def test_intersection_keeps_the_tighter_ends_and_union_merges_sorted() -> None:
    closed = pep440(">=2,<=3")
    assert shown(closed.intersect(pep440(">2,<4"))) == "(2, 3]"
    assert shown(closed.intersect(pep440(">=2,<3"))) == "[2, 3)"
    assert closed.intersect(pep440(">3")).is_empty()
    assert shown(pep440(">=5").union(pep440("<1"))) == "(-, 1) u [5, -)"
    assert EVERY.intersect(exactly((2,))) == exactly((2,))


def test_which_side_of_a_bound_a_range_admits() -> None:
    below, above = pep440("<3"), pep440(">=3.0.0")
    assert below.admits_below((3,)) and not below.admits_from((3,))
    assert above.admits_from((3, 0)) and not above.admits_below((3,))
    assert pep440("<=3").admits_from((3,))  # the closed end is 3 itself
    assert not pep440(">=1,<2").admits_from((2, 0, 0))
    assert not Range(()).admits_below((3,)) and not Range(()).admits_from((3,))
