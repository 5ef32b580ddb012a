"""pack-http-routes on hostile repositories aimed at this session's readers (attack-16b): lock
files read for a library's pins (one package pinned at thousands of versions, a manifest range
of thousands of `||` alternatives: their intersection cost the product), glob listings whose
patterns backtrack or nest, a listing read per use over every walked file. Each costs a bounded
amount of work (an unread range admits every version, as one not understood), never the run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs import version_ranges
from packs.routes.manifests import declared_range, lock_facts
from packs.version_ranges import EVERY, MAX_ALTERNATIVES, semver
from routes_harness import names


def _head_app(fastify: str, lock: str) -> dict[str, str]:
    return {
        "package.json": json.dumps({"name": "x", "dependencies": {"fastify": fastify}}),
        "yarn.lock": lock,
        "probe.mjs": (
            "import Fastify from 'fastify';\n"
            "const probe = Fastify();\n"
            "probe.route({ method: ['HEAD', 'GET'], url: '/alive', handler: async () => 'y' });\n"
        ),
    }


def test_a_range_of_more_alternatives_than_the_cap_admits_every_version() -> None:
    many = " || ".join(f"4.{i}.0" for i in range(MAX_ALTERNATIVES + 1))
    assert semver(many) == EVERY
    few = semver(" || ".join(f"4.{i}.0" for i in range(MAX_ALTERNATIVES)))
    assert len(few.intervals) == MAX_ALTERNATIVES


def test_a_lock_pinning_one_package_at_many_versions_keeps_each_pin_once() -> None:
    lock = "".join(f'fastify@^{i}.0.0:\n  version "4.{i % 3}.0"\n' for i in range(3000))
    spec = declared_range(lock_facts("yarn.lock", lock), "fastify")
    assert spec == "4.0.0 || 4.1.0 || 4.2.0"


def test_many_pins_against_many_alternatives_cost_no_product(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    count = 2000
    lock = "".join(f'fastify@^{i}.0.0:\n  version "4.{i}.0"\n' for i in range(count))
    declared = " || ".join(f"4.{i}.x" for i in range(count))
    calls = [0]
    tighter = version_ranges._tighter_low

    def counted(*args: object) -> object:
        calls[0] += 1
        return tighter(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(version_ranges, "_tighter_low", counted)
    # too many to read: every version admitted, so some admitted version lists HEAD by itself
    assert names(_head_app(declared, lock)) == {"GET /alive", "HEAD /alive"}
    assert calls[0] < count
