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

import pack_django
import pack_sqlalchemy
from pack_js_tables import make_scanner
from packs import django_models, js_strategy, sqlalchemy_models
from packs.js_strategy import _regex_bounded
from packs.scan import Scanner
from packs.scan_document import DocumentPieces, render
from packs.version_ranges import EVERY, pep440, semver
from routes_harness import finding_places, names

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


def _django(urlconfs: dict[str, str]) -> dict[str, str]:
    """A Django project whose root URLconf is `site.m0`, with `urlconfs` under `site/`."""
    files = {
        "site/__init__.py": "",
        "site/settings.py": "ROOT_URLCONF = 'site.m0'\nSECRET_KEY = 'x'\nINSTALLED_APPS = []\n",
        "site/views.py": "def v(request):\n    return None\n",
    }
    head = "from django.urls import include, path\n\nfrom .views import v\n\n"
    files.update({f"site/{name}.py": head + body for name, body in urlconfs.items()})
    return files


def test_a_django_route_computed_past_the_cap_is_a_finding() -> None:
    """An f-string naming a 3,000-character constant twice: the route is not listed (10,000
    times made a 40 MB route, a document past the host's 8 MiB line cap: `E_FRAME_JSON`)."""
    files = _django(
        {"m0": f"A = '{'a' * 3000}'\nurlpatterns = [path(f'{{A}}{{A}}', v), path('ok/', v)]\n"}
    )
    assert names(files) == {"ANY /ok/"}
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["site/m0.py:6"]


def test_django_includes_under_a_prefix_past_the_cap_are_a_finding() -> None:
    """URLconfs each including the next under a 2,000-character prefix: past 4,096 characters
    what an include serves is a finding (thirty such URLconfs of a hundred routes each asked
    for 300 MB of route names: the plugin was OOM-killed, `E_EOF`)."""
    prefix = "p" * 2000
    urlconfs = {
        f"m{i}": f"urlpatterns = [path('{prefix}/', include('site.m{i + 1}')), path('r/', v)]\n"
        for i in range(3)
    }
    urlconfs["m3"] = "urlpatterns = [path('end/', v)]\n"
    files = _django(urlconfs)
    assert sorted(len(name) for name in names(files)) == [7, 2008, 4009]
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["site/m2.py:5"]


def test_django_includes_past_the_depth_are_a_finding() -> None:
    """Forty URLconfs each including the next: past 32 levels the rest was dropped silently."""
    urlconfs = {
        f"m{i}": f"urlpatterns = [path('a/', include('site.m{i + 1}')), path('r{i}/', v)]\n"
        for i in range(40)
    }
    urlconfs["m40"] = "urlpatterns = [path('end/', v)]\n"
    files = _django(urlconfs)
    assert len(names(files)) == 32
    assert finding_places(files)["UNRESOLVED_ROUTE"] == ["site/m32.py:5"]


@pytest.mark.parametrize(
    "spec",
    [
        " || ".join(f"{i}.0.0" for i in range(300)),  # 30,000 of them: quadratic, past request_ms
        "^0." + ".".join(["0"] * 200) + ".1",
        "\u00b2 - 3",  # `str.isdigit` accepts it, `int` refuses it: a ValueError out of the reader
    ],
    ids=["alternatives", "parts", "superscript"],
)
def test_a_hostile_npm_range_admits_every_version(spec: str) -> None:
    assert semver(spec) == EVERY


def test_a_hostile_pep440_specifier_admits_every_version() -> None:
    assert pep440("==\u00b2\u00b3.*") == EVERY
    assert pep440(",".join(f">={i}" for i in range(100))) == EVERY


