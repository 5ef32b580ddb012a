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
every version: a version-dependent rule then says both names, never guesses. Pre-release and
post-release tags are read as their release (`3.0.0rc1` as `3.0.0`).
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

Version = tuple[int, ...]

PYTHON = "python"
NPM = "npm"

_PYTHON_LOCKS = frozenset({"poetry.lock", "uv.lock", "Pipfile.lock", "pdm.lock"})
_PYTHON_FILES = frozenset({"pyproject.toml", "Pipfile", "setup.cfg", "setup.py"}) | _PYTHON_LOCKS
_NPM_FILES = frozenset(
    {"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml"}
)
_REQUIREMENTS_NAME = re.compile(r"(?:.*[-_.])?(?:requirements|constraints)(?:[-_.].*)?\.(?:txt|in)")
_REQUIREMENTS_DIR = re.compile(r"(?:.*[-_.])?requirements(?:[-_.].*)?|reqs|requires")


@dataclass(frozen=True, order=True)
class Interval:
    """Versions from `low` to `high` (None: unbounded), each end included when `*_closed`."""

    low: Version | None
    low_closed: bool
    high: Version | None
    high_closed: bool

    def is_empty(self) -> bool:
        if self.low is None or self.high is None:
            return False
        return self.low > self.high or (
            self.low == self.high and not (self.low_closed and self.high_closed)
        )


ANY = (Interval(None, False, None, False),)


@dataclass(frozen=True)
class Range:
    """A union of intervals of versions: what a specifier admits."""

    intervals: tuple[Interval, ...]

    def intersect(self, other: Range) -> Range:
        found = []
        for a in self.intervals:
            for b in other.intervals:
                low, low_closed = _tighter_low(a, b)
                high, high_closed = _tighter_high(a, b)
                interval = Interval(low, low_closed, high, high_closed)
                if not interval.is_empty():
                    found.append(interval)
        return Range(tuple(sorted(set(found), key=_interval_key)))

    def union(self, other: Range) -> Range:
        return Range(tuple(sorted(set(self.intervals + other.intervals), key=_interval_key)))

    def is_empty(self) -> bool:
        return not self.intervals

    def admits_below(self, bound: Version) -> bool:
        """Whether some admitted version is lower than `bound`."""
        bound = _normal(bound)
        return any(i.low is None or i.low < bound for i in self.intervals)

    def admits_from(self, bound: Version) -> bool:
        """Whether some admitted version is `bound` or higher."""
        bound = _normal(bound)
        return any(
            i.high is None or i.high > bound or (i.high == bound and i.high_closed)
            for i in self.intervals
        )


EVERY = Range(ANY)


def _interval_key(i: Interval) -> tuple[object, ...]:
    return (i.low is not None, i.low or (), not i.low_closed, i.high is None, i.high or ())


def _tighter_low(a: Interval, b: Interval) -> tuple[Version | None, bool]:
    if a.low is None:
        return b.low, b.low_closed
    if b.low is None or a.low > b.low:
        return a.low, a.low_closed
    if b.low > a.low:
        return b.low, b.low_closed
    return a.low, a.low_closed and b.low_closed


def _tighter_high(a: Interval, b: Interval) -> tuple[Version | None, bool]:
    if a.high is None:
        return b.high, b.high_closed
    if b.high is None or a.high < b.high:
        return a.high, a.high_closed
    if b.high < a.high:
        return b.high, b.high_closed
    return a.high, a.high_closed and b.high_closed


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


# -- versions and specifiers -------------------------------------------------------------------

_VERSION = re.compile(r"\s*[vV]?=?\s*(\d+(?:\.\d+)*)")


def _normal(version: Version) -> Version:
    """Trailing zeros dropped, so `3` and `3.0.0` compare equal."""
    end = len(version)
    while end > 1 and version[end - 1] == 0:
        end -= 1
    return version[:end]


