"""Node's rule for the file a relative import names, in one place for every JavaScript reader
(the routes linker's `_js_file`, pack-js-tables' imported schemas; issue 34 item 3: one module
resolver): the path joined to the importer's folder, tried as a file (as written, else with each
script extension, `./users.js` written for the `./users.ts` TypeScript compiles to it), then as
a folder's index file. What a folder's `package.json` names, workspace packages and TypeScript's
path aliases are the linker's (`linker._js_entry`, `_js_package`, `_js_aliased`)."""

from __future__ import annotations

import posixpath

EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx")
_WRITTEN = (".js", ".mjs", ".cjs")  # what TypeScript's imports spell for a `.ts` file


def relative(importer: str, specifier: str) -> str | None:
    """The repository path `specifier` (`./x`, `../y`) names from `importer`'s folder; None
    for one above the repository's root."""
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), specifier))
    return None if joined.startswith("..") else joined


def as_file(joined: str) -> list[str]:
    """The files `joined` may be, in Node's order: itself, then with each extension."""
    stem = joined
    for ext in _WRITTEN:
        if joined.endswith(ext):
            stem = joined[: -len(ext)]
    return [joined, *(stem + e for e in EXTENSIONS)]


def as_folder(joined: str) -> list[str]:
    """The index files of the folder `joined` (the repository's root for `""` or `.`)."""
    folder = f"{joined}/" if joined not in {"", "."} else ""
    return [f"{folder}index{e}" for e in EXTENSIONS]
