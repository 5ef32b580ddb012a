"""`packs.routes.envfiles`: an environment file's values as bindings, by dotenv's parsing
rules, and which file names are environment files (samples and dotenv's own names)."""

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
        (".env", True),  # read only where the code loads it
        (".env.local", True),
        ("deploy/prod.env", True),
        ("src/.env.ts", False),  # a module
        ("docs/.env.example.md", False),
        ("x.env.example", False),
    ],
)
def test_sample_and_dotenv_files_are_env_files(path: str, sample: bool) -> None:
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
        "not a binding\n"
        "1BAD=/x\n"
        "MIXED=\"/unbalanced'\n"
        'MULTI="a\\nb"\n'
        "COLON: /c\n"
    )
    facts = env_facts(source)
    assert facts.language == "env"
    assert facts.bindings == {
        "API_PREFIX": Lit("/api/v1"),
        "BASE_PATH": Lit("/base # not a comment"),
        "SINGLE": Lit("/single"),
        "TRAILING": Lit("/t"),
        "EMPTY": Lit(""),
        "1BAD": Lit("/x"),  # dotenv's keys are `[\\w.-]+`
        "MIXED": Lit("\"/unbalanced'"),
        "MULTI": Lit("a\nb"),  # `\\n` in double quotes is a newline
        "COLON": Lit("/c"),
    }


def test_a_later_line_for_the_same_name_wins_as_in_dotenv() -> None:
    assert env_facts("A=/first\nA=/second\n").bindings == {"A": Lit("/second")}


def test_a_file_over_the_cap_gives_nothing() -> None:
    assert env_facts("A=/x\n" + "#" * (256 * 1024)).bindings == {}


def test_a_file_of_no_bindings_says_nothing_and_never_fails() -> None:
    assert env_facts("").bindings == {}
    assert env_facts("\x00 binary = nonsense ===\n#only comments\n").bindings == {}
