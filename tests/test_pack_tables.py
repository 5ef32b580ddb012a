"""pack-sqlalchemy and pack-django over realistic sample apps, through the real host session.

The expected documents under tests/fixtures/repos/ were written from the frameworks' naming
rules; each is compared byte for byte (GF-canonical) with what the plugin answers.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, process_gone

from gpp.canonical_json import canonical
from gpp.host import PluginSession
from gpp.sandbox import SandboxPolicy

sys.path.insert(0, str(REPO / "plugins"))

from packs import django_models, sqlalchemy_models
from packs.scan import Scanner

REPOS = REPO / "tests" / "fixtures" / "repos"
PACKS = {
    "pack-sqlalchemy": ("sqlalchemy-app", REPO / "plugins" / "pack_sqlalchemy.py"),
    "pack-django": ("django-app", REPO / "plugins" / "pack_django.py"),
}


def _session(plugin_id: str, root: Path, sandbox: SandboxPolicy | None = None) -> PluginSession:
    script = PACKS[plugin_id][1]
    # -S: no site-packages, so a pack that imported anything beyond the stdlib and gpp/ fails
    return PluginSession(
        [sys.executable, "-S", str(script)], plugin_id, "1.0.0", cwd=str(root), sandbox=sandbox
    )


def _document(result: dict[str, Any]) -> bytes:
    return canonical({k: v for k, v in result.items() if k != "requestId"})


async def _discover_many(
    plugin_id: str, root: Path, requests: list[list[str]], sandbox: SandboxPolicy | None = None
) -> list[dict[str, Any]]:
    async with _session(plugin_id, root, sandbox) as session:
        results = [await session.discover(paths) for paths in requests]
    assert session.returncode == 0 and process_gone(session.pid)
    return results


@pytest.mark.parametrize("plugin_id", sorted(PACKS))
def test_sample_app_gives_the_expected_document_byte_for_byte_and_on_repeat(
    plugin_id: str,
) -> None:
    app = PACKS[plugin_id][0]
    expected = json.loads((REPOS / f"{app}.expected.json").read_text("utf-8"))
    first, second = asyncio.run(_discover_many(plugin_id, REPOS / app, [["."], ["."]]))
    assert _document(first) == canonical(expected)
    assert _document(second) == _document(first)


@pytest.mark.parametrize("plugin_id", sorted(PACKS))
def test_works_under_the_default_sandbox_with_a_read_only_repository(plugin_id: str) -> None:
    app = PACKS[plugin_id][0]
    expected = json.loads((REPOS / f"{app}.expected.json").read_text("utf-8"))
    policy = SandboxPolicy(readonly_root=True)
    (result,) = asyncio.run(_discover_many(plugin_id, REPOS / app, [["."]], policy))
    assert _document(result) == canonical(expected)


def test_named_paths_and_their_unresolved_reasons(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(REPOS / "sqlalchemy-app", repo, symlinks=True)
    outside = tmp_path / "secret_models.py"
    outside.write_text(
        "from sqlalchemy.orm import declarative_base\nBase = declarative_base()\n"
        "class Leak(Base):\n    __tablename__ = 'leaked_secret'\n"
    )
    os.symlink(outside, repo / "shop" / "escape.py")
    (result,) = asyncio.run(
        _discover_many(
            "pack-sqlalchemy",
            repo,
            [
                [
                    "shop/models/user.py",
                    "README.md",
                    "nope.py",
                    "shop/escape.py",
                    "legacy/broken.py",
                    "shop",
                ]
            ],
        )
    )
    assert "leaked_secret" not in json.dumps(result)
    assert result["unresolved"] == [
        {"path": "README.md", "reason": "unsupported", "detail": "not a Python file"},
        {
            "path": "legacy/broken.py",
            "reason": "parse-error",
            "detail": "line 8: '(' was never closed",
        },
        {"path": "nope.py", "reason": "not-found", "detail": "no such file or directory"},
        {
            "path": "shop/escape.py",
            "reason": "unreadable",
            "detail": "symlink leads outside the repository",
        },
    ]
    # user.py named and also walked under shop/: one file, listed once
    assert [r["name"] for r in result["resources"]] == ["user_roles", "users", "addresses", "roles"]


def test_a_changed_file_is_read_again_on_the_same_session(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(REPOS / "django-app", repo)
    models = repo / "blog" / "models.py"

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with _session("pack-django", repo) as session:
            before = await session.discover(["."])
            models.write_text(models.read_text().replace("class Tag(", "class Label("))
            after = await session.discover(["."])
        return before, after

    before, after = ({r["name"] for r in doc["resources"]} for doc in asyncio.run(scenario()))
    assert (before - after, after - before) == ({"blog_tag"}, {"blog_label"})


def test_unchanged_files_are_not_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(REPOS / "sqlalchemy-app", repo)
    monkeypatch.chdir(repo)
    parsed: list[str] = []

    def counting_extract(path: str, source: str) -> sqlalchemy_models.SqlalchemyFacts:
        parsed.append(path)
        return sqlalchemy_models.extract(path, source)

    scanner = Scanner((".py",), counting_extract, sqlalchemy_models.link, language="Python")
    first = scanner.discover(["."])
    files = len(parsed)
    assert files == 15  # every .py outside venv/
    assert scanner.discover(["."]) == first and len(parsed) == files
    user = repo / "shop" / "models" / "user.py"
    user.write_text(user.read_text().replace('"roles"', '"app_roles"'))
    third = scanner.discover(["."])
    assert parsed[files:] == ["shop/models/user.py"]
    assert "app_roles" in {r["name"] for r in third["resources"]}
    assert (scanner.memo.stats.hits, scanner.memo.stats.misses) == (2 * files - 1, files + 1)


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("UserProfile", "user_profile"),
        ("HTTPLog", "http_log"),
        ("User", "user"),
        ("User2FA", "user2_fa"),
        ("getHTTPResponseCode", "get_http_response_code"),
        ("ABC", "abc"),
        ("OAuth2Token", "o_auth2_token"),
        ("_Private", "private"),
    ],
)
def test_flask_sqlalchemy_3_snake_case(name: str, table: str) -> None:
    assert sqlalchemy_models.camel_to_snake_case(name) == table


def _tables_of(extract: Any, link: Any, files: dict[str, str]) -> list[tuple[str, Any]]:
    facts = [(path, extract(path, source)) for path, source in sorted(files.items())]
    return [(r["name"], r["attrs"]) for r in link(facts).resources]


def test_sqlalchemy_declared_attr_literal_and_registry_and_as_declarative() -> None:
    source = """
