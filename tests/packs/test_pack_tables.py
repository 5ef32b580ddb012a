"""pack-sqlalchemy and pack-django over realistic sample apps, through the real host session.

The expected documents under tests/fixtures/repos/ were written from the frameworks' naming
rules; each is compared byte for byte (GF-canonical) with what the plugin answers.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, process_gone
from hypothesis import given, settings
from hypothesis import strategies as st

from gpp.core import canonical
from gpp.host import PluginSession, SandboxPolicy

sys.path.insert(0, str(REPO / "plugins"))

from packs import django_models, sqlalchemy_models
from packs.scan import Scanner

REPOS = REPO / "tests" / "fixtures" / "repos"
PACKS = {
    "pack-sqlalchemy": ("sqlalchemy-app", REPO / "plugins" / "pack_sqlalchemy.py"),
    "pack-django": ("django-app", REPO / "plugins" / "pack_django.py"),
}
# Every sample app and the pack that reads it: layouts as common open-source projects have them
# (a FastAPI app with a declared_attr base and Alembic, a Flask app factory with mixins,
# inheritance and Flask-Migrate, a Django project with a custom user, taggit and celery beat),
# each with its exact expected document.
SAMPLE_APPS = [
    ("pack-django", "django-app"),
    ("pack-django", "django-users-app"),
    ("pack-sqlalchemy", "fastapi-sqlalchemy-app"),
    ("pack-sqlalchemy", "flask-sqlalchemy-app"),
    ("pack-sqlalchemy", "sqlalchemy-app"),
]


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


@pytest.mark.parametrize(("plugin_id", "app"), SAMPLE_APPS)
def test_sample_app_gives_the_expected_document_byte_for_byte_and_on_repeat(
    plugin_id: str, app: str
) -> None:
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

    def counting_extract(path: str, source: str) -> sqlalchemy_models.FileFacts:
        parsed.append(path)
        return sqlalchemy_models.extract(path, source)

    scanner = Scanner((".py",), counting_extract, sqlalchemy_models.link, language="Python")
    first = scanner.discover(["."])
    files = len(parsed)
    assert files == 15  # every .py outside venv/
    assert scanner.discover(["."]) == first and len(parsed) == files
    assert scanner.documents.hits == 1  # unchanged: the last document, no file looked up
    user = repo / "shop" / "models" / "user.py"
    user.write_text(user.read_text().replace('"roles"', '"app_roles"'))
    third = scanner.discover(["."])
    assert parsed[files:] == ["shop/models/user.py"]
    assert "app_roles" in {r["name"] for r in third["resources"]}
    assert (scanner.memo.stats.hits, scanner.memo.stats.misses) == (files - 1, files + 1)


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


# --- Never silent: every construct recognised but not resolved gives its finding -------------

UNRESOLVED = REPOS / "unresolved-tables"  # one small file per construct not resolved
ANALYZERS = {"pack-sqlalchemy": sqlalchemy_models, "pack-django": django_models}


def _corpus() -> list[Path]:
    return sorted(UNRESOLVED.glob("*.py"))


def _header(source: str, key: str) -> list[str]:
    line = next(line for line in source.splitlines() if line.startswith(f"# {key}: "))
    return line.split(": ", 1)[1].split()


def _link_one(analyzer: Any, path: str, source: str) -> Any:
    return analyzer.link([(path, analyzer.extract(path, source))])


def test_the_unresolved_corpus_covers_every_table_finding_code() -> None:
    from packs import tables

    codes = {_header(p.read_text("utf-8"), "expect")[0] for p in _corpus()}
    assert codes == {
        tables.COMPUTED_TABLENAME,
        tables.UNKNOWN_MODEL_BASE,
        tables.UNRESOLVED_TABLE_NAME,
    }


@pytest.mark.parametrize("case", _corpus(), ids=lambda p: p.stem)
def test_an_unresolved_construct_gives_its_finding_at_each_affected_place(case: Path) -> None:
    source = case.read_text("utf-8")
    (plugin,) = _header(source, "pack")
    code, *lines = _header(source, "expect")
    path = f"tables/{case.name}"
    linked = _link_one(ANALYZERS[plugin], path, source)
    found = [f for f in linked.findings if f["code"] == code]
    assert len(found) == 1, linked.findings
    assert found[0]["locations"] == [{"path": path, "line": int(n)} for n in lines]
    assert found[0]["detail"]  # says what was not known
    named = {r["location"]["line"] for r in linked.resources}
    assert named.isdisjoint(int(n) for n in lines)  # nothing guessed where the name is unknown


# --- Computed table names: evaluated exactly as Python would ---------------------------------

NAME_FUNCTIONS = {
    "lower": "def __tablename__(cls):\n    return cls.__name__.lower()\n",
    "plural_fstring": 'def __tablename__(cls):\n    return f"{cls.__name__.lower()}s"\n',
    "plural_plus": 'def __tablename__(cls):\n    return cls.__name__.lower() + "s"\n',
    "lookahead_sub": (
        "def __tablename__(cls):\n"
        "    return re.sub(r'(?<!^)(?=[A-Z])', '_', cls.__name__).lower()\n"
    ),
    "two_step_sub": (
        "def __tablename__(cls):\n"
        "    s1 = re.sub('(.)([A-Z][a-z]+)', r'\\1_\\2', cls.__name__)\n"
        "    return re.sub('([a-z0-9])([A-Z])', r'\\1_\\2', s1).lower()\n"
    ),
    "split_join": (
        "def __tablename__(cls):\n"
        '    names = re.split("(?=[A-Z])", cls.__name__)\n'
        '    return "_".join([x.lower() for x in names if x])\n'
    ),
    "generator_loop": (
        "def __tablename__(cls):\n"
        '    return "".join("_" + c.lower() if c.isupper() else c for c in cls.__name__)'
        '.lstrip("_")\n'
    ),
    "for_append": (
        "def __tablename__(cls):\n"
        "    out = []\n"
        "    for i, c in enumerate(cls.__name__):\n"
        "        if c.isupper() and i > 0:\n"
        '            out.append("_")\n'
        "        out.append(c.lower())\n"
        '    return "".join(out) + "es"\n'
    ),
    "compiled_pattern": (
        "def __tablename__(cls):\n    return _CAMEL.sub(r'_\\1', cls.__name__).lower().lstrip('_')\n"
    ),
}
CLASS_NAMES = ["UserProfile", "HTTPLog", "User2FA", "A", "OAuth2Token"]


@pytest.mark.parametrize("function", sorted(NAME_FUNCTIONS))
def test_a_declared_attr_tablename_is_what_python_computes(function: str) -> None:
    body = NAME_FUNCTIONS[function]
    prelude = "import re\n_CAMEL = re.compile(r'([A-Z])')\n"
    namespace: dict[str, Any] = {}
    exec(prelude + body, namespace)  # the fixture's own code, to compare against
    classes = "".join(
        f"\n\nclass {name}(Base):\n    id = Column(Integer, primary_key=True)\n"
        for name in CLASS_NAMES
    )
    source = (
        prelude
        + "from sqlalchemy import Column, Integer\n"
        + "from sqlalchemy.orm import declarative_base, declared_attr\n\n\n"
        + "class Named:\n    @declared_attr\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
        + "\n\nBase = declarative_base(cls=Named)"
        + classes
    )
    linked = _link_one(sqlalchemy_models, "models.py", source)
    expected = [namespace["__tablename__"](type(name, (), {})) for name in CLASS_NAMES]
    assert [r["name"] for r in linked.resources] == expected
    assert linked.findings == []


def test_a_tablename_helper_imported_from_another_module_and_module_constants() -> None:
    files = {
        "app/utils/naming.py": "import re\n\n\ndef camel_to_snake(name: str) -> str:\n"
        "    return re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()\n",
        "app/db/base.py": "from sqlalchemy.orm import DeclarativeBase, declared_attr\n"
        "from app.utils.naming import camel_to_snake\n\nPREFIX = 'app_'\n\n\n"
        "class Base(DeclarativeBase):\n    @declared_attr.directive\n"
        "    def __tablename__(cls) -> str:\n"
        "        return PREFIX + camel_to_snake(cls.__name__)\n",
        "app/models.py": "from sqlalchemy import Table, Column, Integer\n"
        "from sqlalchemy.orm import Mapped, mapped_column\nfrom app.db.base import Base, PREFIX\n"
        "\n\nclass BillingAccount(Base):\n    id: Mapped[int] = mapped_column(primary_key=True)\n"
        "\n\nNAME = 'links'\nlinks = Table(NAME, Base.metadata, Column('id', Integer))\n",
    }
    tables = _tables_of(sqlalchemy_models.extract, sqlalchemy_models.link, files)
    assert tables == [  # link order: Table() calls first (the scanner sorts by location)
        ("links", {"columns": 1}),
        ("app_billing_account", {"columns": 1, "model": "BillingAccount"}),
    ]


def test_only_sqlalchemys_table_is_a_table_and_another_never_crashes() -> None:
    files = {
        "report.py": "from terminaltables import Table\n\nt = Table(title='Requests')\n"
        "u = Table([['a', 'b']], 'x')\n",
        "rich_out.py": "from rich.table import Table\n\nt = Table('Name', 'Age')\n",
        "flaskapp/ext.py": "from flask_sqlalchemy import SQLAlchemy\n\ndb = SQLAlchemy()\n",
        "flaskapp/models.py": "from flaskapp.ext import db\n\n"
        "tags = db.Table('tags', db.Column('id', db.Integer))\n",
        "plain.py": "import sqlalchemy as sa\nfrom sqlalchemy import Table, MetaData\n"
        "m = MetaData()\na = Table('alpha', m)\nb = sa.Table('beta', m)\n"
        "c = sa.schema.Table('gamma', m)\n",
    }
    linked = sqlalchemy_models.link(
        [(p, sqlalchemy_models.extract(p, s)) for p, s in sorted(files.items())]
    )
    assert [r["name"] for r in linked.resources] == ["tags", "alpha", "beta", "gamma"]
    assert linked.findings == []


def test_alembic_migrations_are_history_not_tables() -> None:
    app = "from sqlalchemy import Column, Integer\nfrom sqlalchemy.orm import declarative_base\n"
    app += "Base = declarative_base()\n\n\nclass User(Base):\n    __tablename__ = 'users'\n"
    app += "    id = Column(Integer, primary_key=True)\n"
    migration = (
        "from alembic import op\nimport sqlalchemy as sa\nfrom sqlalchemy.orm import declarative_base\n"
        "revision = 'a1'\ndown_revision = None\nBase = declarative_base()\n\n\n"
        "class User(Base):\n    __tablename__ = 'users'\n    id = sa.Column(sa.Integer, primary_key=True)\n"
        "\n\ndef upgrade():\n    op.create_table('users', sa.Column('id', sa.Integer))\n"
        "    t = sa.Table('users', sa.MetaData(), sa.Column('id', sa.Integer))\n"
        "    op.bulk_insert(t, [])\n"
    )
    files = {"app/models.py": app, "migrations/versions/a1_init.py": migration}
    linked = sqlalchemy_models.link(
        [(p, sqlalchemy_models.extract(p, s)) for p, s in sorted(files.items())]
    )
    assert [(r["name"], r["location"]["path"]) for r in linked.resources] == [
        ("users", "app/models.py")
    ]
    assert linked.findings == []  # no DUPLICATE_TABLE_NAME from the migration's copy


def test_flask_sqlalchemy_a_subclass_without_primary_key_is_single_table_even_when_named() -> None:
    source = (
        "from flask_sqlalchemy import SQLAlchemy\n\ndb = SQLAlchemy()\n\n\n"
        "class Employee(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n\n\n"
        "class Manager(Employee):\n    __tablename__ = 'managers'\n    level = db.Column(db.Integer)\n"
        "\n\nclass Engineer(Employee):\n    __tablename__ = 'engineers'\n"
        "    id = db.Column(db.ForeignKey('employee.id'), primary_key=True)\n"
    )
    tables = _tables_of(sqlalchemy_models.extract, sqlalchemy_models.link, {"m.py": source})
    assert [name for name, _ in tables] == ["employee", "engineers"]


def test_star_imports_reach_models_and_bases() -> None:
    files = {
        "shop/db.py": "from sqlalchemy.orm import DeclarativeBase\n\n\nclass Base(DeclarativeBase):\n"
        "    pass\n",
        "shop/models/__init__.py": "from .base import *\n",
        "shop/models/base.py": "from shop.db import *\nfrom sqlalchemy import *\n"
        "__all__ = ['Base', 'Column', 'Integer', 'Table']\n",
        "shop/models/item.py": "from shop.models import *\n\n\nclass Item(Base):\n"
        "    __tablename__ = 'items'\n    id = Column(Integer, primary_key=True)\n\n\n"
        "links = Table('links', Base.metadata)\n",
    }
    tables = _tables_of(sqlalchemy_models.extract, sqlalchemy_models.link, files)
    assert tables == [("links", {"columns": 0}), ("items", {"columns": 1, "model": "Item"})]


def test_django_models_below_django_and_third_party_models_and_through_star_imports() -> None:
    files = {
        "accounts/models/__init__.py": "from .user import *\nfrom .jobs import *\n",
        "accounts/models/user.py": "from django.contrib.auth.models import AbstractUser, "
        "PermissionsMixin\nfrom django.contrib.auth.base_user import AbstractBaseUser\n"
        "from django.db import models\n__all__ = ['User', 'Member']\n\n\n"
        "class User(AbstractUser):\n    phone = models.CharField(max_length=20)\n\n\n"
        "class Member(AbstractBaseUser, PermissionsMixin):\n    email = models.EmailField()\n",
        "accounts/models/jobs.py": "from django.db import models\n"
        "from django.contrib.contenttypes.models import ContentType\n"
        "from django_celery_beat.models import PeriodicTask\n"
        "from taggit.models import GenericTaggedItemBase, TaggedItemBase\nfrom django import forms\n"
        "\n\nclass CustomType(ContentType):\n    note = models.TextField()\n\n\n"
        "class Job(PeriodicTask):\n    owner = models.ForeignKey('accounts.User', on_delete=1)\n"
        "\n\nclass TaggedThing(GenericTaggedItemBase, TaggedItemBase):\n    pass\n\n\n"
        "class ContactForm(forms.Form):\n    name = forms.CharField()\n",
        "blog/models.py": "from accounts.models import User\nfrom django.db import models\n\n\n"
        "class Staff(User):\n    badge = models.CharField(max_length=5)\n",
    }
    facts = [(p, django_models.extract(p, s)) for p, s in sorted(files.items())]
    linked = django_models.link(facts)
    assert [(r["name"], r["attrs"]["columns"]) for r in linked.resources] == [
        ("accounts_customtype", 2),  # contenttype_ptr_id, note
        ("accounts_job", 2),  # periodictask_ptr_id, owner_id
        ("accounts_taggedthing", 4),  # id, content_type_id, object_id, tag_id
        ("accounts_user", 12),  # id, AbstractUser's 10 columns, phone
        ("accounts_user_groups", 3),
        ("accounts_user_user_permissions", 3),
        ("accounts_member", 5),  # id, email, password, last_login, is_superuser
        ("accounts_member_groups", 3),
        ("accounts_member_user_permissions", 3),
        ("blog_staff", 2),  # user_ptr_id (the scanned User, reached through `import *`), badge
    ]
    assert linked.findings == []  # the form is no model; every base is known
    assert [s["value"] for s in linked.signals] == ["email,first_name,last_name,phone", "email"]


def _evaluate(body: str, class_name: str = "UserProfile", prelude: str = "") -> str | None:
    from packs import computed_names

    tree = ast.parse(prelude + body)
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    constants = {
        t.id: n.value
        for n in tree.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    scope = computed_names.Scope(constants, {"re": "re"}, lambda name: None)
    return computed_names.evaluate(computed_names.from_function(func), class_name, scope)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        # every loop is bounded by the step count, whatever it nests
        (
            "def f(cls):\n    n = ''\n    for a in X:\n        for b in X:\n"
            "            for c in X:\n                n = 'x'\n    return n\n",
            "steps",
        ),
        ("def f(cls):\n    return cls.__name__ * 1000000000\n", "Mult"),  # no repetition
        (
            "def f(cls):\n    s = 'x'\n    for c in X:\n        s = s.replace('x', 'xx')\n"
            "    return s\n",
            "longer than",
        ),
        ("def f(cls):\n    return re.sub('(a|aa)+$', '', cls.__name__)\n", "backtrack"),
        ("def f(cls):\n    return cls.__module__\n", "cls.__module__"),
        ("def f(cls):\n    return open('/etc/passwd').read()\n", "`open` is not visible"),
        ("def f(cls):\n    return Y\n", "names nest too deep"),
    ],
)
def test_a_computed_name_is_bounded_and_runs_nothing(body: str, reason: str) -> None:
    from packs.computed_names import NotEvaluated

    prelude = "X = '" + "a" * 60 + "'\nY = re.compile(Y)\n"
    with pytest.raises(NotEvaluated) as stopped:
        _evaluate(body, prelude=prelude)
    assert reason in stopped.value.reason


_NAMES = st.sampled_from(["cls.__name__", "cls.__name__.lower()", "'Ab'", "x", "'_'"])
_PATTERNS = ["(?<!^)(?=[A-Z])", "([a-z0-9])([A-Z])", "[A-Z]", "(.)([A-Z][a-z]+)", "_+"]


@st.composite
def _expressions(draw: st.DrawFn, depth: int = 0) -> str:
    """Table-name expressions over the class name: what the interpreter must either compute
    exactly as Python does or refuse."""
    if depth > 2:
        return draw(_NAMES)
    inner = draw(_expressions(depth + 1))
    pattern = draw(st.sampled_from(_PATTERNS))
    shapes = [
        inner,
        f"{inner}.lower()",
        f"{inner}.upper()",
        f"{inner}.lstrip('_')",
        f"{inner} + 's'",
        f'f"{{{inner}}}es"' if '"' not in inner and "\\" not in inner else inner,
        f"{inner}[1:]",
        f"{inner}[0]",
        f"re.sub({pattern!r}, r'_\\1' if '(' in {pattern!r} else '_', {inner})",
        f"'_'.join(re.split({pattern!r}, {inner}))",
        f"''.join(c.lower() if c.isupper() else c for c in {inner})",
        f"{inner}.replace('A', 'a_')",
        f"len({inner})",
        f"{inner}.missing()",
    ]
    return draw(st.sampled_from(shapes))


@given(
    expression=_expressions(),
    class_name=st.from_regex(r"\A[A-Z][A-Za-z0-9]{0,12}\Z"),
)
@settings(max_examples=150, deadline=None)
def test_a_computed_name_is_python_s_own_value_or_refused(expression: str, class_name: str) -> None:
    from packs.computed_names import NotEvaluated

    body = f"def f(cls):\n    x = 'Ab'\n    return {expression}\n"
    namespace: dict[str, Any] = {}
    exec("import re\n" + body, namespace)
    try:
        expected: Any = namespace["f"](type(class_name, (), {}))
    except Exception:
        expected = NotEvaluated
    try:
        got: Any = _evaluate(body, class_name)
    except NotEvaluated:
        got = NotEvaluated
    if got is not NotEvaluated:
        assert got == expected  # never a wrong name
    if expected is NotEvaluated:
        assert got is NotEvaluated  # what fails in Python is refused, not guessed


def test_the_has_inherited_table_recipe_gives_subclasses_no_table() -> None:
    source = (
        "from sqlalchemy import Column, ForeignKey, Integer\n"
        "from sqlalchemy.orm import declarative_base, declared_attr, has_inherited_table\n\n"
        "Base = declarative_base()\n\n\nclass Tablename:\n    @declared_attr\n"
        "    def __tablename__(cls):\n        if has_inherited_table(cls):\n"
        "            return None\n        return cls.__name__.lower()\n\n\n"
        "class Person(Tablename, Base):\n    id = Column(Integer, primary_key=True)\n\n\n"
        "class Engineer(Person):\n    primary_language = Column(Integer)\n"
    )
    tables = _tables_of(sqlalchemy_models.extract, sqlalchemy_models.link, {"m.py": source})
    assert tables == [("person", {"columns": 1, "model": "Person"})]


_SNIPPETS = [
    "import re",
    "import sqlalchemy as sa",
    "from sqlalchemy import *",
    "from sqlalchemy import Table, Column, Integer",
    "from sqlalchemy.orm import declarative_base, declared_attr, DeclarativeBase",
    "from flask_sqlalchemy import SQLAlchemy",
    "from django.db import models",
    "from django.contrib.auth.models import AbstractUser, PermissionsMixin",
    "from taggit.models import TaggedItemBase",
    "from .b import *",
    "from pkg.models import *",
    "from a import *",
    "from alembic import op",
    "from unknown import Thing",
    "db = SQLAlchemy()",
    "Base = declarative_base()",
    "__all__ = ['Base', 'X', 'M']",
    "NAME = re.compile(NAME)",
    "PREFIX = 'p_'",
    "T = Table(*ARGS)",
    "T2 = sa.Table(name=PREFIX)",
    "T3 = db.Table(PREFIX + 'x', db.Column('c'))",
    "T4 = Table(helper('x'), None)",
    "def helper(n):\n    return helper(n)",
    "def snake(n):\n    for c in n:\n        n = n + n\n    return n",
    "class X(Base):\n    __tablename__ = NAME\n    id = Column(Integer, primary_key=True)",
    "class Y(X):\n    id = Column(Integer, primary_key=True)",
    "class Z(Y, Base):\n    @declared_attr\n    def __tablename__(cls):\n"
    "        return snake(cls.__name__)",
    "class W(db.Model):\n    __tablename__ = None\n    id = db.Column(db.Integer)",
    "class V(Thing):\n    x = Column(Integer)\n    __tablename__ = helper",
    "class U(W):\n    __tablename__ = declared_attr(lambda cls: cls.__name__ * 2)",
    "class M(models.Model):\n    tags = models.ManyToManyField('T')\n    class Meta:\n"
    "        abstract = True",
    "class N(M, AbstractUser):\n    f = models.CharField()",
    "class O(N):\n    class Meta(N.Meta):\n        proxy = True",
    "class P(PermissionsMixin, TaggedItemBase, Thing):\n    g = models.ForeignKey(N)",
    "class Q(Q):\n    pass",
    "class Meta:\n    db_table = 1",
]


@given(files=st.lists(st.lists(st.sampled_from(_SNIPPETS), max_size=8), min_size=1, max_size=3))
@settings(max_examples=120, deadline=None)
def test_no_combination_of_table_constructs_makes_a_link_raise(files: list[list[str]]) -> None:
    paths = ["a.py", "b.py", "pkg/models.py"]
    sources = {paths[i]: "\n".join(lines) + "\n" for i, lines in enumerate(files)}
    for analyzer in (sqlalchemy_models, django_models):
        facts = []
        for path, source in sorted(sources.items()):
            try:
                facts.append((path, analyzer.extract(path, source)))
            except SyntaxError:
                continue
        linked = analyzer.link(facts)
        for finding in linked.findings:
            assert finding["code"].isupper() and finding["detail"] and finding["locations"]
        for resource in linked.resources:
            assert resource["name"] and isinstance(resource["name"], str)
