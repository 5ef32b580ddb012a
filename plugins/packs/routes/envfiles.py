"""A repository's environment files as facts: each variable a file sets, parsed by dotenv's own
rules. Two kinds are read, both only when the linker asks:

- a file the app loads into `process.env` (`EnvLoad`: `dotenv.config({ path })`, NestJS's
  `ConfigModule.forRoot({ envFilePath })`...): the value the app is given, in the order and
  with the precedence the loader applies (`loaded_value`); a committed `.env` is what the app
  runs with where the deployment sets nothing else;
- a sample file (`.env.example`, `.env.sample`...: `ENV_FILES`), which no app loads: the value
  it documents, taken where the code reads a variable with no default of its own and no loaded
  file sets it (marked as assumed in `attrs.configDefault`).

Bounded: a file over `MAX_ENV_BYTES` gives no value, nor an expansion past its caps; a path that leaves the repository is never
read (its value unknown); the walk takes no symlink, so none is followed."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from typing import Final

from .model import EnvLoad, Expr, Lit, ModuleFacts

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
MAX_ENV_BYTES = 256 * 1024
"""An environment file is a few hundred lines: past this it is no file a loader is meant for."""
# dotenv 16's `LINE` (lib/main.js), as `parse` applies it: `export ` and `KEY: value` accepted,
# a quoted value kept whole (over several lines too), an unquoted one cut at `#`
_LINE = re.compile(
    r"""^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|"""
    r"""\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$""",
    re.MULTILINE | re.ASCII,
)
_QUOTED = re.compile(r"""^(['"`])([\s\S]*)\1$""", re.MULTILINE)
_DOTENV_NAME = re.compile(r"(?:\.env(?:\.[\w-]+)*|[\w.-]+\.env)", re.ASCII)
_NOT_ENV_SUFFIXES = frozenset(
    {"js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "json", "md", "py", "sh", "txt", "yml"}
    | {"yaml", "toml", "d"}
)  # `.env.ts` is a module, `.env.example.md` a document
_EXPANDED = re.compile(r"(\\?)\$\{([\w.-]+)(?::?-([^}]*))?\}|(\\?)\$([A-Za-z_]\w*)", re.ASCII)
_MAX_EXPANSION_DEPTH = 8
ROOTED = "root"  # an `EnvLoad` entry's base: the path is the repository's (another module's export)
ROOTED_MAYBE = "root?"  # one of the paths that export may hold: no file of it is surely loaded
_ROOTED = frozenset({ROOTED, ROOTED_MAYBE})
_MAX_LOOKUPS = 1_024  # variables one value's expansion looks up, at every depth
_MAX_EXPANDED = 4_096  # characters of an expanded value


class Unknown:
    """A value the loaded files leave open: a file out of sight (a computed name, a path
    outside the repository) may set it before the one that does."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = Unknown()


def is_env_file(path: str) -> bool:
    """A sample file (`ENV_FILES`), or a file named as dotenv's are (`.env`, `.env.local`,
    `.env.production`, `dev.env`): parsed when the linker asks."""
    name = path.rpartition("/")[2]
    return name in _NAMES or is_dotenv_name(name)


def is_dotenv_name(name: str) -> bool:
    if not _DOTENV_NAME.fullmatch(name):
        return False
    return name.rpartition(".")[2] not in _NOT_ENV_SUFFIXES


def parse_dotenv(source: str) -> dict[str, str]:
    """Each variable the file sets, as dotenv 16's `parse` reads it: comments and `export `
    dropped, surrounding quotes removed, `\\n`/`\\r` in a double-quoted value unescaped, a
    later line for the same name winning; never a parse error."""
    found: dict[str, str] = {}
    if len(source) > MAX_ENV_BYTES:
        return found
    for match in _LINE.finditer(source.replace("\r\n", "\n").replace("\r", "\n")):
        value = (match.group(2) or "").strip()
        quote = value[:1]
        value = _QUOTED.sub(r"\2", value)
        if quote == '"':
            value = value.replace("\\n", "\n").replace("\\r", "\r")
        found[match.group(1)] = value
    return found


def env_facts(source: str) -> ModuleFacts:
    """`bindings`: each variable the file sets (`parse_dotenv`), as a literal."""
    bindings: dict[str, Expr] = {name: Lit(v) for name, v in parse_dotenv(source).items()}
    return ModuleFacts("env", bindings=bindings)


def loaded_value(
    load: EnvLoad,
    loader: str,
    cwd: str,
    name: str,
    files: Collection[str],
    bindings_of: Callable[[str], Mapping[str, Expr]],
) -> tuple[str, str] | Unknown | None:
    """`process.env[name]` as `load` (written in the file `loader`, run from the folder `cwd`)
    sets it: (value, the file setting it), `UNKNOWN` where a file out of sight may set it
    first, None where no file it reads sets it. dotenv and NestJS keep the first value a
    variable is given unless `override` (then the last)."""
    return _loaded(load, loader, cwd, name, files, bindings_of, 0, [_MAX_LOOKUPS])


def _loaded(
    load: EnvLoad,
    loader: str,
    cwd: str,
    name: str,
    files: Collection[str],
    bindings_of: Callable[[str], Mapping[str, Expr]],
    depth: int,
    left: list[int],
) -> tuple[str, str] | Unknown | None:
    entries = reversed(load.files) if load.override else load.files
    maybe: set[str] = set()  # what files out of sight, or picked by a computed name, may set
    for base, entry in entries:
        folder = "" if base in _ROOTED else posixpath.dirname(loader) if base else cwd
        for file, certain in _candidates(folder, entry, files):
            certain = certain and base != ROOTED_MAYBE
            if file is None:
                return UNKNOWN  # outside the repository: anything
            value = bindings_of(file).get(name)
            if not isinstance(value, Lit):
                continue
            if not certain:
                maybe.add(value.value)
                continue
            if maybe - {value.value}:
                return UNKNOWN
            text = value.value
            if load.expand and "$" in text:
                expanded = _expand(load, loader, cwd, text, files, bindings_of, depth, left)
                if expanded is None:
                    return UNKNOWN
                text = expanded
            return text, file
    return UNKNOWN if maybe else None


def _candidates(base: str, entry: str, files: Collection[str]) -> list[tuple[str | None, bool]]:
    """The files an entry may name, each with whether it surely does (a literal name); a None
    file for a path that leaves the repository."""
    pattern = entry if entry else "*"
    joined = posixpath.normpath(posixpath.join(base, pattern) if base else pattern)
    if joined.startswith("/") or joined == ".." or joined.startswith("../"):
        return [(None, False)]
    if "*" not in pattern:
        return [(joined, True)] if joined in files else []
    folder = posixpath.dirname(joined)
    return [
        (file, False)
        for file in sorted(files)
        if posixpath.dirname(file) == folder
        and is_dotenv_name(file.rpartition("/")[2])
        and file.rpartition("/")[2] not in _NAMES  # a sample is no deployment's file
        and fnmatch.fnmatchcase(file, joined)
    ]


def _expand(
    load: EnvLoad,
    loader: str,
    cwd: str,
    text: str,
    files: Collection[str],
    bindings_of: Callable[[str], Mapping[str, Expr]],
    depth: int,
    left: list[int],
) -> str | None:
    """dotenv-expand's `${VAR}`, `${VAR:-default}` and `$VAR` (a `\\$` kept literal): each
    variable as the same load sets it, else its default, else empty; None when one is out of
    sight, the expansion nests too deep, looks up more than `_MAX_LOOKUPS` variables (`left`,
    for the whole value: `V2=${V1}${V1}…` over `V1=${V0}${V0}…` is their product) or makes a
    value longer than `_MAX_EXPANDED`."""
    if depth >= _MAX_EXPANSION_DEPTH:
        return None
    failed = False

    def one(match: re.Match[str]) -> str:
        nonlocal failed
        escaped = match.group(1) or match.group(4)
        if escaped:
            return match.group(0)[1:]
        variable = match.group(2) or match.group(5)
        left[0] -= 1
        if left[0] < 0:
            failed = True
            return ""
        found = _loaded(load, loader, cwd, variable, files, bindings_of, depth + 1, left)
        if isinstance(found, Unknown):
            failed = True
            return ""
        if found is not None and found[0]:
            return found[0]
        return match.group(3) or ""

    result = _EXPANDED.sub(one, text)
    return None if failed or len(result) > _MAX_EXPANDED else result