from sqlalchemy import Column, Integer
from sqlalchemy.orm import as_declarative, declared_attr

@as_declarative()
class Base:
    id = Column(Integer, primary_key=True)

class NamedMixin:
    @declared_attr.directive
    def __tablename__(cls) -> str:
        return "fixed_name"

class Widget(NamedMixin, Base):
    size = Column(Integer)

class Gadget(Base):
    @declared_attr
    def __tablename__(cls):
        return cls.__name__

    weight = Column(Integer)
"""
    tables = _tables_of(sqlalchemy_models.extract, sqlalchemy_models.link, {"m.py": source})
    assert tables == [
        ("fixed_name", {"columns": 2, "model": "Widget"}),
        ("Gadget", {"columns": 2, "model": "Gadget"}),
    ]


def test_django_models_reached_only_through_scanned_modules() -> None:
    files = {
        "core/models.py": "from django.db import models as m\n\nclass Base(m.Model):\n"
        "    class Meta:\n        abstract = True\n    owner_email = m.EmailField()\n\n"
        "class Audit:\n    changed_by = m.CharField()  # a plain mixin: no Django field\n",
        "app/models.py": "from core.models import Audit, Base\nfrom unknown import Thing\n\n"
        "class Item(Audit, Base):\n    pass\n\nclass NotAModel(Thing):\n    pass\n",
    }
    facts = [(path, django_models.extract(path, source)) for path, source in sorted(files.items())]
    linked = django_models.link(facts)
    assert [(r["name"], r["attrs"]) for r in linked.resources] == [
        ("app_item", {"columns": 2, "model": "Item"})  # id and the abstract base's owner_email
    ]
    assert [s["value"] for s in linked.signals] == ["owner_email"]