def parse_version(text: str) -> Version | None:
    """The release part of a version (`2.4.0rc1` → (2, 4)); None when it starts with none."""
    match = _VERSION.match(text)
    return _normal(tuple(int(p) for p in match.group(1).split("."))) if match else None


def _exactly(version: Version) -> Range:
    return Range((Interval(version, True, version, True),))


def _between(low: Version, high: Version) -> Range:
    return Range((Interval(_normal(low), True, _normal(high), False),))


def _bump(version: Version, index: int) -> Version:
    """`version` cut after `index` with that part raised by one (1.2.3, 0 → 2)."""
    padded = version + (0,) * (index + 1 - len(version))
    return (*padded[:index], padded[index] + 1)


_PEP440_CLAUSE = re.compile(r"\s*(===|==|!=|~=|>=|<=|>|<)\s*(\S+?)\s*$")


def pep440(spec: str) -> Range:
    """What a PEP 440 specifier (`>=2.0,<3`, `~=2.4`, `==2.*`) admits; `!=` and what cannot be
    read admit every version."""
    admits = EVERY
    for clause in spec.split(","):
        if clause.strip():
            admits = admits.intersect(_pep440_clause(clause))
    return admits


def _pep440_clause(clause: str) -> Range:
    match = _PEP440_CLAUSE.match(clause)
    if match is None:
        return EVERY
    op, text = match.groups()
    version = parse_version(text)
    if version is None or op == "!=":
        return EVERY
    if op in ("==", "===") and text.endswith(".*"):
        digits = tuple(int(p) for p in text[:-2].split(".") if p.isdigit())
        return _between(digits, _bump(digits, len(digits) - 1)) if digits else EVERY
    if op in ("==", "==="):
        return _exactly(version)
    if op == "~=":
        parts = _VERSION.match(text)
        count = len(parts.group(1).split(".")) if parts else 1
        return _between(version, _bump(version, max(count - 2, 0)))
    return _comparison(op, version)


def _comparison(op: str, version: Version) -> Range:
    if op == ">=":
        return Range((Interval(version, True, None, False),))
    if op == ">":
        return Range((Interval(version, False, None, False),))
    if op == "<=":
        return Range((Interval(None, False, version, True),))
    if op == "<":
        return Range((Interval(None, False, version, False),))
    return _exactly(version)


_SEMVER_PART = re.compile(r"\s*(\^|~>?|>=|<=|>|<|=)?\s*[vV]?([0-9xX*]+(?:\.[0-9xX*]+)*)")


def semver(spec: str) -> Range:
    """What an npm (or Poetry) range admits: `||` alternatives of space-separated comparators,
    `^`, `~`, `1.x`, `*`, `a - b`; Poetry's commas as spaces; `npm:pkg@range` aliases read as
    their range. What cannot be read (a URL, a path, a tag) admits every version."""
    spec = spec.strip()
    if spec.startswith("npm:"):
        spec = spec.rpartition("@")[2]
    admits: Range | None = None
    for alternative in spec.split("||"):
        part = _semver_set(alternative.replace(",", " "))
        admits = part if admits is None else admits.union(part)
    return admits if admits is not None else EVERY


def _semver_set(text: str) -> Range:
    text = text.strip()
    if not text or text in ("*", "latest", "x", "X"):
        return EVERY
    hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", text)
    if hyphen:
        low, high = (_partial(p) for p in hyphen.groups())
        if low is None or high is None:
            return EVERY
        top = Range((Interval(None, False, _normal(high[0]), True),))
        if len(high[0]) < high[1]:  # `1 - 2` admits every 2.x
            top = Range((Interval(None, False, _bump(high[0], len(high[0]) - 1), False),))
        return Range((Interval(_normal(low[0]), True, None, False),)).intersect(top)
    admits = EVERY
    position = 0
    while position < len(text):
        match = _SEMVER_PART.match(text, position)
        if match is None or match.end() == position:
            return EVERY  # a URL, a path, a dist-tag
        position = match.end()
        admits = admits.intersect(_semver_comparator(match.group(1) or "", match.group(2)))
    return admits


