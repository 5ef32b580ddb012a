"""`pymodules`: the one resolver of Python module names for the tables packs and the pre-filter
(issue 34 item 3), by the import system's rules."""

from __future__ import annotations

import ast
import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs import prefilter
from packs.pymodules import ModuleFacts, ModuleIndex, Modules, module_facts, packages_of

PATHS = [
    "inventory/__init__.py",
    "inventory/models.py",
    "inventory/sqlalchemy.py",
    "src/billing/__init__.py",
    "src/billing/flask.py",
    "src/billing/invoices.py",
    "tools/sqlalchemy_utils.py",
    "manage.py",
]


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("inventory.models", "inventory/models.py"),  # the root is on sys.path
        ("inventory.sqlalchemy", "inventory/sqlalchemy.py"),
        ("sqlalchemy", None),  # inside a package: never a top-level module
        ("models", None),
        ("billing", "src/billing/__init__.py"),  # src/ is no package: it may be a root
        ("billing.invoices", "src/billing/invoices.py"),
        ("flask", None),  # src/billing/ is a package
        ("sqlalchemy_utils", "tools/sqlalchemy_utils.py"),  # a scripts folder may be a root
        ("manage", "manage.py"),
    ],
)
def test_a_module_name_is_the_file_python_would_import(name: str, path: str | None) -> None:
    index = ModuleIndex(((p, p) for p in PATHS), packages_of(PATHS))
    assert index.find(name) == path


SERVICES = [
    "app/__init__.py",
    "app/api.py",
    "main.py",
    "svc_b/app/__init__.py",
    "svc_b/app/api.py",
    "svc_b/main.py",
    "svc_c/app/__init__.py",
    "svc_c/app/api.py",
]


@pytest.mark.parametrize(
    ("importer", "path"),
    [
        ("main.py", "app/api.py"),  # run from the repository's root
        ("svc_b/main.py", "svc_b/app/api.py"),  # its own folder is on its sys.path first
        ("svc_c/app/__init__.py", "svc_c/app/api.py"),
        ("tools/x.py", "app/api.py"),  # no root of its own holds one: the exact name
        (None, "app/api.py"),  # asked from nowhere: the exact name
    ],
)
def test_a_name_several_roots_hold_is_the_importers_own(importer: str | None, path: str) -> None:
    index = ModuleIndex(((p, p) for p in SERVICES), packages_of(SERVICES))
    assert index.find("app.api", importer) == path


def test_the_pre_filter_asks_the_same_resolver() -> None:
    """The pre-filter's index is the linker's (`_ModuleIndex` is a `ModuleIndex`)."""
    facts = dict.fromkeys(PATHS)
    index = prefilter._ModuleIndex(facts, packages_of(PATHS))
    assert isinstance(index, ModuleIndex)
    assert index.land_at("sqlalchemy.Table") is None
    assert index.land_at("inventory.sqlalchemy.session_scope") == (
        "inventory/sqlalchemy.py",
        "session_scope",
    )


def _module(path: str, source: str) -> ModuleFacts[None]:
    return module_facts(path, ast.parse(source), lambda node: None, source)


def test_packages_come_from_the_walk_when_the_scanner_says() -> None:
    """Without the walk's packages, a link knows only the files it was given: an unparsed
    `__init__.py` would make `inventory/` look like a root."""
    from packs.pymodules import REPOSITORY_PACKAGES

    modules = [_module("inventory/sqlalchemy.py", "def f(): ...\n")]
    assert Modules(modules).find_module("sqlalchemy") is not None
    token = REPOSITORY_PACKAGES.set(frozenset({"inventory"}))
    try:
        assert Modules(modules).find_module("sqlalchemy") is None
    finally:
        REPOSITORY_PACKAGES.reset(token)


def test_classes_defined_when_a_function_runs_are_read_but_are_no_module_attributes() -> None:
    source = (
        "class Top:\n    class Meta: ...\n    def method(self):\n        class InMethod: ...\n"
        "def factory():\n    if x:\n        class InBlock: ...\n    def inner():\n"
        "        class Deep: ...\n"
    )
    facts = module_facts("m.py", ast.parse(source), lambda node: None, source)
    assert [c.name for c in facts.classes] == ["Top", "InMethod", "InBlock", "Deep"]
    assert list(facts.class_map) == ["Top"]
