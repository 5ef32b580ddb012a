"""Which Python files a pack must parse: a byte-level pre-filter plus the links between files.

`ast.parse` is most of a cold discover, and most files of a large repository cannot declare a
table: a file that mentions none of a pack's keywords (`Column`, `models`, `__tablename__`…)
declares nothing of its own. But the linker follows names across files, so a file is also
parsed when a declaration may depend on it or it on one:

- forward, on demand: a parsed file's names that the linker resolves are followed as it
  resolves them (`pymodules.Modules`: an import to the longest dotted prefix that is a module of
  the repository, a module-level assignment to what it assigns, a star import to its source),
  and the module each lands in is parsed. Which names: with `follow="names"` (pack-django) the
  class bases and the callees of assignments (`name = models.CharField(...)`, `Base =
  declarative_base(cls=Mixin)`) — what that linker resolves; with `follow="imports"`
  (pack-sqlalchemy, whose linker also evaluates imported functions) every imported name and
  class base.
  A module only imported for a helper the linker never looks at is not parsed;
- backward, from the files parsed for their classes (a seed — a keyword of the pack's that
  makes a class a declaration: a base ending in `Model`, a Django field, and what is reached
  this way; not a file parsed only for a name): a file one of whose class bases lands in one
  (the linker's first step, also through the file's own `Base = Animal`), or that
  star-imports one and has a class with a base there (Django's multi-table inheritance makes
  a table of `class Dog(Animal): pass`, keywords or not); and a module some class base is
  taken from that binds that name from one (a re-export, `from .animals import Animal as
  Beast`, `Beast = Animal`, a star import), down every step of a chain of re-exports;

until nothing changes. Imports, class bases and assignments are found on bytes (anywhere in
the file, so a guarded or nested one counts too; an assignment binds before an import, as in
`Modules.resolve`, so both are followed): over-inclusion costs time only. Every pattern
starts with a literal (`from`, `import`, `class`), which `re` finds with a fast scan instead
of trying every position; assignments are looked for only in files already chosen, and the
imports of a file with no class only when it is chosen or re-exports a base. What is not
parsed gives nothing, as it would have given nothing parsed; a syntax error in it is not
reported, parsed or not (`Scanner`: a pack reports `parse-error` only for the files its
pre-filter admits). Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .computed_names import HELPER_NAME
from .pymodules import ModuleIndex, absolute, package_of, packages_of

_FROM = re.compile(rb"from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)")
_FROM_HEAD = re.compile(rb"from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*")
_TO_STATEMENT_END = re.compile(rb"[^\n#;]*")
_IMPORT = re.compile(rb"import[ \t]+([^\n#;]+)")
_IMPORT_MODULE = re.compile(rb"import_module\([ \t]*[\"']([\w.]+)[\"']")  # importlib's, a literal
_CLASS = re.compile(rb"class[ \t]+(\w+)[ \t]*\(((?:[^()]|\([^()]*\))*)\)")
_BRACKET = re.compile(rb"[()\[\]{}]")
_NAME = re.compile(rb"[A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*")
_ALIAS = re.compile(rb"([A-Za-z_][\w.]*)(?:[ \t]+as[ \t]+([A-Za-z_]\w*))?")
_ASSIGN = re.compile(
    rb"^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=)[ \t]*"
    rb"((?:[A-Za-z_]\w*[ \t]*=(?!=)[ \t]*)*)"  # the other targets of `a = b = value`
    rb"([A-Za-z_][\w.]*)(?:[ \t]*\(((?:[^()]|\([^()]*\))*)\))?",
    re.M,
)
_TARGET = re.compile(rb"[A-Za-z_]\w*")

Follow = Literal["names", "imports", "declarations"]
_DEF = re.compile(rb"def[ \t]+([A-Za-z_]\w*)")


@dataclass(frozen=True)
class ByteFacts:
    """What the bytes of one file say: a keyword hit, what each imported name may be bound to
    (absolute dotted targets, every binding the file makes), the modules it star-imports,
    the dotted bases of its classes as written, and every module its `import a.b.c`
    statements name (a use `a.b.c.X` may land in any prefix)."""

    hit: bool
    imports: tuple[tuple[str, tuple[str, ...]], ...]
    stars: tuple[str, ...]
    bases: tuple[str, ...]
    modules: tuple[str, ...] = ()
    classes: frozenset[str] = frozenset()
    links: bool = False
    exports: bool = False  # the file names `__all__`
    fields: tuple[str, ...] = ()  # what the callees of `Fields` calls are imported as
    own: frozenset[str] = frozenset()  # classes at the start of a line: the module's own
    aliases: tuple[tuple[str, tuple[str, ...]], ...] = ()  # base heads assigned (`Base = A`)
    partial: bool = False  # imports not read yet (`byte_facts(..., complete=True)` reads them)

    def bound(self) -> dict[str, tuple[str, ...]]:
        return dict(self.imports)


@dataclass(frozen=True)
class Assignments:
    """A chosen file's assignments, found on bytes: name → the dotted names its value holds
    (the target or callee first, then names in the call's arguments, e.g. `cls=`), and every
    callee assigned (model fields, `declarative_base()`)."""

    values: dict[str, tuple[str, ...]]
    callees: tuple[str, ...]
    functions: frozenset[str] = frozenset()  # every `def name` (methods too)


@dataclass(frozen=True)
class Fields:
    """Calls a class may hold that make it look like a declaration to the linker (Django:
    `name = models.CharField()` below an unknown base is an `UNKNOWN_MODEL_BASE`): callees
    whose last part ends with one of `suffixes`, imported from below `module`. A file with a
    class with a base and such a call is parsed; one whose call is imported from a module of
    the repository too when that module may pass on one from below `module` (an import or an
    assignment of the name, or a star import there: a re-export of the fields). A name no
    statement of that module binds is its own class or nothing: no field to the linker
    (a GraphQL schema's types call a `graphene.Field` subclass of the repository in files that
    declare no table)."""

    suffixes: tuple[str, ...]
    module: str


_CALL = re.compile(rb"[ \t]*\(")
_STATEMENT = re.compile(rb"[ \t]*[A-Za-z_]\w*[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_][\w.]*)[ \t]*\(")


def _callees(data: bytes, suffixes: Sequence[str]) -> list[str]:
    """The dotted callees in `data` whose last part ends with one of `suffixes`, where the
    call is the value of an assignment statement (`name = models.CharField(`): its line starts
    with the assignment, and the line before (blank lines and comments aside) does not end
    inside brackets — with `(`, `[`, `{` or `,` — as a keyword argument's line does
    (`field=models.CharField(` in a migration's operations)."""
    found: list[str] = []
    for suffix in {s.encode() for s in suffixes}:
        end = data.find(suffix)
        line_end = -1  # where the line of the last call looked at ends
        statement: re.Match[bytes] | None = None  # that line's assignment, if it is one
        while end >= 0:
            if _CALL.match(data, end + len(suffix)) is None:  # not a call: no statement's
                end = data.find(suffix, end + 1)
                continue
            if end > line_end:  # a new line: its start and statement are looked for once
                line = data.rfind(b"\n", 0, end) + 1
                line_end = _find(data, b"\n", end)
                statement = _STATEMENT.match(data, line)
                if statement is not None and _continues(data, line):
                    statement = None
            if statement is not None and statement.end(1) == end + len(suffix):
                found.append(statement.group(1).decode("ascii", "replace"))
            end = data.find(suffix, end + 1)
    return list(dict.fromkeys(found))


def _continues(data: bytes, line: int) -> bool:
    """Whether the line starting at `line` continues an open bracket of the lines before."""
    while line > 0:
        start = data.rfind(b"\n", 0, line - 1) + 1
        text = data[start : line - 1].strip()
        line = start
        if text and not text.startswith(b"#"):
            return text.endswith((b"(", b"[", b"{", b","))
    return False


@dataclass(frozen=True)
class Word:
    """A keyword: `word` as a whole word, followed by what `after` matches (`db_table`, then
    `[ \t]*=(?!=)`). Found where `bytes.find` finds the word, by a match there: a search for
    a pattern that starts with `\b` tries every position of the file (about twenty times the
    cost on a large repository, where most files do not hold the word at all)."""

    word: bytes
    after: bytes = b""
    pattern: re.Pattern[bytes] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # every match starts at an occurrence of the word, so matching there finds them all
        pattern = re.compile(rb"\b" + re.escape(self.word) + rb"(?:" + self.after + rb")")
        object.__setattr__(self, "pattern", pattern)

    def found_in(self, data: bytes) -> bool:
        start = data.find(self.word)
        while start >= 0:
            if self.pattern.match(data, start) is not None:
                return True
            start = data.find(self.word, start + 1)
        return False


Keyword = bytes | Word
"""A pre-filter keyword: bytes a file must hold, or a `Word`."""


def _holds(data: bytes, keyword: Keyword) -> bool:
    return keyword in data if isinstance(keyword, bytes) else keyword.found_in(data)


def byte_facts(
    path: str,
    data: bytes,
    keywords: Sequence[Keyword],
    base_keywords: Sequence[str] = (),
    fields: Fields | None = None,
    complete: bool = False,
) -> ByteFacts:
    """`keywords`: a file naming one is parsed. `base_keywords`: a file with a class whose base,
    as written or as its import names it, holds one is parsed (`models.Model`, an `AbstractUser`
    from `django.contrib.auth.models`: finer than a file-level `models`, which views name too)."""
    hit = any(_holds(data, keyword) for keyword in keywords)
    links = False  # a keyword alone (`db_table`) makes no class a model's base
    found = _classes(data)
    declared = [(n.decode("ascii", "replace"), _bases(listed)) for n, listed, _ in found]
    own = frozenset(n.decode("ascii", "replace") for n, _, top in found if top)
    if not any(bases for _, bases in declared) and (not complete or b"import" not in data):
        # no class with a base: its imports matter only if it is chosen or re-exports a base
        # (`needed` asks for them then); half the files of a large repository, most of its bytes
        return ByteFacts(
            hit,
            (),
            (),
            (),
            classes=frozenset(name for name, _ in declared),
            exports=b"__all__" in data,
            partial=b"import" in data,
            own=own,
        )
    package = package_of(path)
    local: dict[str, list[str]] = {}  # a name bound by an import -> what it may name, dotted
    stars: list[str] = []
    modules: list[str] = []
    for level, module, imported in _from_findall(data):
        base = absolute(module.decode("ascii", "replace"), len(level), package)
        if imported.strip().startswith(b"*"):
            if base:
                stars.append(base)
            continue
        for name, alias in _ALIAS.findall(imported.replace(b"\\\n", b" ")):
            text = name.decode("ascii", "replace")
            target = f"{base}.{text}" if base else text
            local.setdefault((alias or name).decode("ascii", "replace"), []).append(target)
    for match in _IMPORT.finditer(data):
        if not _starts_line(data, match.start()):
            continue  # the `import` of a `from` line, or one in a sentence
        for name, alias in _ALIAS.findall(match.group(1)):
            text = name.decode("ascii", "replace")
            bound = alias.decode("ascii") if alias else text.partition(".")[0]
            local.setdefault(bound, []).append(text if alias else bound)
            modules.append(text)
    # `importlib.import_module("pkg.settings_class")`: the linker's evaluator may import it
    modules += (m.decode("ascii", "replace") for m in _IMPORT_MODULE.findall(data))
    bases: list[str] = []
    classes: list[str] = []
    known = frozenset(base_keywords)  # looked up once per base and import it is bound to
    aliases: dict[str, tuple[str, ...]] = {}
    assigned: Assignments | None = None  # read once, for the first base head the file assigns
    may_assign: AssignedNames | None = None  # made when first asked: most files never are
    for name, written_bases in declared:
        classes.append(name)
        for written in written_bases:
            bases.append(written)
            head, dot, _ = written.partition(".")
            aliased: tuple[str, ...] = ()
            if (dot or head not in classes) and head in (
                may_assign := may_assign or AssignedNames(data)
            ):
                # the linker takes a class of the file first; else its assignment of the name
                assigned = assigned or assignments(data)
                aliased = _alias_chain(assigned, head)
                if aliased:
                    aliases.setdefault(head, aliased)
            if not links and base_keywords:
                # an assignment binds before an import (`Modules.resolve`): both may hold
                names = {**local, head: [*local.get(head, ()), *aliased]} if aliased else local
                # what the file assigns is in turn named by its imports (`from django.db.models
                # import Model as M`, `B = M`: the base `B` is Django's `Model`)
                if _names_keyword(written, names, known, stars) or any(
                    _names_keyword(value, local, known, stars) for value in aliased
                ):
                    hit = links = True
    field_names: list[str] = []
    if fields is not None and bases:
        for callee in _callees(data, fields.suffixes):
            head, _, rest = callee.partition(".")
            named = [f"{t}.{rest}" if rest else t for t in local.get(head, ())]
            if head not in local:
                named += (f"{source}.{callee}" for source in stars)
            field_names += named
            if any(n.startswith(fields.module) for n in named) or (
                head not in local and head in (may_assign := may_assign or AssignedNames(data))
            ):  # `CharField = models.CharField` here: followed once parsed
                hit = links = True  # its fields pass on to subclasses
    return ByteFacts(
        hit,
        tuple((name, tuple(dict.fromkeys(targets))) for name, targets in sorted(local.items())),
        tuple(dict.fromkeys(stars)),
        tuple(dict.fromkeys(bases)),
        tuple(dict.fromkeys(modules)),
        frozenset(classes),
        links,
        b"__all__" in data,
        tuple(dict.fromkeys(field_names)),
        own=own,
        aliases=tuple(aliases.items()),
    )


MAX_ALIASES = 256
"""How many names `_alias_chain` makes of one name: the bytes' assignments are every `x = ...`
of the file, functions' locals included, so names assigned several values that name each other
(`sg = server.group`, `server = sg.owner`, …) made chains that doubled at every hop: pgadmin4's
pack-sqlalchemy and pack-django spent their 60 CPU-seconds in one file's. A real alias chain is
a hop or two long, and the shortest are found first."""


def _alias_chain(assigned: Assignments, head: str, hops: int = 8) -> tuple[str, ...]:
    """What the file's own assignments make of `head`, followed as the linker follows them
    (`Fld = models.Model`, `B = Fld`: `B` is `Fld` and `models.Model`), at most `hops` deep
    and `MAX_ALIASES` names, nearest first."""
    found = dict.fromkeys(assigned.values.get(head, ()))
    frontier = list(found)
    for _ in range(hops):
        step = []
        for value in frontier:
            first, dot, rest = value.partition(".")
            if first == head:
                continue
            for further in assigned.values.get(first, ()):
                full = further + dot + rest
                if full not in found:
                    if len(found) == MAX_ALIASES:
                        return tuple(found)
                    found[full] = None
                    step.append(full)
        if not step:
            break
        frontier = step
    return tuple(found)


def _from_findall(data: bytes) -> list[tuple[bytes, bytes, bytes]]:
    r"""`_FROM.findall(data)` in time linear in the file: the pattern's `\([^)]*\)` looks for a
    `)` from every `from … import (` and fails at the end of a file that has none left, once per
    such statement; here the next `)` is found once and kept while the statements move on."""
    found: list[tuple[bytes, bytes, bytes]] = []
    close = -1  # the first `)` at or after the last `(` looked at; len(data): none
    start = 0
    while (head := _FROM_HEAD.search(data, start)) is not None:
        after = head.end()
        if data[after : after + 1] == b"(":
            if close < after:
                close = _find(data, b")", after)
            if close < len(data):
                found.append((head[1], head[2], data[after : close + 1]))
                start = close + 1
                continue
        end = _TO_STATEMENT_END.match(data, after)
        assert end is not None  # `*`: it matches, empty or not
        found.append((head[1], head[2], end[0]))
        start = end.end()
    return found


def _classes(data: bytes) -> list[tuple[bytes, bytes, bool]]:
    """`(name, bases as listed, at the start of a line)` of the classes with a parenthesised
    list in `data`."""
    if b"class" not in data:
        return []
    return [
        (m[1], m[2], m.start() == 0 or data[m.start() - 1] == 0x0A) for m in _CLASS.finditer(data)
    ]


def _bases(listed: bytes) -> list[str]:
    """The bases the linker reads in a class's parenthesised list (`pymodules.dotted`): each
    item at the top level that is a dotted name, or a call's dotted callee; a subscript
    (`Generic[T]`, `Base[int]`) is what it subscripts, as the linker reads it (its
    `__mro_entries__`); a keyword (`metaclass=`) is none."""
    # the usual list has no brackets: every comma is at the top level
    items = _top_level_items(listed) if _BRACKET.search(listed) else listed.split(b",")
    found = []
    for item in items:
        match = _NAME.match(item.strip())
        if match is None:
            continue
        after = item.strip()[match.end() :].lstrip()
        if after.startswith(b"=") and not after.startswith(b"=="):
            continue
        found.append(match.group(0).decode("ascii", "replace").replace(" ", "").replace("\t", ""))
    return found


def _top_level_items(listed: bytes) -> list[bytes]:
    """`listed` cut at its commas outside brackets."""
    items: list[bytes] = []
    depth = 0
    start = 0
    for index, byte in enumerate(listed):
        if byte in b"([{":
            depth += 1
        elif byte in b")]}":
            depth -= 1
        elif byte == 0x2C and depth == 0:  # a comma
            items.append(listed[start:index])
            start = index + 1
    items.append(listed[start:])
    return items


def _names_keyword(
    written: str,
    local: Mapping[str, Sequence[str]],
    base_keywords: Collection[str],
    stars: Sequence[str] = (),
) -> bool:
    """Whether the dotted base `written`, or what its import (or a star import) names it, is
    one of `base_keywords`: a dotted keyword is a full name (`django.contrib.auth.models.User`),
    a plain one a last part (`Model`: `models.Model`, `db.Model`), one ending in `.` the last
    part of its module outside Django's own (`models.`: `wagtail.models.Page`; Django's are
    matched by name). Not any part: `django.forms.models.ModelForm` is no model. A base
    reached through the repository's own modules is the backward links' business (`needed`).
    A keyword `!module.` names a library whose classes are never the pack's bases (`!django.`
    for pack-sqlalchemy: Django's `models.Model` is no `db.Model`): a base whose head the
    file's imports bind to that library alone holds none."""
    head, _, rest = written.partition(".")
    targets = local.get(head, ())
    if targets and any(k[:1] == "!" for k in base_keywords):
        foreign = tuple(k[1:] for k in base_keywords if k[:1] == "!")
        if all(t.startswith(foreign) for t in targets):
            return False
    named = [written, *(f"{t}.{rest}" if rest else t for t in targets)]
    if head not in local:
        named += (f"{source}.{written}" for source in stars)
    return any(
        n in base_keywords
        or n.rpartition(".")[2] in base_keywords
        or (
            n.rpartition(".")[0].rpartition(".")[2] + "." in base_keywords
            and not n.startswith("django.")
        )
        for n in named
    )


def assignments(data: bytes) -> Assignments:
    """`Assignments` of a file's bytes (any indentation: over-inclusion costs time only)."""
    values: dict[str, list[str]] = {}
    callees: list[str] = []
    for name, chained, value, arguments in _assign_findall(data):
        names = [value.decode("ascii", "replace")]
        if arguments is not None:  # a call, `f()` too
            callees.append(names[0])
            names += (n.decode("ascii", "replace") for n in _NAME.findall(arguments))
        for target in (name, *_TARGET.findall(chained)):  # each bound to the value
            values.setdefault(target.decode("ascii", "replace"), []).extend(names)
    return Assignments(
        {k: tuple(dict.fromkeys(v)) for k, v in values.items()},
        tuple(dict.fromkeys(callees)),
        frozenset(n.decode("ascii", "replace") for n in _DEF.findall(data)),
    )


def _assign_findall(data: bytes) -> list[tuple[bytes, bytes, bytes, bytes | None]]:
    """The groups of `_ASSIGN.finditer(data)` (the arguments: None when no call), trying only
    the lines that hold a `=` (a match's `=` is on the line it starts), in order and never
    inside the last match (a call's arguments may span lines), as `finditer` does: a pattern
    anchored with `^` is tried at every position of the file, and most lines of a model file
    assign nothing."""
    found: list[tuple[bytes, bytes, bytes, bytes | None]] = []
    done = 0  # where the last match ended
    equals = data.find(b"=")
    while equals >= 0:
        line = data.rfind(b"\n", 0, equals) + 1
        match = _ASSIGN.match(data, line) if line >= done else None
        if match is not None:
            name, chained, value, arguments = match.groups()
            found.append((name, chained, value, arguments))
            done = match.end()
            equals = data.find(b"=", done)
            continue
        end = data.find(b"\n", equals)
        equals = data.find(b"=", end) if end >= 0 else -1
    return found


def needed(
    facts: Mapping[str, ByteFacts],
    assigned: Callable[[str], Assignments],
    follow: Follow = "names",
    base_keywords: Sequence[str] = (),
    complete: Callable[[str], ByteFacts] | None = None,
    fields: Fields | None = None,
    assigns: Callable[[str, str], bool] | None = None,
    packages: Collection[str] | None = None,
) -> set[str]:
    """The paths to parse: the keyword hits and everything linked to them, as described above.
    `facts` in the order the linker sees the files (UTF-8 byte order of path); `assigned(path)`
    reads a chosen file's assignments; `complete(path)` the facts of a `partial` one;
    `assigns(path, name)` whether a file may assign a name (`assigns_name`); `packages` the
    folders that are packages (`pymodules.packages_of` every file of the walk; by default, of
    `facts`' paths)."""
    index = _ModuleIndex(facts, packages_of(facts) if packages is None else packages)
    completed: dict[str, ByteFacts] = {}
    bounds: dict[str, dict[str, tuple[str, ...]]] = {}

    def info(path: str) -> ByteFacts:
        f = facts[path]
        if not f.partial or complete is None:
            return f
        if path not in completed:
            completed[path] = complete(path)
        return completed[path]

    def bound(path: str) -> dict[str, tuple[str, ...]]:
        if path not in bounds:
            bounds[path] = info(path).bound()
        return bounds[path]

    cache: dict[str, Assignments] = {}

    def assigned_once(path: str) -> Assignments:
        if path not in cache:
            cache[path] = assigned(path)
        return cache[path]

    def may_assign(path: str, name: str) -> bool:
        """Whether `path` may bind `name` by an assignment."""
        if assigns is None:
            return name in assigned_once(path).values
        return assigns(path, name)

    backward: dict[str, set[str]] = {}  # a file -> those whose classes may subclass from it
    base_names: set[tuple[str, str]] = set()  # (a module, the name a class base takes from it)
    for path, f in facts.items():
        aliases = dict(f.aliases)
        for base in f.bases:
            for target, name in index.first_step(bound(path), f.stars, f.classes, base, aliases):
                backward.setdefault(target, set()).add(path)
                base_names.add((target, name))
    seeds: list[str] = [path for path, f in facts.items() if f.links]
    # a re-export (`from .animals import Animal as Beast`, `Beast = Animal`, a star import):
    # the module is linked to where the name comes from, as a class of it would be, and so on
    # down the chain of re-exports
    todo = sorted(base_names, reverse=True)
    while todo:
        path, name = todo.pop()
        head, _, rest = name.partition(".")
        suffix = f".{rest}" if rest else ""
        f = info(path)
        if head in f.own and not rest:
            continue  # the module's own class: the linker stops here
        written = [w + suffix for w in bound(path).get(head, ())]
        further = {landed for w in written if (landed := index.land_at(w))}
        if suffix:  # a package's own attribute first (`from pkg import db`, then `db.Model`)
            further |= {
                (at[0], at[1] + suffix)
                for w in bound(path).get(head, ())
                if (at := index.land_at(w))
            }
        if may_assign(path, head):  # an assignment binds before an import: both may
            values = assigned_once(path).values.get(head, ())
            values = tuple(v + suffix if n == 0 else v for n, v in enumerate(values))
            written += values
            further.update((path, v) for v in values if v != name)  # names of this module
        further.update((m, name) for s in f.stars if (m := index.find(s)))
        for step in further:
            backward.setdefault(step[0], set()).add(path)
            if step not in base_names:
                base_names.add(step)
                todo.append(step)
        keyword = (_names_keyword(w, bound(path), base_keywords, f.stars) for w in written)
        if base_keywords and any(keyword):
            seeds.append(path)  # `from django.db.models import Model as Base`
    field_callees = fields.suffixes if fields is not None else ()
    chosen: set[str] = set()
    reached: set[str] = set()  # chosen for what its classes may be, not for a name only
    pending: list[str] = []
    linked: list[str] = []
    resolved: set[tuple[str, str]] = set()

    whole: set[str] = set()  # "declarations": the files whose every import is followed

    def choose(path: str) -> None:
        if path not in chosen:
            chosen.add(path)
            pending.append(path)

    def follow_whole(path: str) -> None:
        choose(path)
        if path not in whole:
            whole.add(path)
            pending.append(path)  # again, if it was read for a name only

    def reach(path: str) -> None:
        if follow == "declarations":
            follow_whole(path)
        choose(path)
        if path not in reached:
            reached.add(path)
            linked.append(path)

    def resolve(path: str, name: str, depth: int = 0) -> None:
        """Follow `name` from `path` the ways `Modules.resolve` may, choosing where it lands."""
        if depth > 32 or (path, name) in resolved:
            return
        resolved.add((path, name))
        head, _, rest = name.partition(".")
        suffix = f".{rest}" if rest else ""
        for target in bound(path).get(head, ()):
            landed = index.land_at(target + suffix)
            if landed is not None:
                choose(landed[0])
                helper = landed[1].partition(".")[0]
                if (
                    follow == "declarations"
                    and HELPER_NAME.search(helper)
                    and (
                        helper in assigned_once(landed[0]).functions
                        or helper in assigned_once(landed[0]).values
                    )
                ):
                    # a table-name helper or a settings object (`settings = get_settings()`):
                    # what it calls or reads may be too
                    follow_whole(landed[0])
                resolve(landed[0], landed[1], depth + 1)
            attribute = index.land_at(target) if suffix else None
            if attribute is not None and attribute != landed:  # `from pkg import db`: pkg's own
                choose(attribute[0])
                resolve(attribute[0], attribute[1] + suffix, depth + 1)
        if head not in info(path).classes:
            values = assigned_once(path).values.get(head, ())
            for number, value in enumerate(values):
                resolve(path, value + suffix if number == 0 else value, depth + 1)
                resolve(path, value, depth + 1)
        for source in reversed(info(path).stars):  # the last that binds it wins, as in Python
            found = index.find(source)
            if found is not None:
                choose(found)
                resolve(found, name, depth + 1)
                if _binds(info(found), head):
                    break

    def may_be_outside(full: str, prefix: str, depth: int = 0) -> bool:
        """Whether the absolute dotted `full` may resolve, as `Modules.resolve` does, to a name
        outside the repository that starts with `prefix`. In a module of the repository, its
        own class is that class before any other binding; a name no import, assignment or
        star import binds there is nothing of `prefix`'s."""
        landed = index.land_at(full)
        if landed is None:
            return full.startswith(prefix)
        path, name = landed
        head, _, rest = name.partition(".")
        if not rest and head in info(path).own:
            return False
        if depth > 32 or info(path).stars or may_assign(path, head):
            return True
        suffix = f".{rest}" if rest else ""
        return any(may_be_outside(t + suffix, prefix, depth + 1) for t in bound(path).get(head, ()))

    for path in seeds:
        reach(path)
    for path, f in facts.items():
        if fields is not None and any(may_be_outside(n, fields.module) for n in f.fields):
            reach(path)  # a field of the repository's: it may be Django's, re-exported
        elif f.hit:
            choose(path)
            if follow == "declarations":
                follow_whole(path)
    while pending or linked:
        while pending:
            path = pending.pop()
            f = info(path)
            if follow == "imports" or (follow == "declarations" and path in whole):
                reach(path)  # every import followed: anything chosen may be a base
                for name in (*bound(path), *f.bases):  # a dotted base, `pkg.a.Base`, too
                    resolve(path, name)
                for targets in bound(path).values():  # `from . import plain`: a submodule
                    for target in targets:
                        if (found := index.find(target)) is not None:
                            choose(found)
                for module in (*f.modules, *f.stars):
                    for prefix in _prefixes(module):
                        if (found := index.find(prefix)) is not None:
                            choose(found)
            else:
                for base in f.bases:
                    resolve(path, base)
                for callee in assigned_once(path).callees:  # those the reader keeps (`fields`)
                    if callee.rpartition(".")[2].endswith(field_callees):
                        resolve(path, callee)
        while linked:
            for other in backward.get(linked.pop(), ()):
                reach(other)
    return chosen


class _ModuleIndex(ModuleIndex[str]):
    """Module names to files by the linker's own resolver (`pymodules.ModuleIndex`) over all
    the files, so a file chosen here is the one the linker lands in when it sees every file."""

    def __init__(self, paths: Mapping[str, object], packages: Collection[str]) -> None:
        super().__init__(((path, path) for path in paths), packages)

    def first_step(
        self,
        bound: Mapping[str, tuple[str, ...]],
        stars: Sequence[str],
        classes: frozenset[str],
        base: str,
        aliases: Mapping[str, tuple[str, ...]] | None = None,
        depth: int = 0,
    ) -> set[tuple[str, str]]:
        """Where the linker's first step from a class base may land: (module, name in it),
        also through the file's own assignments of its head (`Base = A`: where `A` lands)."""
        head, _, rest = base.partition(".")
        suffix = f".{rest}" if rest else ""
        found = {m for t in bound.get(head, ()) if (m := self.land_at(t + suffix))}
        if suffix:  # `from pkg import db` then `db.Model`: pkg's own `db` (`Modules.resolve`)
            found |= {(m[0], m[1] + suffix) for t in bound.get(head, ()) if (m := self.land_at(t))}
        if head not in bound and head not in classes:  # else the linker takes no star
            for source in stars:
                module = self.find(source)
                if module is not None:
                    found.add((module, base))
        if aliases and depth < 8:
            for value in aliases.get(head, ()):
                found |= self.first_step(bound, stars, classes, value + suffix, aliases, depth + 1)
        return found


_ASSIGNED = re.compile(rb"[ \t]*(?::[^=\n]*)?=(?!=)")
_ASSIGNED_AT = re.compile(rb"(?<!\w)(\w+)[ \t]*([:=])")


def assigned_names(data: bytes) -> frozenset[str]:
    """Every name `name =` (or `name: T =`, `name :=`) binds anywhere in `data`, as a whole
    word: the names the file may bind by an assignment, found in one pass over the file, so a
    file of any size costs time in proportion to its size. (A look for one name at a time
    scans every occurrence of it, once per name asked: a generated 1 MB file asked for 1,313
    names scanned 10,935 occurrences each.) Over-inclusion (`f(name=1)`) costs time only."""
    found: set[bytes] = set()
    equals = newline = -1  # the first `=` and line end at or after the last colon looked at
    for match in _ASSIGNED_AT.finditer(data):
        after = match.end()
        if match.group(2) == b"=":  # `name =`, not `name ==`
            if data[after : after + 1] != b"=":
                found.add(match.group(1))
            continue
        # `name:`, then anything but `=` up to a `=` on the same line that starts no `==`;
        # the positions only move forward, so the file is scanned once however many colons
        if equals < after:
            equals = _find(data, b"=", after)
        if newline < after:
            newline = _find(data, b"\n", after)
        if equals < newline and data[equals + 1 : equals + 2] != b"=":
            found.add(match.group(1))
    return frozenset(name.decode("ascii") for name in found)


def _find(data: bytes, sub: bytes, start: int) -> int:
    """`data.find`, with the end of `data` for none (a position the scans never pass again)."""
    found = data.find(sub, start)
    return len(data) if found < 0 else found


class AssignedNames:
    """Whether a file may bind a name by an assignment (`name =`, `name: T =`, as a whole
    word), asked any number of times at a cost linear in the file's size: the first few names
    are looked for one by one and remembered (`assigns_name`: the usual file is asked once or twice, and a
    look for one name is a third of the cost of reading its assignments), then every name the
    file assigns is read in one pass (`assigned_names`): a generated 1 MB file asked for 1,313
    names would otherwise scan 10,935 occurrences of one word each time."""

    ONE_BY_ONE = 4

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.answers: dict[str, bool] = {}  # the names looked for one by one
        self.names: frozenset[str] | None = None

    def __contains__(self, name: str) -> bool:
        if self.names is not None:
            return name in self.names
        answer = self.answers.get(name)
        if answer is None and len(self.answers) < self.ONE_BY_ONE:
            answer = self.answers[name] = assigns_name(self.data, name.encode())
        elif answer is None:
            self.names = assigned_names(self.data)
            answer = name in self.names
        return answer


def assigns_name(data: bytes, name: bytes) -> bool:
    """Whether `name =` (or `name: T =`) is anywhere in `data`, as a whole word: one name, in
    time linear in the file (for many names, `AssignedNames`)."""
    start = data.find(name)
    while start >= 0:
        before = data[start - 1 : start] if start else b""
        if not (before.isalnum() or before == b"_") and _ASSIGNED.match(data, start + len(name)):
            return True
        start = data.find(name, start + 1)
    return False


def _binds(facts: ByteFacts, name: str) -> bool:
    """Whether `from X import *` of a file surely brings `name` from the file itself (a class
    or an import of that name, and no `__all__` that could leave it out)."""
    return not facts.exports and (name in facts.classes or name in facts.bound())


def _prefixes(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


def _starts_line(data: bytes, start: int) -> bool:
    """Whether only blanks precede `start` on its line."""
    line = data.rfind(b"\n", 0, start) + 1
    return not data[line:start].strip()
