"""Which Python files a pack must parse: a byte-level pre-filter plus the links between files.

`ast.parse` is most of a cold discover, and most files of a large repository cannot declare a
table: a file that mentions none of a pack's keywords (`Column`, `models`, `__tablename__`…)
declares nothing of its own. But the linker follows names across files, so a file is also
parsed when a declaration may depend on it or it on one:

- forward: a parsed file imports it (its dotted module name, or a name ending with it, as the
  linkers resolve imports by dotted suffix), e.g. the module that makes `Base`, a mixin, a
  re-export;
- backward: one of its classes has a base imported from a parsed file, or it star-imports a
  parsed file and has a class with a base (Django's multi-table inheritance makes a table of
  `class Dog(Animal): pass`, keywords or not);

until nothing changes. Imports and class bases are found on bytes (anywhere in the file, so a
guarded or nested one counts too): over-inclusion costs time only. What is not parsed gives
nothing, as it would have given nothing parsed, except a syntax error in it, which is not
reported (it cannot hide a declaration). Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_FROM = re.compile(
    rb"^[ \t]*from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)", re.M
)
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([^\n#;]+)", re.M)
_CLASS = re.compile(rb"^[ \t]*class[ \t]+\w+[ \t]*\(([^)]*)\)", re.M)
_NAME = re.compile(rb"[A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*")
_ALIAS = re.compile(rb"([A-Za-z_][\w.]*)(?:[ \t]+as[ \t]+([A-Za-z_]\w*))?")


@dataclass(frozen=True)
class ByteFacts:
    """What the bytes of one file say: a keyword hit, the dotted names it imports (absolute),
    the dotted names its classes' bases may come from, and the modules it star-imports when it
    has a class with a base."""

    hit: bool
    imports: tuple[str, ...]
    bases: tuple[str, ...]
    stars: tuple[str, ...]


def byte_facts(
    path: str, data: bytes, keywords: Sequence[bytes], base_keywords: Sequence[str] = ()
) -> ByteFacts:
    """`keywords`: a file naming one is parsed. `base_keywords`: a file with a class whose base,
    as written or as its import names it, holds one is parsed (`models.Model`, an `AbstractUser`
    from `django.contrib.auth.models`: finer than a file-level `models`, which views name too)."""
    hit = any(keyword in data for keyword in keywords)
    if b"import" not in data and not base_keywords:
        return ByteFacts(hit, (), (), ())
    package = _package(path)
    imports: set[str] = set()
    local: dict[str, str] = {}  # a name bound by an import -> what it names, dotted
    stars: list[str] = []
    for level, module, names in _FROM.findall(data):
        base = _absolute(module.decode("ascii", "replace"), len(level), package)
        if base:
            imports.add(base)
        if names.strip().startswith(b"*"):
            stars.append(base)
            continue
        for name, alias in _ALIAS.findall(names.replace(b"\\\n", b" ")):
            text = name.decode("ascii", "replace")
            target = f"{base}.{text}" if base else text
            imports.add(target)
            local[(alias or name).decode("ascii", "replace")] = target
    for names in _IMPORT.findall(data):
        for name, alias in _ALIAS.findall(names):
            text = name.decode("ascii", "replace")
            parts = text.split(".")
            imports.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
            local[alias.decode("ascii") if alias else parts[0]] = text if alias else parts[0]
    bases: set[str] = set()
    has_base = False
    for listed in _CLASS.findall(data):
        for base in _NAME.findall(listed):
            has_base = True
            written = base.decode("ascii", "replace").replace(" ", "").replace("\t", "")
            head, _, rest = written.partition(".")
            named = written
            if head in local:  # the base's module is some prefix of what it names
                named = f"{local[head]}.{rest}" if rest else local[head]
                parts = named.split(".")
                bases.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
            if not hit and any(k in written or k in named for k in base_keywords):
                hit = True
    return ByteFacts(
        hit, tuple(sorted(imports)), tuple(sorted(bases)), tuple(stars) if has_base else ()
    )


def needed(facts: Mapping[str, ByteFacts]) -> set[str]:
    """The paths to parse: the keyword hits and everything linked to them, as described above."""
    by_suffix: dict[str, list[str]] = {}
    for path in facts:
        parts = module_name(path).split(".")
        for cut in range(len(parts)):
            by_suffix.setdefault(".".join(parts[cut:]), []).append(path)

    def resolve(names: Sequence[str]) -> set[str]:
        return {target for name in names for target in by_suffix.get(name, ())}

    forward = {path: resolve(f.imports) for path, f in facts.items()}
    backward: dict[str, set[str]] = {}  # a file -> those whose classes may subclass from it
    for path, f in facts.items():
        for target in resolve(f.bases) | resolve(f.stars):
            backward.setdefault(target, set()).add(path)
    chosen = {path for path, f in facts.items() if f.hit}
    pending = list(chosen)
    while pending:
        path = pending.pop()
        for other in forward.get(path, set()) | backward.get(path, set()):
            if other not in chosen:
                chosen.add(other)
                pending.append(other)
    return chosen


def module_name(path: str) -> str:
    """`app/models/__init__.py` → `app.models` (as `pymodules.module_name`)."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package(path: str) -> str:
    module = module_name(path)
    is_package = path.endswith("/__init__.py") or path == "__init__.py"
    return module if is_package else module.rpartition(".")[0]


def _absolute(module: str, level: int, package: str) -> str:
    if not level:
        return module
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    return ".".join([*base, module] if module else base)
