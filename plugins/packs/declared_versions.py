"""The versions of the libraries a repository declares, read from its dependency files.

A pack whose naming rule changed between two versions of a library (Flask-SQLAlchemy 2 names
`class EditableHTML(db.Model)` `editableHTML`, 3 names it `editable_html`) applies the rule of
the versions the repository can be installed with. This module reads those versions as pure
functions of a file's path and text: `read(path, text)` gives one file's declarations, and
`declared(files, package)` the range every file together admits.

Read, for Python: `requirements*.txt` (and any `.txt`/`.in` in a `requirements*/` folder; `-r`
and `-c` lines name further files, read when the walk found them), `pyproject.toml` (`[project]`
dependencies and optional dependencies, `[tool.poetry]` dependencies and groups), `Pipfile`,
`setup.cfg` (`install_requires`, `extras_require`), `setup.py` (`install_requires=` /
`extras_require=` given as literal lists, or a module-level name bound to one), and the pins of
`poetry.lock`, `uv.lock`, `Pipfile.lock`, `pdm.lock`. For JavaScript: `package.json` (every
dependency group) and the pins of `package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock` (v1 and
berry) and `pnpm-lock.yaml`.

A specifier the reader cannot place (a URL, a path, a git reference, a marker-only line) admits
every version (`version_ranges` reads the specifiers): a version-dependent rule then says both
names, never guesses.
"""

from __future__ import annotations

import ast
import configparser
import json
import posixpath
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .version_ranges import (
    EVERY,
    Interval,
    Range,
    Version,
    exactly,
    normal,
    parse_version,
    pep440,
    poetry,
    semver,
)

PYTHON = "python"
NPM = "npm"

_PYTHON_LOCKS = frozenset({"poetry.lock", "uv.lock", "Pipfile.lock", "pdm.lock"})
_PYTHON_FILES = frozenset({"pyproject.toml", "Pipfile", "setup.cfg", "setup.py"}) | _PYTHON_LOCKS
_NPM_FILES = frozenset(
    {"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml"}
)
_REQUIREMENTS_NAME = re.compile(r"(?:.*[-_.])?(?:requirements|constraints)(?:[-_.].*)?\.(?:txt|in)")
_REQUIREMENTS_DIR = re.compile(r"(?:.*[-_.])?requirements(?:[-_.].*)?|reqs|requires")


@dataclass(frozen=True)
class Requirement:
    """One declaration of a package: its normalised name, what it admits, where it is."""

    package: str
    admits: Range
    text: str  # the specifier as written, for a finding's detail ("==2.4.0", "^5.0.0", "*")
    line: int


@dataclass(frozen=True)
class Declarations:
    """One dependency file's declarations (`read`)."""

    path: str
    ecosystem: str  # PYTHON or NPM
    requirements: tuple[Requirement, ...]
    includes: tuple[str, ...] = ()  # files a requirements file names (`-r`, `-c`), repo-relative
    locked: bool = False  # a lock file: its versions are pins


def is_declaration_file(path: str) -> bool:
    """Whether the walk takes `path` (repo-relative) as a dependency file `read` reads."""
    return path.rpartition("/")[2] in _NPM_FILES or is_python_declaration_file(path)


def is_python_declaration_file(path: str) -> bool:
    """`is_declaration_file`, for a Python project's files only."""
    head, _, name = path.rpartition("/")
    if name in _PYTHON_FILES:
        return True
    if _REQUIREMENTS_NAME.fullmatch(name):
        return True
    folder = head.rpartition("/")[2]
    return (
        bool(folder)
        and name.endswith((".txt", ".in"))
        and bool(_REQUIREMENTS_DIR.fullmatch(folder))
    )


