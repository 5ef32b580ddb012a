"""The packs on hostile repositories aimed at stop 44's evaluators (attack-16). A TypeORM
naming strategy of the repository's own is read into a recipe and run per entity: a recipe
that names one part twice sixty times over (`const b = a + a`, `a ? a : 'x'`), methods
inlined into each other thirty times a level, a regex Python's `re` backtracks on forever
(`/^(A+)+$/` over a class name of forty `A`s), a constant replaced into itself. Each leaves
the strategy unread, a finding at each name it gives, never the discover's time or memory
(the plugin was killed at `request_ms`, or lost the file to a `MemoryError`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from pack_js_tables import make_scanner
from packs.js_strategy import _regex_bounded

_ENTITY = (
    'import { Entity, PrimaryGeneratedColumn } from "typeorm";\n'
    "@Entity()\n"
    "export class NAME { @PrimaryGeneratedColumn() id: number; }\n"
)


def _strategy_scan(tmp_path: Path, members: str, entity: str = "BookItem") -> dict[str, Any]:
    (tmp_path / "package.json").write_text('{"dependencies": {"typeorm": "^0.3.20"}}')
    (tmp_path / "entities.ts").write_text(_ENTITY.replace("NAME", entity))
    (tmp_path / "naming.ts").write_text(
        "import { DefaultNamingStrategy } from 'typeorm';\n"
        f"const LONG = '{'a' * 4000}';\n"
        "export class Named extends DefaultNamingStrategy {\n"
        f"{members}\n"
        "}\n"
    )
    scanner = make_scanner(parse_all=True)
    scanner.root = str(tmp_path)
    scanner.workers = 1
    document: dict[str, Any] = scanner.discover(["."])
    return document


def _doubled(line: str) -> str:
    """`tableName` over sixty `const`s each naming the one before twice as `line` does."""
    steps = "\n".join(f"    const a{i} = {line.format(p=f'a{i - 1}')};" for i in range(1, 61))
    return f"  tableName(target, given) {{\n    const a0 = target;\n{steps}\n    return a60;\n  }}"


def _inlined(calls: int, levels: int) -> str:
    """Methods `m0`..`m{levels}`, each calling the next `calls` times."""
    lines = ["  tableName(target, given) { return this.m0(target); }"]
    for level in range(levels):
        called = " || ".join([f"this.m{level + 1}(x)"] * calls)
        lines.append(f"  m{level}(x) {{ return {called}; }}")
    lines.append(f"  m{levels}(x) {{ return x; }}")
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("members", "entity"),
    [
        (_doubled("{p} + {p}"), "BookItem"),  # 2^60 characters
        (_doubled("{p} ? {p} : 'x'"), "BookItem"),  # 2^60 evaluations, no growth
        (_inlined(30, 7), "BookItem"),  # 31^7 readings
        ("  tableName(target) { return target.replace(/^(A+)+$/, 'x'); }", "A" * 40 + "B"),
        ("  tableName(t) { return LONG.replaceAll('a', LONG).replaceAll('a', LONG); }", "B"),
        ("  tableName(t) { return LONG.replace(/a/g, LONG); }", "B"),
    ],
    ids=["doubled", "branched", "inlined", "redos", "replaced", "regex-replaced"],
)
def test_a_hostile_naming_strategy_is_unread_with_a_finding(
    tmp_path: Path, members: str, entity: str
) -> None:
    document = _strategy_scan(tmp_path, members, entity)
    assert document["resources"] == []
    assert [f["code"] for f in document["findings"]] == ["UNRESOLVED_TABLE_NAME"]
    assert document.get("unresolved", []) == []


def test_a_strategy_recipe_nested_past_the_stack_is_unread(tmp_path: Path) -> None:
    """3,000 chained `.trim()`s: a recipe 3,000 levels deep made the strategy's file a
    `parse-error` (`RecursionError`) and every entity silently default-named."""
    steps = "\n".join(f"    const a{i} = a{i - 1}.trim();" for i in range(1, 3001))
    members = (
        f"  tableName(target, given) {{\n    const a0 = target;\n{steps}\n    return a3000;\n  }}"
    )
    document = _strategy_scan(tmp_path, members)
    assert document["resources"] == []
    assert [f["code"] for f in document["findings"]] == ["UNRESOLVED_TABLE_NAME"]
    assert json.dumps(document.get("unresolved", [])) == "[]"


def test_a_strategy_within_the_caps_is_still_evaluated(tmp_path: Path) -> None:
    """What a real strategy writes stays read: a doubled name, a trimmed regex, a `$1`."""
    members = (
        "  tableName(target, given) {\n"
        "    const a = target + target;\n"
        "    return a.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/^_+|_+$/g, '').toLowerCase();\n"
        "  }"
    )
    document = _strategy_scan(tmp_path, members)
    assert [r["name"] for r in document["resources"]] == ["book_item_book_item"]
    assert document["findings"] == []


@pytest.mark.parametrize(
    ("pattern", "bounded"),
    [
        (r"([a-z0-9])([A-Z])", True),
        (r"^_+|_+$", True),
        (r"[(+*]+x{2,5}", True),
        (r"^(A+)+$", False),  # a quantified group holding a quantifier
        (r"(a|a)*", False),  # ... or an alternation
        (r"((a)+)", True),
        (r"((a+))*", False),  # nested one group deeper
        ("a?" * 3, False),  # three quantifiers
        (r"(a|b)(c|d)(e|f)(g|h)", False),  # four alternations
    ],
)
def test_which_regexes_a_strategy_may_run(pattern: str, bounded: bool) -> None:
    assert _regex_bounded(pattern) is bounded
