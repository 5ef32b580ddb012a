"""`packs.routes.envfiles`: a sample environment file's documented values as bindings, and
which file names are such samples (a real `.env` never is)."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.routes.envfiles import ENV_FILES, env_facts, is_env_file
from packs.routes.model import Lit


@pytest.mark.parametrize(
    ("path", "sample"),
    [
        (".env.example", True),
        ("api/.env.sample", True),
        ("deploy/example.env", True),
        ("env.example", True),
        (".env", False),  # a deployment's secrets: never read
        (".env.local", False),
        ("docs/.env.example.md", False),
        ("x.env.example", False),
    ],
)
def test_only_sample_files_are_env_files(path: str, sample: bool) -> None:
    assert is_env_file(path) is sample


def test_the_linker_looks_in_a_folder_in_a_fixed_order() -> None:
    assert ENV_FILES[0] == ".env.example"
    assert len(set(ENV_FILES)) == len(ENV_FILES)


def test_each_variable_is_bound_to_its_value_unquoted_and_stripped() -> None:
    source = (
        "# the API's settings\n"
        "API_PREFIX=/api/v1\n"
        'export BASE_PATH="/base # not a comment"\n'
        "  SINGLE = '/single'  \n"
        "TRAILING=/t # a comment\n"
        "EMPTY=\n"
        "API_PREFIX=/second-ignored\n"
        "not a binding\n"
        "1BAD=/x\n"
        "MIXED=\"/unbalanced'\n"
    )
    facts = env_facts(source)
    assert facts.language == "env"
    assert facts.bindings == {
        "API_PREFIX": Lit("/api/v1"),  # the first value of a name is the one kept
        "BASE_PATH": Lit("/base # not a comment"),
        "SINGLE": Lit("/single"),
        "TRAILING": Lit("/t"),
        "EMPTY": Lit(""),
        "MIXED": Lit("\"/unbalanced'"),
    }


def test_a_file_of_no_bindings_says_nothing_and_never_fails() -> None:
    assert env_facts("").bindings == {}
    assert env_facts("\x00 binary = nonsense ===\n#only comments\n").bindings == {}