def read(path: str, text: str) -> Declarations:
    """The declarations of one dependency file. Never raises on a malformed file: what cannot
    be read declares nothing (a dependency file holds no table nor route to report)."""
    name = path.rpartition("/")[2]
    try:
        if name in _NPM_FILES:
            return Declarations(
                path, NPM, tuple(_npm_file(name, text)), locked=name != "package.json"
            )
        if name == "setup.py":
            return Declarations(path, PYTHON, tuple(_setup_py(text)))
        if name == "setup.cfg":
            return Declarations(path, PYTHON, tuple(_setup_cfg(text)))
        if name in _PYTHON_LOCKS:
            return Declarations(path, PYTHON, tuple(_python_lock(name, text)), locked=True)
        if name in ("pyproject.toml", "Pipfile"):
            return Declarations(path, PYTHON, tuple(_python_toml(name, text)))
        requirements, includes = _requirements_txt(text)
        folder = posixpath.dirname(path)
        resolved = tuple(posixpath.normpath(posixpath.join(folder, i)) for i in includes)
        return Declarations(path, PYTHON, tuple(requirements), resolved)
    except (ValueError, TypeError, SyntaxError, RecursionError, configparser.Error):
        return Declarations(path, NPM if name in _NPM_FILES else PYTHON, ())


def declared(files: Iterable[Declarations], package: str, ecosystem: str) -> Declared | None:
    """What the repository declares of `package` (PEP 503 name for Python, as written for npm):
    the versions every declaration of it admits together (each file constrains the one
    environment the repository installs into), or — when they admit none together, as in a
    repository holding several projects — the versions any of them admits. None: not declared."""
    key = normalise(package) if ecosystem == PYTHON else package
    found = [
        (f.path, r)
        for f in files
        if f.ecosystem == ecosystem
        for r in f.requirements
        if r.package == key
    ]
    if not found:
        return None
    together = EVERY
    for _, requirement in found:
        together = together.intersect(requirement.admits)
    if together.is_empty():
        together = Range(())
        for _, requirement in found:
            together = together.union(requirement.admits)
    where = tuple(f"{path}:{r.line} ({r.text})" for path, r in found)
    return Declared(together, where)


@dataclass(frozen=True)
class Declared:
    """A package's declared range across the repository, and where each declaration is."""

    admits: Range
    places: tuple[str, ...]  # "requirements.txt:4 (==2.4.0)", in file order

    def describe(self, limit: int = 3) -> str:
        shown = ", ".join(self.places[:limit])
        more = len(self.places) - limit
        return shown + (f" and {more} more" if more > 0 else "")


