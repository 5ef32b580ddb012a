"""Which NestJS modules the configuration's defaults leave out of the application, joined
across files from what `nest_imports` reads in each.

A module whose every import is guarded by a condition (`ConditionalModule.registerWhen`, a list
spread in by a ternary, a function's early `return []`) is in the module graph only where one
of those conditions holds. Each is decided as the pack decides a route's `if` (the linker's
`_decided`: sample environment files, `NODE_ENV`'s defaults, configuration objects): where the
defaults run none, the module's controllers serve nothing, and a finding at each condition
names the module and the defaults; where one cannot be decided, the routes stay listed and a
finding says so. A module some file names otherwise (an unguarded entry, an import the reader
does not follow) is taken as imported: reachability the scan cannot see never drops a route.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .model import Condition, ImportRef, ModuleFacts

Gap = tuple[str, int, str]  # as the linker's: (file, line, what was not known)
Decided = Callable[[str, Condition], tuple[bool, tuple[str, ...]] | None]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A module's standing under the defaults: `off` findings (each condition the defaults
    do not run) when it is left out; `unsure` gaps when a condition cannot be decided."""

    off: tuple[Gap, ...] = ()
    unsure: tuple[Gap, ...] = ()
    assumed: tuple[str, ...] = ()  # the defaults that import it, when only conditions do


_IMPORTED = Verdict()


class GuardedImports:
    """The modules imported only under conditions, decided under the configuration's
    defaults."""

    def __init__(
        self,
        modules: Mapping[str, ModuleFacts],
        declaring: Mapping[str, set[str]],
        decided: Decided | None,
    ) -> None:
        self._modules = modules
        self._declaring = declaring  # module class -> the files declaring it
        self._decided = decided
        self._uses: dict[str, list[tuple[str, Condition | None, int]]] = {}
        for file, facts in modules.items():
            for name, condition, line in facts.nest.guarded_imports if facts.nest else ():
                self._uses.setdefault(name, []).append((file, condition, line))
        self._importers: dict[str, set[str]] | None = None
        self._verdicts: dict[str, Verdict] = {}

    def verdict(self, module: str) -> Verdict:
        """Whether the defaults leave `module` out (cached)."""
        if module not in self._verdicts:
            self._verdicts[module] = self._judge(module)
        return self._verdicts[module]

    def _judge(self, module: str) -> Verdict:
        uses = self._uses.get(module)
        if not uses or self._decided is None or any(c is None for _, c, _ in uses):
            return _IMPORTED
        guarding = {file for file, _, _ in uses}
        if self._imported_by(module) - guarding - self._declaring.get(module, set()):
            return _IMPORTED  # a file that imports it names it otherwise
        off: list[Gap] = []
        unsure: list[Gap] = []
        for file, condition, line in uses:
            assert condition is not None
            decided = self._decided(file, condition)
            if decided is not None and decided[0]:
                return Verdict(assumed=tuple(f"{a} ({_where(file, line)})" for a in decided[1]))
            if decided is None:
                unsure.append((file, line, _unsure_detail(module, condition)))
            else:
                off.append((file, line, _off_detail(module, condition, decided[1])))
        return Verdict(unsure=tuple(unsure)) if unsure else Verdict(off=tuple(off))

    def _imported_by(self, module: str) -> set[str]:
        """The files binding `module` by an import (`import { M } from './m'`)."""
        if self._importers is None:
            self._importers = {}
            for file, facts in self._modules.items():
                for bound in facts.bindings.values():
                    if isinstance(bound, ImportRef) and bound.attr:
                        self._importers.setdefault(bound.attr, set()).add(file)
        return self._importers.get(module, set())


def _where(file: str, line: int) -> str:
    return f"imports it at {file}:{line}"


def _off_detail(module: str, condition: Condition, assumed: tuple[str, ...]) -> str:
    return (
        f"the module `{module}` is imported only under `{condition.text}`, which the "
        f"configuration's defaults ({'; '.join(assumed)}) do not run: the routes of the "
        "controllers it declares are not listed"
    )


def _unsure_detail(module: str, condition: Condition) -> str:
    return (
        f"the module `{module}` is imported only under `{condition.text}`, which neither the "
        "scanned files nor the configuration's defaults decide: the routes of the controllers "
        "it declares are listed as if it were imported"
    )
