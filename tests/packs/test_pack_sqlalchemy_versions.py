"""pack-sqlalchemy names a Flask-SQLAlchemy model that names no table by the rule of the version
the repository declares (2.x: `EditableHTML` → `editableHTML`; 3.x: `editable_html`), and says so
where the declared versions admit both. The names are what the libraries gave when run
(bench/real_repos/derive/flask_sqlalchemy_names.py under 2.5.1 and 3.1.1), not read from their
code. Every scan here is held to the same scan parsing every file (the pre-filter's identity)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_sqlalchemy
from packs import sqlalchemy_models
from packs.scan import JSONObject, Scanner

# (class name, Flask-SQLAlchemy 2.5.1's table name, 3.1.1's): run, not derived by hand
RUN: tuple[tuple[str, str, str], ...] = (
    ('HTMLParser', 'html_parser', 'html_parser'),
    ('EditableHTML', 'editableHTML', 'editable_html'),
    ('ABTest', 'ab_test', 'ab_test'),
    ('UserV2', 'user_v2', 'user_v2'),
    ('OAuth2Client', 'o_auth2_client', 'o_auth2_client'),
    ('X', 'X', 'x'),
    ('IOError', 'io_error', 'io_error'),
    ('APIKey', 'api_key', 'api_key'),
    ('My_Model', 'my__model', 'my__model'),
    ('Model2', 'model2', 'model2'),
    ('V2Model', 'v2_model', 'v2_model'),
    ('Item3D', 'item3D', 'item3_d'),
    ('ABC', 'ABC', 'abc'),
    ('A1B2', 'a1_b2', 'a1_b2'),
    ('a', 'a', 'a'),
    ('user', 'user', 'user'),
    ('_Private', 'private', 'private'),
    ('__Dunder', 'dunder', 'dunder'),
    ('HTTP2Server', 'htt_p2_server', 'http2_server'),
    ('HTTPLog', 'http_log', 'http_log'),
    ('getHTTPResponseCode', 'get_http_response_code', 'get_http_response_code'),
    ('User_Role', 'user__role', 'user__role'),
    ('UserID', 'userID', 'user_id'),
    ('IDs', 'i_ds', 'i_ds'),
    ('PDFs', 'pd_fs', 'pd_fs'),
    ('OneTwoTHREE', 'one_twoTHREE', 'one_two_three'),
    ('S3Bucket', 's3_bucket', 's3_bucket'),
    ('Web3Wallet', 'web3_wallet', 'web3_wallet'),
    ('MyURL_Map', 'myURL__map', 'my_url__map'),
    ('CamelCase', 'camel_case', 'camel_case'),
    ('Camel_Case', 'camel__case', 'camel__case'),
    ('ALL_CAPS', 'ALL_CAPS', 'all_caps'),
    ('XMLHttpRequest', 'xml_http_request', 'xml_http_request'),
    ('Ab', 'ab', 'ab'),
    ('AB', 'AB', 'ab'),
    ('ABc', 'a_bc', 'a_bc'),
    ('A_B', 'A_B', 'a_b'),
    ('Ünïcode', 'Ünïcode', 'ünïcode'),
    ('UserÄB', 'userÄB', 'useräb'),
    ('ItemV2Beta', 'item_v2_beta', 'item_v2_beta'),
    ('Über', 'Über', 'über'),
    ('Log2File', 'log2_file', 'log2_file'),
    ('OAuth', 'o_auth', 'o_auth'),
    ('USERS', 'USERS', 'users'),
    ('T1', 't1', 't1'),
    ('IPv6Address', 'i_pv6_address', 'i_pv6_address'),
    ('GPSCoordinates', 'gps_coordinates', 'gps_coordinates'),
    ('X_', 'X_', 'x_'),
    ('User__Role', 'user___role', 'user___role'),
    ('GroupsX', 'groupsX', 'groups_x'),
    ('A1', 'a1', 'a1'),
    ('AB1', 'a_b1', 'ab1'),
    ('ABC_', 'ABC_', 'abc_'),
    ('HTML5', 'htm_l5', 'html5'),
    ('HTML5Doc', 'htm_l5_doc', 'html5_doc'),
    ('UUID4Key', 'uui_d4_key', 'uuid4_key'),
    ('X2Y', 'x2Y', 'x2_y'),
    ('mixedCASE', 'mixedCASE', 'mixed_case'),
    ('mixedCASEWord', 'mixed_case_word', 'mixed_case_word'),
    ('_ABC', 'ABC', 'abc'),
    ('Table_1', 'table_1', 'table_1'),
    ('V1_API', 'v1_API', 'v1_api'),
    ('API_v1', 'API_v1', 'api_v1'),
)  # fmt: skip


@pytest.mark.parametrize(("name", "older", "newer"), RUN, ids=[r[0] for r in RUN])
def test_each_rule_names_as_its_library_did_when_run(name: str, older: str, newer: str) -> None:
    assert sqlalchemy_models.camel_to_snake_case_2(name) == older
    assert sqlalchemy_models.camel_to_snake_case(name) == newer


MODELS = """\
from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class EditableHTML(db.Model):
    id = db.Column(db.Integer, primary_key=True)


