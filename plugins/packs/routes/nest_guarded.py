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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from .model import Condition, ImportRef, ModuleFacts

_T = TypeVar("_T")
Gap = tuple[str, int, str]  # as the linker's: (file, line, what was not known)
Use = tuple[str, Condition | None, int, str]  # (file, condition, line, importing module)
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
    """Which modules the application imports under the configuration's defaults: the least
    set closed under imports, from each module no `@Module` list is seen to import (a root,
    or one imported in a way not read) through each import whose condition the defaults run
    (or cannot decide: then flagged), so modules that only import each other beneath a
    left-out one (`forwardRef` cycles) are left out with it."""

    def __init__(
        self,
        modules: Mapping[str, ModuleFacts],
        declaring: Mapping[str, set[str]],
        decided: Decided | None,
    ) -> None:
        self._modules = modules
        self._declaring = declaring  # module class -> the files declaring it
        self._decided = decided
        # module class -> (the file naming it, condition, line, the `@Module` importing it)
        self._uses: dict[str, list[Use]] = {}
        for file, facts in modules.items():
            for name, condition, line, owner in facts.nest.module_imports if facts.nest else ():
                self._uses.setdefault(name, []).append((file, condition, line, owner))
        self._decisions: dict[tuple[str, int, str], tuple[bool, tuple[str, ...]] | None] = {}
        self._reached: dict[str, Verdict] | None = None

    def verdict(self, module: str) -> Verdict:
        """How the defaults import `module`: imported (`assumed` the defaults it takes),
        unsure, or left out (`off`: the conditions, at the modules' boundary, that leave it
        out)."""
        if module not in self._uses or self._decided is None:
            return _IMPORTED  # reachability not seen: kept, as the pack did
        if self._reached is None:
            self._reached = self._reach()
        reached = self._reached.get(module)
        return reached if reached is not None else Verdict(off=self._off(module, set()))

    def words(self) -> set[str]:
        """The modules not imported outright under the defaults: a file spelling one of them
        must be read (the pre-filter parses it on demand) before it is left out, in case
        that file imports it in a way only its bindings show."""
        if self._decided is None or not self._uses:
            return set()
        if self._reached is None:
            self._reached = self._reach()
        return {m for m in self._uses if self._reached.get(m) is not _IMPORTED}

    def _reach(self) -> dict[str, Verdict]:
        """Each module reached, with how, propagated until nothing changes (a standing only
        rises, and its sets only grow: it ends)."""
        importers = self._importers()
        reached: dict[str, Verdict] = {}
        for module in self._uses:
            naming = {use[0] for use in self._uses[module]} | self._declaring.get(module, set())
            if importers.get(module, set()) - naming:
                reached[module] = _IMPORTED  # a file that imports it names it in a way not read
        changed = True
        while changed:
            changed = False
            for module, uses in self._uses.items():
                best = reached.get(module)
                for use in uses:
                    through = self._through(module, use, reached)
                    best = through if best is None else _better(best, through)
                if best is not None and best != reached.get(module):
                    reached[module] = best
                    changed = True
        return reached

    def _through(self, module: str, use: Use, reached: Mapping[str, Verdict]) -> Verdict | None:
        """How one import brings `module` in, given how its importing module is reached;
        None when it does not (its importer not reached, or its condition off)."""
        file, condition, line, owner = use
        holder = reached.get(owner) if owner in self._uses else _IMPORTED
        if holder is None or condition is None:
            return holder
        decided = self._decide(file, line, condition)
        if decided is None:
            return Verdict(unsure=((file, line, _unsure_detail(module, condition)), *holder.unsure))
        if not decided[0]:
            return None
        if holder.unsure:
            return holder
        mine = tuple(f"{a} ({_where(file, line)})" for a in decided[1])
        return Verdict(assumed=(*mine, *holder.assumed))

    def _off(self, module: str, seen: set[str]) -> tuple[Gap, ...]:
        """The conditions that leave `module` out: its own imports' the defaults do not run,
        and those that leave out the modules importing it."""
        seen.add(module)
        gaps: list[Gap] = []
        for file, condition, line, owner in self._uses.get(module, []):
            if owner in self._uses and self._reached is not None and owner not in self._reached:
                gaps += self._off(owner, seen) if owner not in seen else ()
            elif condition is not None and (decided := self._decide(file, line, condition)):
                gaps.append((file, line, _off_detail(module, condition, decided[1])))
        return tuple(dict.fromkeys(gaps))

    def _decide(
        self, file: str, line: int, condition: Condition
    ) -> tuple[bool, tuple[str, ...]] | None:
        key = (file, line, condition.text)
        if key not in self._decisions:
            assert self._decided is not None
            self._decisions[key] = self._decided(file, condition)
        return self._decisions[key]

    def _importers(self) -> dict[str, set[str]]:
        """The files binding each name by an import (`import { M } from './m'`)."""
        found: dict[str, set[str]] = {}
        for file, facts in self._modules.items():
            for bound in facts.bindings.values():
                if isinstance(bound, ImportRef) and bound.attr:
                    found.setdefault(bound.attr, set()).add(file)
        return found


def _better(one: Verdict, other: Verdict | None) -> Verdict:
    """The stronger of two ways a module is reached (imported outright, then under assumed
    defaults, then unsure), their sets joined where they are as strong."""
    if other is None or _rank(one) > _rank(other):
        return one
    if _rank(other) > _rank(one):
        return other
    return Verdict(
        unsure=_union((one.unsure, other.unsure)), assumed=_union((one.assumed, other.assumed))
    )


def _rank(verdict: Verdict) -> int:
    return 0 if verdict.unsure else 1 if verdict.assumed else 2


def _union(groups: Iterable[tuple[_T, ...]]) -> tuple[_T, ...]:
    return tuple(dict.fromkeys(item for group in groups for item in group))


def _where(file: str, line: int) -> str:
    return f"imports it at {file}:{line}"


def _off_detail(module: str, condition: Condition, assumed: tuple[str, ...]) -> str:
    return (
        f"the module `{module}` is imported only under `{condition.text}`, which the "
        f"configuration's defaults ({'; '.join(assumed)}) do not run: the routes of the "
        "controllers it declares, and of the modules only it imports, are not listed"
    )


def _unsure_detail(module: str, condition: Condition) -> str:
    return (
        f"the module `{module}` is imported only under `{condition.text}`, which neither the "
        "scanned files nor the configuration's defaults decide: the routes of the controllers "
        "it declares are listed as if it were imported"
    )
