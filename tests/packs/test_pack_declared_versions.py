"""The dependency reader (`packs.declared_versions`) and the specifiers it reads
(`packs.version_ranges`): which versions of a package each kind of dependency file admits, as
pure functions of its path and text."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.declared_versions import (
    NPM,
    PYTHON,
    declared,
    is_declaration_file,
    is_python_declaration_file,
    read,
)
from packs.version_ranges import Range, pep440, semver

V3 = (3,)


def _sides(admits: Range, bound: tuple[int, ...] = V3) -> tuple[bool, bool]:
    """(admits a version below `bound`, admits `bound` or above)."""
    return admits.admits_below(bound), admits.admits_from(bound)


@pytest.mark.parametrize(
    ("spec", "sides"),
    [
        ("==2.4.0", (True, False)), ("==3.0.0", (False, True)), ("==2.*", (True, False)),
        (">=2,<3", (True, False)), ("<3.0", (True, False)), ("<=3", (True, True)),
        (">2.9", (True, True)), (">=3.0.0rc1", (False, True)), ("~=2.4", (True, False)),
        ("~=2.4.1", (True, False)), ("~=3.0.1", (False, True)), ("!=3.0", (True, True)),
        ("", (True, True)), ("@ https://x/y.whl", (True, True)), (">=2.5,<3.1", (True, True)),
    ],
)  # fmt: skip
def test_pep440_specifiers(spec: str, sides: tuple[bool, bool]) -> None:
    assert _sides(pep440(spec)) == sides


@pytest.mark.parametrize(
    ("spec", "sides"),
    [
        ("^2.5.0", (True, False)), ("^3", (False, True)), ("~2.9", (True, False)),
        ("2.x", (True, False)), ("2", (True, False)), ("*", (True, True)), ("", (True, True)),
        (">=2 <3", (True, False)), (">=2, <3", (True, False)), ("2.0.0 - 2.9.9", (True, False)),
        ("2 - 3", (True, True)), ("^2 || ^3", (True, True)), ("^0.2.3", (True, False)),
        ("latest", (True, True)), ("github:owner/repo", (True, True)),
        ("npm:other@^3.1", (False, True)), (">2", (False, True)), ("<=2", (True, False)),
    ],
)  # fmt: skip
def test_npm_and_poetry_ranges(spec: str, sides: tuple[bool, bool]) -> None:
    assert _sides(semver(spec)) == sides


@pytest.mark.parametrize(
    ("path", "taken"),
    [
        ("requirements.txt", True), ("requirements-dev.txt", True), ("dev-requirements.txt", True),
        ("a/b/requirements.in", True), ("requirements/base.txt", True),
        ("requirements/prod.in", True), ("constraints.txt", True), ("pyproject.toml", True),
        ("Pipfile", True), ("Pipfile.lock", True), ("poetry.lock", True), ("uv.lock", True),
        ("setup.cfg", True), ("pkg/setup.py", True), ("docs/notes.txt", False),
        ("requirements.md", False), ("tox.ini", False), ("package.json", False),
    ],
)  # fmt: skip
def test_which_files_are_python_declarations(path: str, taken: bool) -> None:
    assert is_python_declaration_file(path) is taken


def test_javascript_manifests_and_locks_are_declarations() -> None:
    names = ("package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml")
    assert all(is_declaration_file(f"web/{n}") for n in names)
    assert not is_declaration_file("web/tsconfig.json")


def test_requirements_lines() -> None:
    found = read(
        "svc/requirements.txt",
        "# comment\nFlask_SQLAlchemy[async] >= 2.1, < 3 ; python_version > '3.6'  # pin\n"
        "-r ../common/base.txt\n--constraint=c.txt\nrequests==2.31.0 \\\n"
        "    --hash=sha256:abc\n-e git+https://g.invalid/r.git#egg=my_lib\n./local-dir\n",
    )
    packages = {r.package: (r.line, r.text, _sides(r.admits)) for r in found.requirements}
    assert packages == {
        "flask-sqlalchemy": (2, ">= 2.1, < 3", (True, False)),
        "requests": (5, "==2.31.0", (True, False)),
        "my-lib": (7, "editable", (True, True)),
    }
    assert found.includes == ("common/base.txt", "svc/c.txt")


def test_pyproject_project_poetry_and_groups() -> None:
    text = (
        '[project]\ndependencies = ["alpha>=3"]\n'
        '[project.optional-dependencies]\nextra = ["beta<3"]\n'
        '[dependency-groups]\ndev = ["gamma==2.0"]\n'
        '[tool.poetry.dependencies]\npython = "^3.11"\ndelta = "^3.1"\n'
        'epsilon = { version = "~2.2", optional = true }\n'
        'zeta = [{ version = "^2", python = "<3.9" }, { version = "^3", python = ">=3.9" }]\n'
        '[tool.poetry.group.test.dependencies]\neta = ">=2,<3"\n'
    )
    found = {r.package: _sides(r.admits) for r in read("pyproject.toml", text).requirements}
    assert found == {
        "alpha": (False, True), "beta": (True, False), "gamma": (True, False),
        "delta": (False, True), "epsilon": (True, False), "zeta": (True, True),
        "eta": (True, False),
    }  # fmt: skip


def test_setup_py_literal_lists_only() -> None:
    text = (
        "from setuptools import setup\nBASE = ['alpha==2.0']\n"
        "setup(install_requires=BASE + read('x'), extras_require={'db': ['beta>=3'], 'x': EXTRA})\n"
        "setup(install_requires=BASE)\n"
    )
    found = {r.package: (r.line, _sides(r.admits)) for r in read("setup.py", text).requirements}
    assert found == {"alpha": (2, (True, False)), "beta": (3, (False, True))}


def test_lock_files_pin() -> None:
    locks = {
        "poetry.lock": '[[package]]\nname = "Alpha_Lib"\nversion = "2.5.1"\n',
        "Pipfile.lock": '{"default": {}, "develop": {"alpha-lib": {"version": "==3.0.0"}}}',
        "setup.cfg": "[options]\ninstall_requires =\n  alpha.lib ~= 2.0\n"
        "[options.extras_require]\nx = alpha-lib>=3\n",
    }
    found = {
        p: [(r.package, _sides(r.admits)) for r in read(p, t).requirements]
        for p, t in locks.items()
    }
    assert found == {
        "poetry.lock": [("alpha-lib", (True, False))],
        "Pipfile.lock": [("alpha-lib", (False, True))],
        "setup.cfg": [("alpha-lib", (True, False)), ("alpha-lib", (False, True))],
    }


def test_javascript_files() -> None:
    manifest = read(
        "package.json",
        '{"dependencies": {"mongoose": "^5.13.2"}, "devDependencies": {"@types/x": "*"}}',
    )
    assert [(r.package, r.line) for r in manifest.requirements] == [
        ("mongoose", 1),
        ("@types/x", 1),
    ]
    lock = read(
        "package-lock.json",
        '{"lockfileVersion": 3, "packages": {"": {}, "node_modules/mongoose": {"version": "6.0.1"},'
        ' "node_modules/a/node_modules/@s/b": {"version": "1.0.0"}}}',
    )
    assert [(r.package, r.text) for r in lock.requirements] == [
        ("mongoose", "6.0.1"),
        ("@s/b", "1.0.0"),
    ]
    yarn = read(
        "yarn.lock",
        '"mongoose@^5.0.0", mongoose@^5.1:\n  version "5.13.2"\n\n'
        '"@s/b@npm:^1.0.0":\n  version: 1.2.0\n',
    )
    assert [(r.package, r.text, r.line) for r in yarn.requirements] == [
        ("mongoose", "5.13.2", 1), ("@s/b", "1.2.0", 4)
    ]  # fmt: skip
    pnpm = read(
        "pnpm-lock.yaml",
        "lockfileVersion: 5.4\nimporters:\n  .:\npackages:\n  /mongoose/7.0.1:\n    resolution: {}\n"
        "  /@s/b@1.0.0:\n    dev: true\n  mongoose@8.1.0:\n    x: y\n",
    )
    assert [(r.package, r.text) for r in pnpm.requirements] == [
        ("mongoose", "7.0.1"), ("@s/b", "1.0.0"), ("mongoose", "8.1.0")
    ]  # fmt: skip


@pytest.mark.parametrize(
    "path", ["package.json", "yarn.lock", "pyproject.toml", "Pipfile.lock", "setup.py", "setup.cfg"]
)
def test_a_malformed_file_declares_nothing(path: str) -> None:
    assert read(path, "{[ not = valid ((\n\x00").requirements == ()


def test_declarations_taken_together_then_any_of_them() -> None:
    """One environment: the intersection of every declaration (a pin narrows a range); where
    they admit nothing together (two projects), the union; a package declared nowhere: None."""
    files = [
        read("requirements.txt", "flask-sqlalchemy>=2\n"),
        read("poetry.lock", '[[package]]\nname = "flask-sqlalchemy"\nversion = "2.5.1"\n'),
        read("package.json", '{"dependencies": {"flask-sqlalchemy": "^3"}}'),  # npm's, not Python's
    ]
    together = declared(files, "Flask_SQLAlchemy", PYTHON)
    assert together is not None and _sides(together.admits) == (True, False)
    assert together.places == ("requirements.txt:1 (>=2)", "poetry.lock:2 (2.5.1)")
    apart = declared(
        [read("a/requirements.txt", "x==2.0\n"), read("b/requirements.txt", "x==3.0\n")],
        "x",
        PYTHON,
    )
    assert apart is not None and _sides(apart.admits) == (True, True)
    assert declared(files, "flask-sqlalchemy", NPM) is not None
    assert declared(files, "mongoose", NPM) is None