class ApiToken(db.Model):
    id = db.Column(db.Integer, primary_key=True)


class HTTP2Probe(db.Model):
    __tablename__ = "probes"
    id = db.Column(db.Integer, primary_key=True)
"""
"""One model whose name the rules disagree on, one they agree on, one named explicitly."""


def _scanner(root: Path, *, parse_all: bool) -> Scanner[Any]:
    return Scanner((".py",), sqlalchemy_models.extract, sqlalchemy_models.link,
                   language="Python", root=str(root), workers=1,
                   keywords=pack_sqlalchemy.KEYWORDS, base_keywords=pack_sqlalchemy.BASE_KEYWORDS,
                   follow=pack_sqlalchemy.FOLLOW, named=sqlalchemy_models.NAMED,
                   parse_all=parse_all)  # fmt: skip


def _scan(root: Path) -> JSONObject:
    document = _scanner(root, parse_all=False).discover(["."])
    assert document == _scanner(root, parse_all=True).discover(["."])
    return document


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in {"shop/models.py": MODELS, **files}.items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path


def _names(document: JSONObject) -> list[str]:
    return [r["name"] for r in document["resources"]]


def _version_findings(document: JSONObject) -> list[tuple[str, int, str]]:
    return [
        (place["path"], place["line"], finding["detail"])
        for finding in document["findings"]
        if finding["code"] == "VERSION_DEPENDENT_NAME"
        for place in finding["locations"]
    ]


BELOW_3 = {
    "pinned, requirements": {"requirements.txt": "Flask==1.1.4\nFlask-SQLAlchemy==2.4.0\n"},
    "through -r into a folder": {
        "requirements.txt": "-r requirements/common.txt\n",
        "requirements/common.txt": "# shared\nflask_sqlalchemy >=2.1, <3 ; python_version >= '3'\n",
    },
    "compatible release": {"requirements-prod.txt": "Flask-SQLAlchemy~=2.5\n"},
    "pyproject [project]": {
        "pyproject.toml": '[project]\nname = "x"\ndependencies = ["flask-sqlalchemy>=2,<3"]\n'
    },
    "poetry caret": {
        "pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.8"\nFlask-SQLAlchemy = "^2.5"\n'
    },
    "poetry.lock pin under an open range": {
        "pyproject.toml": '[tool.poetry.dependencies]\nflask-sqlalchemy = ">=2"\n',
        "poetry.lock": '[[package]]\nname = "flask-sqlalchemy"\nversion = "2.5.1"\n',
    },
    "Pipfile": {"Pipfile": '[packages]\nflask-sqlalchemy = "==2.4.4"\n'},
    "Pipfile.lock": {"Pipfile.lock": '{"default": {"flask-sqlalchemy": {"version": "==2.3.2"}}}'},
    "setup.cfg": {"setup.cfg": "[options]\ninstall_requires =\n    Flask-SQLAlchemy<3.0\n"},
    "setup.py, a module-level list": {
        "setup.py": "from setuptools import setup\n\nREQUIRES = ['Flask-SQLAlchemy==2.5.1']\n"
        "setup(name='shop', install_requires=REQUIRES)\n"
    },
    "uv.lock": {
        "uv.lock": 'version = 1\n[[package]]\nname = "flask-sqlalchemy"\nversion = "2.5.1"\n'
    },
}


@pytest.mark.parametrize("files", BELOW_3.values(), ids=list(BELOW_3))
def test_a_repository_declaring_only_2x_gets_2x_names(
    tmp_path: Path, files: dict[str, str]
) -> None:
    document = _scan(_repo(tmp_path, files))
    assert _names(document) == ["editableHTML", "api_token", "probes"]
    assert _version_findings(document) == []


FROM_3 = {
    "pinned": {"requirements.txt": "Flask-SQLAlchemy==3.1.1\n"},
    "lower bound": {"requirements/base.in": "flask-sqlalchemy>=3.0\n"},
    "poetry tilde": {"pyproject.toml": '[tool.poetry.dependencies]\nflask-sqlalchemy = "~3.0"\n'},
}


@pytest.mark.parametrize("files", FROM_3.values(), ids=list(FROM_3))
def test_a_repository_declaring_only_3x_gets_3x_names(
    tmp_path: Path, files: dict[str, str]
) -> None:
    document = _scan(_repo(tmp_path, files))
    assert _names(document) == ["editable_html", "api_token", "probes"]
    assert _version_findings(document) == []


BOTH = {
    "undeclared": ({}, "declares no version of Flask-SQLAlchemy"),
    "unbounded": ({"requirements.txt": "Flask-SQLAlchemy\n"}, "requirements.txt:1 (*)"),
    "a range across 3.0": (
        {"requirements.txt": "Flask-SQLAlchemy>=2.4,<3.2\n"},
        "requirements.txt:1 (>=2.4,<3.2)",
    ),
    "two projects that disagree": (
        {
            "a/requirements.txt": "Flask-SQLAlchemy==2.5.1\n",
            "b/requirements.txt": "Flask-SQLAlchemy==3.1.1\n",
        },
        "a/requirements.txt:1 (==2.5.1), b/requirements.txt:1 (==3.1.1)",
    ),
    "a URL": (
        {"requirements.txt": "-e git+https://example.invalid/fsa.git#egg=Flask-SQLAlchemy\n"},
        "(editable)",
    ),
}


@pytest.mark.parametrize(("files", "said"), BOTH.values(), ids=list(BOTH))
def test_where_both_rules_may_apply_the_3x_name_is_listed_and_both_are_said(
    tmp_path: Path, files: dict[str, str], said: str
) -> None:
    document = _scan(_repo(tmp_path, files))
    assert _names(document) == ["editable_html", "api_token", "probes"]
    [(path, line, detail)] = _version_findings(document)  # ApiToken: both rules agree
    assert (path, line) == ("shop/models.py", 6)
    assert "`editableHTML` before 3.0" in detail and "`editable_html` from 3.0" in detail
    assert said in detail


def test_editing_a_dependency_file_changes_the_next_document(tmp_path: Path) -> None:
    """The declarations are memoized per file like source is: a changed pin is read again,
    with the pre-filter on, and the name follows it."""
    root = _repo(tmp_path, {"requirements.txt": "Flask-SQLAlchemy==2.5.1\n"})
    scanner = _scanner(root, parse_all=False)
    assert _names(scanner.discover(["."]))[0] == "editableHTML"
    requirements = root / "requirements.txt"
    requirements.write_text("Flask-SQLAlchemy==3.1.1\n", encoding="utf-8")  # same size
    os.utime(requirements, ns=(1, 1))  # and a stamp the memo cannot have seen
    assert _names(scanner.discover(["."]))[0] == "editable_html"
    requirements.unlink()
    document = scanner.discover(["."])
    assert _names(document)[0] == "editable_html"
    assert len(_version_findings(document)) == 1


def test_other_text_files_are_not_read(tmp_path: Path) -> None:
    """Only dependency files are walked: notes and data in `.txt` files are not read (nor
    reported: a file the pack does not take is no `unsupported` entry of a directory walk)."""
    root = _repo(tmp_path, {"docs/notes.txt": "Flask-SQLAlchemy==2.5.1\n", "data.txt": "\xff"})
    document = _scan(root)
    assert _names(document)[0] == "editable_html"
    assert document["unresolved"] == []
