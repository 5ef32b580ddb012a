"""A repository's sample environment files (`.env.example`, `.env.sample`...) as facts: the
values it documents for `process.env.NAME`, which the linker takes where the code reads a
variable with no default of its own (marked as assumed in `attrs.configDefault`). A real
`.env` is never read: it holds a deployment's secrets, not the repository's documentation."""

from __future__ import annotations

import re

from .model import Expr, Lit, ModuleFacts

ENV_FILES = (
    ".env.example",
    ".env.sample",
    ".env.template",
    ".env-template",
    ".env.defaults",
    ".env.dist",
    "example.env",
    "sample.env",
    "env.example",
)  # the order the linker looks in a folder
_NAMES = frozenset(ENV_FILES)
_LINE = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*("[^"\n]*"|'[^'\n]*'|[^#\n]*)""",
    re.MULTILINE,
)


def is_env_file(path: str) -> bool:
    return path.rpartition("/")[2] in _NAMES


def env_facts(source: str) -> ModuleFacts:
    """`bindings`: each variable the file sets (`NAME=value`, `export NAME="value"`), its value
    unquoted and stripped (a trailing comment dropped): never a parse error."""
    bindings: dict[str, Expr] = {}
    for match in _LINE.finditer(source):
        value = match.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        bindings.setdefault(match.group(1), Lit(value))
    return ModuleFacts("env", bindings=bindings)