def normalise(name: str) -> str:
    """PEP 503's normalised project name (`Flask_SQLAlchemy` → `flask-sqlalchemy`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


# -- Python files ------------------------------------------------------------------------------

_PEP508 = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)")


def _pep508(text: str, line: int) -> Requirement | None:
    """A PEP 508 requirement (`Flask-SQLAlchemy[x]>=2,<3 ; python_version>'3'`)."""
    text = text.split(";", 1)[0].strip()
    match = _PEP508.fullmatch(text)
    if match is None:
        return None
    name, _, spec = match.groups()
    spec = spec.strip()
    if spec.startswith("@"):  # a direct reference (`name @ https://...`)
        return Requirement(normalise(name), EVERY, spec, line)
    spec = spec.strip("()").strip()
    return Requirement(normalise(name), pep440(spec) if spec else EVERY, spec or "*", line)


def _requirements_txt(text: str) -> tuple[list[Requirement], list[str]]:
    requirements: list[Requirement] = []
    includes: list[str] = []
    logical = ""
    first = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = re.sub(r"(^|\s)#.*", "", raw).rstrip()
        if not logical:
            first = number
        if line.endswith("\\"):
            logical += line[:-1] + " "
            continue
        logical += line
        entry, logical = logical.strip(), ""
        option = re.match(r"(-r|-c|--requirement|--constraint)(?:\s*=?\s*)(\S+)", entry)
        if option:
            includes.append(option.group(2))
            continue
        if not entry or entry.startswith("-"):
            egg = re.search(r"#egg=([A-Za-z0-9._-]+)", raw)
            if egg and entry.startswith(("-e", "--editable")):
                requirements.append(Requirement(normalise(egg.group(1)), EVERY, "editable", first))
            continue
        if "://" in entry.split("@")[0] or entry.startswith((".", "/")):
            egg = re.search(r"#egg=([A-Za-z0-9._-]+)", raw)
            if egg:
                requirements.append(Requirement(normalise(egg.group(1)), EVERY, "url", first))
            continue
        found = _pep508(entry.split(" --", 1)[0], first)
        if found is not None:
            requirements.append(found)
    return requirements, includes


def _strings_at(text: str, values: Iterable[object]) -> Iterator[Requirement]:
    """Requirements given as PEP 508 strings, each placed at the first line naming it."""
    lines = text.splitlines()
    for value in values:
        if isinstance(value, str):
            found = _pep508(value, _line_of(lines, value))
            if found is not None:
                yield found


def _line_of(lines: list[str], needle: str) -> int:
    head = re.split(r"[\s\[<>=!~;@(]", needle.strip(), maxsplit=1)[0]
    for number, line in enumerate(lines, 1):
        if head and head in line:
            return number
    return 1


def _python_toml(name: str, text: str) -> Iterator[Requirement]:
    data = tomllib.loads(text)
    lines = text.splitlines()
    if name == "Pipfile":
        for group in ("packages", "dev-packages"):
            yield from _table_of_constraints(lines, data.get(group), pep440)
        return
    project = data.get("project", {})
    if isinstance(project, dict):
        yield from _strings_at(text, _list(project.get("dependencies")))
        optional = project.get("optional-dependencies")
        if isinstance(optional, dict):
            for values in optional.values():
                yield from _strings_at(text, _list(values))
    groups = data.get("dependency-groups")  # PEP 735
    if isinstance(groups, dict):
        for values in groups.values():
            yield from _strings_at(text, _list(values))
    tool = data.get("tool", {}).get("poetry", {})
    if isinstance(tool, dict):
        yield from _table_of_constraints(lines, tool.get("dependencies"), poetry)
        yield from _table_of_constraints(lines, tool.get("dev-dependencies"), poetry)
        for members in _dict(tool.get("group")).values():
            yield from _table_of_constraints(lines, _dict(members).get("dependencies"), poetry)


def _table_of_constraints(
    lines: list[str], table: object, parse: Callable[[str], Range]
) -> Iterator[Requirement]:
    """`name = "^2.4"` / `name = {version = "..."}` (Poetry, Pipfile); a list of such tables
    (Poetry's multiple constraints) admits what any of them does."""
    for name, value in _dict(table).items():
        if name == "python":
            continue
        specs = [
            v if isinstance(v, str) else _dict(v).get("version", "*")
            for v in (value if isinstance(value, list) else [value])
        ]
        admits: Range | None = None
        for spec in specs:
            part = parse(spec) if isinstance(spec, str) else EVERY
            admits = part if admits is None else admits.union(part)
        text = " | ".join(s for s in specs if isinstance(s, str)) or "*"
        yield Requirement(normalise(name), admits or EVERY, text, _line_of(lines, name))


_LOCK_KEY = re.compile(r'(name|version)\s*=\s*"([^"]*)"')
_JSON_KEY = re.compile(r'^\s*"([^"]+)"\s*:\s*\{', re.MULTILINE)


def _python_lock(name: str, text: str) -> Iterator[Requirement]:
    """The pins of a lock file, in one pass over its lines (a `uv.lock` of a large project is
    over a megabyte: no TOML parse, no search per package)."""
    if name == "Pipfile.lock":
        data = json.loads(text)
        lines = _json_key_lines(text)
        for group in ("default", "develop"):
            for package, value in _dict(_dict(data).get(group)).items():
                version = _dict(value).get("version")
                if isinstance(version, str):
                    line = lines.get(package, 1)
                    yield Requirement(normalise(package), pep440(version), version, line)
        return
    yield from _toml_lock(text)


def _toml_lock(text: str) -> Iterator[Requirement]:
    """poetry.lock, uv.lock, pdm.lock: `[[package]]` tables, each with `name` and `version`."""
    package: str | None = None
    version: str | None = None
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("["):
            package, version = None, None
            start = number if stripped == "[[package]]" else 0
            continue
        if not start or (package is not None and version is not None):
            continue
        match = _LOCK_KEY.fullmatch(stripped)
        if match is None:
            continue
        if match.group(1) == "name":
            package = match.group(2)
        else:
            version = match.group(2)
        if package is not None and version is not None:
            parsed = parse_version(version)
            if parsed is not None:
                yield Requirement(normalise(package), exactly(parsed), version, start + 1)


def _setup_cfg(text: str) -> Iterator[Requirement]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    lines = text.splitlines()
    values: list[str] = []
    if parser.has_option("options", "install_requires"):
        values += parser.get("options", "install_requires").splitlines()
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            values += value.splitlines()
    for value in values:
        value = value.split("#", 1)[0].strip()
        if value:
            found = _pep508(value, _line_of(lines, value))
            if found is not None:
                yield found


def _setup_py(text: str) -> Iterator[Requirement]:
    """`setup(install_requires=[...], extras_require={...: [...]})` with literal lists, or a
    module-level name bound to one; anything computed (a file read at install time) is not."""
    tree = ast.parse(text)
    bound: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            bound.update((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            if keyword.arg not in ("install_requires", "extras_require", "requires"):
                continue
            value = keyword.value
            if isinstance(value, ast.Name):
                value = bound.get(value.id, value)
            lists = (
                [v for v in value.values if v is not None]
                if isinstance(value, ast.Dict)
                else [value]
            )
            for item in lists:
                if isinstance(item, ast.Name):
                    item = bound.get(item.id, item)
                if isinstance(item, ast.List | ast.Tuple):
                    for element in item.elts:
                        if isinstance(element, ast.Constant) and isinstance(element.value, str):
                            found = _pep508(element.value, element.lineno)
                            if found is not None:
                                yield found


# -- JavaScript files --------------------------------------------------------------------------

_NPM_GROUPS = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def _npm_file(name: str, text: str) -> Iterator[Requirement]:
    lines = text.splitlines()
    if name == "package.json":
        data = _dict(json.loads(text))
        for group in _NPM_GROUPS:
            for package, spec in _dict(data.get(group)).items():
                if isinstance(spec, str):
                    yield Requirement(package, semver(spec), spec, _line_of(lines, f'"{package}"'))
        return
    if name in ("package-lock.json", "npm-shrinkwrap.json"):
        yield from _package_lock(_json_key_lines(text), _dict(json.loads(text)))
    elif name == "yarn.lock":
        yield from _yarn_lock(lines)
    else:
        yield from _pnpm_lock(lines)


def _json_key_lines(text: str) -> dict[str, int]:
    """The line of each `"key": {` of a JSON text, in one pass (a lock file may be megabytes)."""
    lines: dict[str, int] = {}
    line, position = 1, 0
    for match in _JSON_KEY.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.setdefault(match.group(1), line)
    return lines


def _package_lock(lines: dict[str, int], data: dict[str, object]) -> Iterator[Requirement]:
    """Version 2/3's `packages` (each `node_modules/<name>` at any depth), else version 1's
    `dependencies` (top level)."""
    packages = _dict(data.get("packages"))
    if packages:
        for key, value in packages.items():
            _, marker, package = key.rpartition("node_modules/")
            version = _dict(value).get("version")
            if marker and isinstance(version, str) and (parsed := parse_version(version)):
                yield Requirement(package, exactly(parsed), version, lines.get(key, 1))
        return
    for package, value in _dict(data.get("dependencies")).items():
        version = _dict(value).get("version")
        if isinstance(version, str) and (parsed := parse_version(version)):
            yield Requirement(package, exactly(parsed), version, lines.get(package, 1))


_YARN_VERSION = re.compile(r"\s+version:?\s+\"?([^\"\s]+)\"?")


def _yarn_lock(lines: list[str]) -> Iterator[Requirement]:
    """Blocks headed `"name@range", name@range2:` (v1) or `"name@npm:range":` (berry), each with
    an indented `version`."""
    names: dict[str, None] = {}  # the block's packages, once each (a header may list 100,000)
    start = 0
    for number, line in enumerate(lines, 1):
        if line and not line[0].isspace() and line.rstrip().endswith(":") and "@" in line:
            names, start = {}, number
            for entry in line.rstrip()[:-1].split(","):
                entry = entry.strip().strip('"')
                package = entry[: entry.index("@", 1)] if "@" in entry[1:] else entry
                if package:
                    names[package] = None
        elif names and (match := _YARN_VERSION.match(line)):
            parsed = parse_version(match.group(1))
            if parsed is not None:
                for package in names:
                    yield Requirement(package, exactly(parsed), match.group(1), start)
            names = {}


_PNPM_PACKAGE = re.compile(r"\s+'?/?((?:@[^/\s@']+/)?[^/\s@':]+)[@/](\d+\.\d+\.\d+[^:('\s]*)")


def _pnpm_lock(lines: list[str]) -> Iterator[Requirement]:
    """Keys of its `packages:` (`/name@1.2.3:`, `/name/1.2.3:` in lockfile v5, `name@1.2.3:`)."""
    inside = False
    for number, line in enumerate(lines, 1):
        if line and not line[0].isspace():
            inside = line.startswith("packages:")
            continue
        if (
            inside
            and (match := _PNPM_PACKAGE.match(line))
            and (len(line) - len(line.lstrip())) == 2
        ):
            parsed = parse_version(match.group(2))
            if parsed is not None:
                yield Requirement(match.group(1), exactly(parsed), match.group(2), number)


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


# -- rules that changed between versions -------------------------------------------------------


def admitted_eras(found: Declared | None, starts: Sequence[Version]) -> tuple[int, ...]:
    """Which eras of a library the repository may install: era `i` is every version from
    `starts[i]` up to `starts[i + 1]` (`starts[0]` is `()`, the first version). Every era where
    the library is declared nowhere."""
    if found is None:
        return tuple(range(len(starts)))
    eras = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else None
        era = Range((Interval(normal(start) if start else None, True, end and normal(end), False),))
        if not found.admits.intersect(era).is_empty():
            eras.append(index)
    return tuple(eras) or tuple(range(len(starts)))


def by_version(
    library: str,
    subject: str,
    names: Sequence[str],
    starts: Sequence[Version],
    found: Declared | None,
) -> tuple[str, str | None]:
    """The name a version-dependent rule gives (`names[i]`: era `i`'s, see `admitted_eras`) and,
    where the eras the repository may install name it differently, a finding's detail naming
    each candidate with its versions: the newest admitted era's name is the one listed."""
    eras = admitted_eras(found, starts)
    chosen = names[eras[-1]]
    if len({names[i] for i in eras}) == 1:
        return chosen, None
    candidates: dict[str, list[str]] = {}
    first = 0
    for index, name in enumerate(names):  # adjacent eras naming alike are said as one
        if index + 1 == len(names) or names[index + 1] != name:
            candidates.setdefault(name, []).append(_era_label(starts, first, index))
            first = index + 1
    told = "; ".join(f"`{name}` {' and '.join(labels)}" for name, labels in candidates.items())
    said = (
        f"declares no version of {library}"
        if found is None
        else f"declares {library} as {found.describe()}, which admits more than one"
    )
    return chosen, f"{library} names {subject} {told}; the repository {said}: listed as `{chosen}`"


def _era_label(starts: Sequence[Version], first: int, last: int) -> str:
    """Eras `first` to `last` as versions: "before 3.0", "from 5.0 to before 6.6.3", "from 9.0"."""
    if first == 0 and last + 1 == len(starts):
        return "in every version"
    if first == 0:
        return f"before {_shown(starts[last + 1])}"
    if last + 1 == len(starts):
        return f"from {_shown(starts[first])}"
    return f"from {_shown(starts[first])} to before {_shown(starts[last + 1])}"


def _shown(version: Version) -> str:
    return ".".join(str(p) for p in (*version, 0)[: max(2, len(version))])
