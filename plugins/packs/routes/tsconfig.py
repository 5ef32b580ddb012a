"""`tsconfig.json`/`jsconfig.json` as the linker's JavaScript module resolution reads them, as
TypeScript resolves a bare specifier (`@/routes/users`, `routes`, `~/api`) before looking for a
package: `compilerOptions.paths`, then `compilerOptions.baseUrl`.

- The project of a file is the nearest `tsconfig.json` in its folder or above (else the
  nearest `jsconfig.json`, the same options for JavaScript projects).
- `extends` (a path relative to the config, `.json` added when it is left out; a list of them,
  later ones winning) gives the options the config does not set itself; an `extends` of a
  library (`@tsconfig/node18`) is not in the repository and gives nothing.
- `baseUrl` is relative to the folder of the config that sets it; a `paths` substitution is
  relative to the `baseUrl` in force, else to the folder of the config that sets `paths`.
- `paths`: a pattern without `*` matches only itself and wins; else, of the patterns with one
  `*` whose prefix and suffix the specifier has, the one with the longest prefix (ties: the
  first written); its substitutions are tried in order, `*` replaced by what it matched, and
  the first that names a file of the repository wins. No substitution found: the specifier is
  then tried under `baseUrl`. `${configDir}` at the start of `baseUrl` or a substitution is the
  folder of the config in use (`CONFIG_DIR`).

Configs are JSON with comments and trailing commas, as `tsc` reads them (`strip_jsonc`). The
walk takes `tsconfig*.json`/`jsconfig*.json` files (`is_config`); a config extended under
another name is not walked, and its options are not known. Standard library only; the reading
is pure (`config_facts`), the lookups (which config is nearest, what a chain sets) are the
linker's, over the paths of its walk.
"""

from __future__ import annotations

import json
import posixpath
import re

from .model import Expr, Items, Lit, ModuleFacts

PROJECT_CONFIGS = ("tsconfig.json", "jsconfig.json")  # the nearest names a file's project
CONFIG_DIR = "${configDir}"
"""TypeScript 5.5's template in `baseUrl` and `paths`: the folder of the config in use (the
nearest one), not of the config that writes it (a shared base's `${configDir}/src/*`)."""
LANGUAGE = "tsconfig"
_CONFIG_NAME = re.compile(r"(?:ts|js)config(?:[.\-][\w.\-]*)?\.json")
_WILDCARD = "*"


def is_config(path: str) -> bool:
    """Whether the walk takes `path` as a TypeScript/JavaScript project config:
    `tsconfig.json`, `jsconfig.json`, and the files such configs extend by TypeScript's own
    naming habit (`tsconfig.base.json`, `tsconfig.app.json`)."""
    return _CONFIG_NAME.fullmatch(posixpath.basename(path)) is not None


def strip_jsonc(source: str) -> str:
    """`source` without `//` and `/* */` comments and without commas before a closing `]` or
    `}` (both outside strings), so `json` reads what `tsc` reads."""
    out: list[str] = []
    at, end = 0, len(source)
    pending_comma = -1  # index in `out` of a comma that a closing bracket may cancel
    while at < end:
        char = source[at]
        if char == '"':
            close = at + 1
            while close < end and source[close] != '"':
                close += 2 if source[close] == "\\" else 1
            out.append(source[at : close + 1])
            pending_comma = -1
            at = close + 1
        elif source.startswith("//", at):
            newline = source.find("\n", at)
            at = end if newline < 0 else newline
        elif source.startswith("/*", at):
            close = source.find("*/", at + 2)
            at = end if close < 0 else close + 2
        elif char == ",":
            pending_comma = len(out)
            out.append(char)
            at += 1
        elif char in "]}":
            if pending_comma >= 0:
                out[pending_comma] = ""
            pending_comma = -1
            out.append(char)
            at += 1
        else:
            if not char.isspace():
                pending_comma = -1
            out.append(char)
            at += 1
    return "".join(out)


def config_facts(source: str) -> ModuleFacts:
    """`bindings`: `extends` (`Items` of the paths as written), `baseUrl` (`Lit`), `paths`
    (an empty `Items` where the config sets `paths`, so an inherited one is replaced whole);
    `exports`: each `paths` pattern → `Items` of its substitutions, in the order written. A
    config that is no JSON object says nothing (never a parse error: it holds no route)."""
    try:
        data = json.loads(strip_jsonc(source))
    except ValueError:
        return ModuleFacts(LANGUAGE)
    if not isinstance(data, dict):
        return ModuleFacts(LANGUAGE)
    bindings: dict[str, Expr] = {}
    extends = data.get("extends")
    listed = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
    if any(isinstance(e, str) for e in listed):
        bindings["extends"] = Items(tuple(Lit(e) for e in listed if isinstance(e, str)))
    options = data.get("compilerOptions")
    patterns: dict[str, Items] = {}
    if isinstance(options, dict):
        if isinstance(options.get("baseUrl"), str):
            bindings["baseUrl"] = Lit(options["baseUrl"])
        paths = options.get("paths")
        if isinstance(paths, dict):
            bindings["paths"] = Items(())
            for pattern, substitutions in paths.items():
                if isinstance(substitutions, list) and pattern.count(_WILDCARD) <= 1:
                    kept = [s for s in substitutions if isinstance(s, str)]
                    patterns[pattern] = Items(tuple(Lit(s) for s in kept))
    return ModuleFacts(LANGUAGE, bindings=bindings, exports=dict(patterns))


def extended(config: str, facts: ModuleFacts) -> list[str]:
    """The repository paths of the configs `config` extends, in order (later ones win); a
    library's (a bare name) is left out."""
    listed = facts.bindings.get("extends")
    out: list[str] = []
    if not isinstance(listed, Items):
        return out
    for item in listed.values:
        if not isinstance(item, Lit) or not item.value.startswith((".", "/")):
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(config), item.value))
        if target.startswith("..") or target.startswith("/"):
            continue
        out.append(target)
    return out


def best_pattern(patterns: list[str], specifier: str) -> tuple[str, str] | None:
    """The `paths` pattern TypeScript picks for `specifier` and what its `*` matched (`""` for
    an exact pattern), or None when none matches."""
    if specifier in patterns and _WILDCARD not in specifier:
        return specifier, ""
    best: tuple[str, str] | None = None
    longest = -1
    for pattern in patterns:
        prefix, star, suffix = pattern.partition(_WILDCARD)
        if not star:
            continue
        fits = len(specifier) >= len(prefix) + len(suffix) and len(prefix) > longest
        if fits and specifier.startswith(prefix) and specifier.endswith(suffix):
            longest = len(prefix)
            best = pattern, specifier[len(prefix) : len(specifier) - len(suffix)]
    return best
