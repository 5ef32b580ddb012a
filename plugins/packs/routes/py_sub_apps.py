"""Python apps that are sub-apps of a mount the pack cannot read (`linker._unread_sub_app`).

An app (`FastAPI()`, `Starlette()`, `Flask()`) that nothing the scan shows mounts is listed
as a root, served at `/`. When a module mounts something the pack cannot read (`for n, sub
in load().items(): app.mount('/p/' + n, sub)`), the apps that module imports are what that
mount may serve: listing their routes at `/` unflagged would be a wrong name said with
confidence. The rule, on the import graph alone (no guess of what the loop yields): an app
is such a sub-app when a module holding an unread mount imports its module (directly or
through other modules, `import_closure`; a module loading modules by a computed name under a
package, `import_module(f"plugins.{n}.main")`, imports every module below that package), its module does not import that module back (the
entry module that wires the plugins in is no plugin), the mount is not made on it, its module is no
script run as a program (`if __name__ == "__main__":`), and no scanned call hands it to a
server (`uvicorn.run(app)`, `serve(app)`: `SERVER_CALLS`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

# the last name of a call that serves an app it is passed (`uvicorn.run`, `hypercorn`'s
# `serve`, `waitress.serve`, `app.run` has the app as receiver and passes nothing)
SERVER_CALLS = frozenset({"run", "serve", "run_simple"})
# modules looked at from one start, at most (an import graph is walked breadth first)
_MAX_MODULES = 2000


def import_closure(start: str, imports_of: Callable[[str], Iterable[str]]) -> frozenset[str]:
    """The files `start` imports, directly or through the files they import (not `start`
    itself unless a cycle leads back to it); `imports_of` gives one file's direct imports."""
    seen: set[str] = set()
    queue = [start]
    while queue and len(seen) < _MAX_MODULES:
        file = queue.pop(0)
        for imported in imports_of(file):
            if imported not in seen:
                seen.add(imported)
                queue.append(imported)
    return frozenset(seen)


def unread_mount_detail(mounts: list[tuple[str, int, str]]) -> str:
    """The finding's words at the sub-app: the unread mounts that may serve it, (file, line,
    the child as written), the first three named."""
    named = ", ".join(f"`{what}` at {where}:{line}" for where, line, what in mounts[:3])
    more = f" and {len(mounts) - 3} more" if len(mounts) > 3 else ""
    return (
        "this app is mounted by nothing the scanned files show, and modules whose imports "
        f"reach its module mount what the pack cannot read ({named}{more}): the prefix its "
        "routes are served under is not known"
    )