def _partial(text: str) -> tuple[Version, int] | None:
    """The digits given before any wildcard, and how many parts the full form has (3)."""
    parts = text.lstrip("vV=").split(".")
    digits: list[int] = []
    for part in parts:
        if not part.isdigit():
            break
        digits.append(int(part))
    return (tuple(digits), 3) if digits or parts[0] in ("*", "x", "X") else None


def _semver_comparator(op: str, text: str) -> Range:
    partial = _partial(text)
    if partial is None:
        return EVERY
    digits = partial[0]
    if not digits:
        return EVERY  # `*`, `x`
    if op == "^":
        nonzero = next((i for i, d in enumerate(digits) if d != 0), len(digits) - 1)
        return _between(digits, _bump(digits, nonzero))
    if op.startswith("~"):
        return _between(digits, _bump(digits, min(1, len(digits) - 1)))
    if op in ("", "="):
        if len(digits) < 3:  # `1.2` is `1.2.x`
            return _between(digits, _bump(digits, len(digits) - 1))
        return _exactly(_normal(digits))
    if len(digits) < 3 and op in (">", "<="):  # `>1.2` is `>=1.3`, `<=1.2` is `<1.3`
        bumped = _bump(digits, len(digits) - 1)
        return _comparison(">=" if op == ">" else "<", bumped)
    return _comparison(op, _normal(digits))


def _poetry(spec: str) -> Range:
    """A Poetry constraint: npm-like (`^2.4`, `~2.4`, `2.*`, `>=2,<3`, `2.4.0`, `||`), or PEP
    440 where it uses an operator only PEP 440 has (`==`, `!=`, `~=`)."""
    if re.search(r"==|!=|~=", spec):
        return pep440(spec)
    return semver(spec)


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
    poetry = data.get("tool", {}).get("poetry", {})
    if isinstance(poetry, dict):
        yield from _table_of_constraints(lines, poetry.get("dependencies"), _poetry)
        yield from _table_of_constraints(lines, poetry.get("dev-dependencies"), _poetry)
        for members in _dict(poetry.get("group")).values():
            yield from _table_of_constraints(lines, _dict(members).get("dependencies"), _poetry)


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
                yield Requirement(normalise(package), _exactly(parsed), version, start + 1)


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
                yield Requirement(package, _exactly(parsed), version, lines.get(key, 1))
        return
    for package, value in _dict(data.get("dependencies")).items():
        version = _dict(value).get("version")
        if isinstance(version, str) and (parsed := parse_version(version)):
            yield Requirement(package, _exactly(parsed), version, lines.get(package, 1))


_YARN_VERSION = re.compile(r"\s+version:?\s+\"?([^\"\s]+)\"?")


def _yarn_lock(lines: list[str]) -> Iterator[Requirement]:
    """Blocks headed `"name@range", name@range2:` (v1) or `"name@npm:range":` (berry), each with
    an indented `version`."""
    names: list[str] = []
    start = 0
    for number, line in enumerate(lines, 1):
        if line and not line[0].isspace() and line.rstrip().endswith(":") and "@" in line:
            names, start = [], number
            for entry in line.rstrip()[:-1].split(","):
                entry = entry.strip().strip('"')
                package = entry[: entry.index("@", 1)] if "@" in entry[1:] else entry
                if package and package not in names:
                    names.append(package)
        elif names and (match := _YARN_VERSION.match(line)):
            parsed = parse_version(match.group(1))
            if parsed is not None:
                for package in names:
                    yield Requirement(package, _exactly(parsed), match.group(1), start)
            names = []


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
                yield Requirement(match.group(1), _exactly(parsed), match.group(2), number)


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
        era = Range(
            (Interval(_normal(start) if start else None, True, end and _normal(end), False),)
        )
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