@pytest.mark.parametrize(
    ("suffix", "detail"),
    [
        ("%s", "the table_name option makes a name past 4096 characters"),
        ("%d", "the table_name option 'xxxxx"),
    ],
)
def test_a_continuum_table_name_past_the_cap_is_a_short_finding_per_model(
    tmp_path: Path, suffix: str, detail: str
) -> None:
    """SQLAlchemy-Continuum's `table_name` option of 5,000 characters over three models: no
    version table, a finding per model that quotes the option short (200,000 characters over
    300 models made a 60 MB document, past the host's line cap: `E_FRAME_JSON`)."""
    (tmp_path / "ledger").mkdir()
    (tmp_path / "ledger" / "__init__.py").write_text("")
    (tmp_path / "ledger" / "db.py").write_text(
        "from flask_sqlalchemy import SQLAlchemy\n"
        "from sqlalchemy_continuum import make_versioned\n\n"
        f"make_versioned(user_cls=None, options={{'table_name': '{'x' * 5000}{suffix}'}})\n\n"
        "database = SQLAlchemy()\n"
    )
    models = "".join(
        f"class E{i}(database.Model):\n    __versioned__ = {{}}\n"
        "    id = sa.Column(sa.Integer, primary_key=True)\n\n"
        for i in range(3)
    )
    (tmp_path / "ledger" / "entries.py").write_text(
        "import sqlalchemy as sa\n\nfrom ledger.db import database\n\n" + models
    )
    scanner: Scanner[Any] = Scanner(
        (".py",),
        sqlalchemy_models.extract,
        sqlalchemy_models.link,
        language="Python",
        root=str(tmp_path),
        workers=1,
        keywords=pack_sqlalchemy.KEYWORDS,
        base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
        follow=pack_sqlalchemy.FOLLOW,
    )
    document = scanner.discover(["."])
    assert sorted(r["name"] for r in document["resources"]) == ["e0", "e1", "e2", "transaction"]
    findings = document["findings"]
    assert [f["code"] for f in findings] == ["UNRESOLVED_TABLE_NAME"] * 3
    assert all(detail in f["detail"] and len(f["detail"]) < 300 for f in findings)


def test_routes_past_the_link_s_characters_are_cut_with_a_finding() -> None:
    """600 mounts from a table, each under a 4,000-character constant: 2.4 MB of paths from a
    10 KB file (3,000 of them made a document past the host's 8 MiB line cap: `E_FRAME_JSON`).
    The link lists routes up to 1,500,000 characters, the rest a `LINK_BUDGET_EXCEEDED`."""
    files = {
        "routes.py": (
            "from fastapi import APIRouter\n\nr = APIRouter()\n\n\n@r.get('/x')\ndef x():\n"
            f"    pass\n\n\nA = '/{'a' * 3999}'\n"
            f"TABLE = [{', '.join(f'(r, A + {str(i)!r})' for i in range(600))}]\n"
        ),
        "app.py": (
            "from fastapi import FastAPI\n\nfrom routes import TABLE\n\napp = FastAPI()\n"
            "for router, prefix in TABLE:\n    app.include_router(router, prefix=prefix)\n"
        ),
    }
    listed = names(files)
    assert 300 < len(listed) < 400
    assert sum(len(name) for name in listed) <= 1_500_000 + 10 * len(listed)
    assert finding_places(files)["LINK_BUDGET_EXCEEDED"] == ["routes.py:6"]


def test_django_routes_past_the_link_s_characters_are_cut_with_a_finding() -> None:
    """The same in a URLconf: 600 patterns under a 4,000-character constant."""
    patterns = ", ".join(f"path(A + '/{i}', v)" for i in range(600))
    files = _django({"m0": f"A = '{'a' * 4000}'\nurlpatterns = [{patterns}]\n"})
    listed = names(files)
    assert 300 < len(listed) < 400
    assert finding_places(files)["LINK_BUDGET_EXCEEDED"] == ["site/m0.py:6"]


def _sqlalchemy_document(root: Path) -> dict[str, Any]:
    scanner: Scanner[Any] = Scanner(
        (".py",),
        sqlalchemy_models.extract,
        sqlalchemy_models.link,
        language="Python",
        root=str(root),
        workers=1,
        keywords=pack_sqlalchemy.KEYWORDS,
        base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
        follow=pack_sqlalchemy.FOLLOW,
    )
    document: dict[str, Any] = scanner.discover(["."])
    return document


