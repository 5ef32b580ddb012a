"""Which Python files a pack must parse: a byte-level pre-filter plus the import links.

`ast.parse` is most of a cold discover, and most files of a large repository cannot declare a
table: a file that mentions none of a pack's keywords (`Column`, `models`, `__tablename__`…)
declares nothing. But the linker follows names across files (a base class, a re-export, a
`Base` made in another module), so a file is also parsed when it is reached:

- forward: a parsed file imports it (its dotted module name, or a name ending with it, as the
  linkers resolve imports by dotted suffix);
- backward: it defines a class and imports a parsed file (a model may subclass one defined
  there: Django's multi-table inheritance makes a table of `class Dog(Animal): pass`);

until nothing changes. Imports are found on bytes (`from … import …`, `import …`, anywhere in the
file, so a guarded or nested one counts too): over-inclusion costs time only. What is not parsed
gives nothing, as it would have given nothing parsed, except a syntax error in it, which is not
reported (it cannot hide a declaration). Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

_FROM = re.compile(
    rb"^[ \t]*from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)", re.M
)
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([^\n#;]+)", re.M)
_CLASS = re.compile(rb"^[ \t]*class[ \t]", re.M)
_NAME = re.compile(rb"[A-Za-z_]\w*(?:[ \t]*\.[ \t]*[A-Za-z_]\w*)*")


@dataclass(frozen=True)
class ByteFacts:
    """What the bytes of one file say: a keyword hit, the dotted names it imports (absolute),
    and whether it defines a class."""

    hit: bool
    imports: tuple[str, ...]
    has_class: bool


def byte_facts(path: str, data: bytes, keywords: Sequence[bytes]) -> ByteFacts:
    package = _package(path)
    imports: set[str] = set()
    for level, module, names in _FROM.findall(data):
        base = _absolute(module.decode("ascii", "replace"), len(level), package)
        if base:
            imports.add(base)
        for name in _NAME.findall(names.replace(b"\\\n", b" ")):
            text = name.decode("ascii", "replace").replace(" ", "")
            if text not in ("as", "import"):
                imports.add(f"{base}.{text}" if base else text)
    for names in _IMPORT.findall(data):
        for name in _NAME.findall(names):
            text = name.decode("ascii", "replace").replace(" ", "").replace("\t", "")
            parts = text.split(".")
            imports.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
    hit = any(keyword in data for keyword in keywords)
    return ByteFacts(hit, tuple(sorted(imports)), bool(_CLASS.search(data)))


def needed(facts: Mapping[str, ByteFacts]) -> set[str]:
    """The paths to parse: the keyword hits and everything linked to them, as described above."""
    by_suffix: dict[str, list[str]] = {}
    for path in facts:
        parts = module_name(path).split(".")
        for cut in range(len(parts)):
            by_suffix.setdefault(".".join(parts[cut:]), []).append(path)

    def targets(path: str) -> Iterable[str]:
        for name in facts[path].imports:
            yield from by_suffix.get(name, ())

    chosen = {path for path, f in facts.items() if f.hit}
    while True:
        grown = set(chosen)
        for path in chosen:
            grown.update(targets(path))
        for path, f in facts.items():
            if path not in grown and f.has_class and any(t in grown for t in targets(path)):
                grown.add(path)
        if grown == chosen:
            return chosen
        chosen = grown


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