def test_a_document_past_its_names_budget_leaves_the_rest_out_with_a_finding(
    tmp_path: Path,
) -> None:
    """600 models named `A + str(i)` over a 4,000-character constant: 2.4 MB of names from a
    50 KB file (3,000 of them made a 12 MB document, past the host's line cap: `E_FRAME_JSON`,
    no document at all). Names past 2,000,000 characters are left out, one finding says where."""
    models = "".join(
        f"class T{i}(Base):\n    __tablename__ = A + '{i}'\n"
        "    id = sa.Column(sa.Integer, primary_key=True)\n"
        for i in range(600)
    )
    (tmp_path / "models.py").write_text(
        "import sqlalchemy as sa\nfrom sqlalchemy.orm import DeclarativeBase\n\n\n"
        f"class Base(DeclarativeBase):\n    pass\n\n\nA = '{'x' * 4000}'\n{models}"
    )
    document = _sqlalchemy_document(tmp_path)
    assert 400 < len(document["resources"]) < 600
    assert sum(len(r["name"]) for r in document["resources"]) <= 2_000_000
    (finding,) = document["findings"]
    assert finding["code"] == "DOCUMENT_BUDGET_EXCEEDED"
    first_left_out = 10 + 3 * len(document["resources"])
    assert finding["locations"] == [{"path": "models.py", "line": first_left_out}]


def test_a_finding_s_detail_is_cut_at_a_thousand_characters() -> None:
    long = {"code": "X", "detail": "d" * 5000, "locations": [{"path": "a.py", "line": 1}]}
    short = {"code": "Y", "detail": "fine", "locations": [{"path": "a.py", "line": 2}]}
    document = render(DocumentPieces(findings=[long, short]), [], [], [], None)
    assert [len(f["detail"]) for f in document["findings"]] == [1000, 4]


def test_a_django_model_whose_db_table_is_computed_is_a_finding_not_the_default(
    tmp_path: Path,
) -> None:
    """`db_table = A + '0'` names the table `A`'s text and `0`: it was listed silently under
    Django's default name (`shop_m0`), 3,000 such models a wrong document without a finding."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "settings.py").write_text("INSTALLED_APPS = ['shop']\n")
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "models.py").write_text(
        "from django.db import models\n\nA = 'pre_'\n\n\n"
        "class M(models.Model):\n    class Meta:\n        db_table = A + '0'\n\n\n"
        "class N(models.Model):\n    class Meta:\n        db_table = 'n_table'\n"
    )
    scanner: Scanner[Any] = Scanner(
        (".py",),
        django_models.extract,
        django_models.link,
        language="Python",
        root=str(tmp_path),
        workers=1,
        keywords=pack_django.KEYWORDS,
        base_keywords=pack_django.BASE_KEYWORDS,
        follow="names",
        fields=pack_django.FIELDS,
    )
    document = scanner.discover(["."])
    assert [r["name"] for r in document["resources"]] == ["n_table"]
    assert [(f["code"], f["locations"]) for f in document["findings"]] == [
        ("COMPUTED_TABLENAME", [{"path": "shop/models.py", "line": 6}])
    ]


def test_a_file_s_strategy_readings_share_one_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 strategy classes in a 1 MB file, each reading 20,000 expressions before it is
    unread, were past `request_ms` (`E_TIMEOUT`): the readings of one file share
    `FILE_NODES`. Here a budget of 7 reads the first class (5), and the second is unread: which
    names the strategy gives is a finding, never a guess."""
    monkeypatch.setattr(js_strategy, "FILE_NODES", 7)
    (tmp_path / "package.json").write_text('{"dependencies": {"typeorm": "^0.3.20"}}')
    (tmp_path / "entities.ts").write_text(_ENTITY.replace("NAME", "BookItem"))
    strategy = "  tableName(target, given) { return given || 't_' + target; }\n"
    (tmp_path / "naming.ts").write_text(
        "import { DefaultNamingStrategy } from 'typeorm';\n"
        f"export class A extends DefaultNamingStrategy {{\n{strategy}}}\n"
        f"export class B extends DefaultNamingStrategy {{\n{strategy}}}\n"
    )
    scanner = make_scanner(parse_all=True)
    scanner.root = str(tmp_path)
    scanner.workers = 1
    document = scanner.discover(["."])
    assert document["resources"] == []
    assert [f["code"] for f in document["findings"]] == ["UNRESOLVED_TABLE_NAME"]
    monkeypatch.setattr(js_strategy, "FILE_NODES", 1_000)
    scanner = make_scanner(parse_all=True)
    scanner.root = str(tmp_path)
    scanner.workers = 1
    assert [r["name"] for r in scanner.discover(["."])["resources"]] == ["t_BookItem"]
