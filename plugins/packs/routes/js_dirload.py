"""Routers a project loads from a folder at run time (JavaScript): `require-directory`'s
`requireDirectory(module, dir, { visit })`, `require-all`'s `requireAll({ dirname, filter,
resolve })`, and `fs.readdirSync(dir).filter(...).forEach(f => app.use(require(join(dir, f))))`
(a nested `readdirSync` of each entry too). What the callback does with each module is read
once (`app.use(m)`, `app.use(m.routes())`, `app.use('/p', m.router)`, `m(app, opts)`) and kept
with the folder and the filters the code applies as a `LoadDecl` (`loader=EACH_MODULE`); the
linker lists the folder's files by the same rules (`walked`) and writes out one mount or call
per module. A folder, filter or callback that cannot be read is a finding at the loader call
naming the folder, never silence.

Filters are kept as data (`Pred`, nested tuples of strings: picklable facts), so the linker can
apply them to the walked names without the source: `("eq", s)`, `("ends", s)`, `("starts",
s)`, `("has", s)` (`indexOf(s) !== -1`), `("re", pattern)`, `("not", p)`, `("and", p, q)`,
`("or", p, q)`, `("true",)`; `("path", p)` tests `p` on `/` and the entry's repository path,
`("below", folder, p)` on its path below `folder` (a glob's `cwd`: the paths glob gives)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

import tree_sitter

from .frameworks import JAVASCRIPT
from .model import (
    Auth,
    Concat,
    Expr,
    ImportRef,
    Invocation,
    Listing,
    Lit,
    LoadDecl,
    ModuleFacts,
    Opaque,
    RouteDecl,
    Sym,
    UseDecl,
)

if TYPE_CHECKING:
    from .js_facts import _Reader

_Node = tree_sitter.Node
Pred = tuple[object, ...]

EACH_MODULE = "each-module"  # `LoadDecl.loader` of a folder loader read here
UNREAD = "folder:"  # a `RouteDecl.generated_by` naming a folder loader not followed
REQUIRE_DIRECTORY = "require-directory"
REQUIRE_ALL = "require-all"
# `LoadDecl.export` of a library's folder loader (`frameworks.Framework.folder_loaders`): every
# router each script exports is mounted, whatever its name
EVERY_ROUTER = "*"
# package -> (class, app argument, folder) of the records' library folder loaders
_LIBRARY_LOADERS = {
    module: loader
    for framework in JAVASCRIPT
    for module, loader in framework.folder_loaders.items()
}
_SCRIPTS = (".js", ".cjs", ".mjs", ".ts")
_TRUE: Pred = ("true",)
# require-all's default `filter` and `excludeDirs`
_REQUIRE_ALL_FILTER = r"^([^\.].*)\.js(on)?$"
_SEEDS = re.compile(
    rb"readdirSync|require-directory|require-all|['\"](?:glob|fast-glob|globby)['\"]|globSync"
    rb"|import\.meta\.glob|require\.context"
    + b"".join(b"|['\"]" + re.escape(m.encode()) + b"['\"]" for m in _LIBRARY_LOADERS)
)
# bundlers' folder loaders: Vite's `import.meta.glob(pattern, { eager: true })` (an object of
# each matched path's module) and webpack's `require.context(dir, deep, re)` (a function of
# each key `./path` its `keys()` lists)
_BUNDLED = re.compile(rb"\bimport\.meta\.glob(?:Eager)?\s*\(|\brequire\.context\s*\(")
VITE_GLOB = "import.meta.glob"
WEBPACK_CONTEXT = "require.context"
_CALLED_MODULE = "\0called"  # `_module_names`: a name whose call gives the module (`ctx(k)`)
_GLOBS = {"glob", "fast-glob", "globby"}  # packages whose `sync(pattern)` lists paths
# Node's own `fs.globSync(pattern, { cwd })` (22+), as glob's
_FS_GLOB = ("globSync", frozenset({"fs", "node:fs"}))
# `server.route(m)` in a loader's callback: each module's export a route table (hapi's,
# Fastify's `route`)
_TABLE_CALLS = frozenset({"route"})
_FUNCTION_TYPES = {
    "arrow_function",
    "function_expression",
    "function",
    "function_declaration",
    "method_definition",
}


def read(reader: _Reader, root: _Node) -> None:
    """Each folder loader of the file: a `LoadDecl` per mount or call its callback makes."""
    loaders = {
        local: ref.module
        for local, ref in reader.bindings.items()
        if isinstance(ref, ImportRef)
        and ref.module in {REQUIRE_DIRECTORY, REQUIRE_ALL}
        and ref.attr in {"default", None}
    }
    for match in re.finditer(rb"\breaddirSync\b", reader.source):
        node = root.descendant_for_byte_range(match.start(), match.end())
        member = node.parent if node is not None else None
        call = member.parent if member is not None else None
        if (
            call is not None
            and call.type == "call_expression"
            and member is not None
            and member.type == "member_expression"
            and _is_outer(reader, call)
        ):
            _readdir(reader, call)
    globs = {
        local
        for local, ref in reader.bindings.items()
        if isinstance(ref, ImportRef)
        and (ref.module in _GLOBS or (ref.module in _FS_GLOB[1] and ref.attr == _FS_GLOB[0]))
    }
    node_fs = {  # `fs.globSync(...)`
        local
        for local, ref in reader.bindings.items()
        if isinstance(ref, ImportRef)
        and ref.module in _FS_GLOB[1]
        and ref.attr in {"default", None}
    }
    for match in re.finditer(rb"\b(\w+)\.(sync|globSync)\s*\(|\b(globSync)\s*\(", reader.source):
        name = (match.group(1) or match.group(3)).decode()
        if name not in (node_fs if match.group(2) == b"globSync" else globs):
            continue
        node = root.descendant_for_byte_range(match.start(), match.start() + len(name))
        call = node.parent if node is not None else None
        while call is not None and call.type == "member_expression":
            call = call.parent
        if call is not None and call.type == "call_expression":
            _glob(reader, call)
    for match in _BUNDLED.finditer(reader.source):
        node = root.descendant_for_byte_range(match.start(), match.end() - 1)
        while node is not None and node.type != "call_expression":
            node = node.parent
        if node is not None and node.start_byte == match.start():
            _bundled(reader, node)
    for local, bound in reader.bindings.items():
        if isinstance(bound, Sym) and len(bound.path) == 2:  # `const { Loader } = lib`
            head = reader.bindings.get(bound.path[0])
            if isinstance(head, ImportRef) and head.attr in {"default", None}:
                bound = ImportRef(head.module, bound.path[1], head.origin)
        if isinstance(bound, ImportRef) and bound.module in _LIBRARY_LOADERS:
            _library_loader(reader, root, local, bound)
    for local, module in loaders.items():
        for match in re.finditer(rb"\b" + re.escape(local.encode()) + rb"\s*\(", reader.source):
            node = root.descendant_for_byte_range(match.start(), match.start() + len(local))
            call = node.parent if node is not None else None
            if call is None or call.type != "call_expression":
                continue
            if module == REQUIRE_DIRECTORY:
                _require_directory(reader, call)
            else:
                _require_all(reader, call)


def seeded(source: bytes) -> bool:
    return _SEEDS.search(source) is not None


# a quoted glob of script files (`'**/route.js'`, the tail of `` `${dir}/**/page.mjs` ``), and a
# module loaded by a computed specifier (`import(file)`, `require(resolve(f))`, `` import(`${f}`) ``)
_SCRIPT_GLOB = re.compile(
    rb"""(?:["'`]|\})([^"'`\n${}]*\*[^"'`\n${}]*\.(?:[cm]?js|[cm]?ts|jsx|tsx))["'`]"""
)
_COMPUTED_LOAD = re.compile(rb"""\b(?:import|require)\s*\(\s*(?:[A-Za-z_$]|`[^`]*\$\{)""")


def loaded_globs(reader: _Reader) -> tuple[str, ...]:
    """The script patterns a module globs and then loads each match of by a computed specifier
    (a file-system router: `glob.stream([join(dir, '**/route.js')])`, then `import(file)`), as
    written: where the folder the pattern is joined to is computed, the linker names the files
    its literal part matches in a finding about a route the module computes, so the files it
    would read are said. Only in a module that imports a glob package (or Node's
    `fs.globSync`) and loads a computed specifier; () otherwise."""
    globbing = any(
        isinstance(ref, ImportRef)
        and (ref.module in _GLOBS or (ref.module in _FS_GLOB[1] and ref.attr == _FS_GLOB[0]))
        for ref in reader.bindings.values()
    )
    if not globbing or _COMPUTED_LOAD.search(reader.source) is None:
        return ()
    found = (m.group(1).decode("utf-8", "replace") for m in _SCRIPT_GLOB.finditer(reader.source))
    return tuple(dict.fromkeys(found))


def glob_tail(pattern: str) -> re.Pattern[str]:
    """What a repository path ends in where it matches `pattern` joined to a folder not known
    (`**/route.js`: any `route.js`; `pages/*.js`: a script directly in a `pages` folder)."""
    text = pattern.removeprefix("./").removeprefix("/")
    return re.compile("(?:^|/)" + _glob_regex(text) + "$")


# -- the loaders ---------------------------------------------------------------------------


def _library_loader(reader: _Reader, root: _Node, local: str, ref: ImportRef) -> None:
    """`new Loader(config, app)` of a library's folder loader (`_LIBRARY_LOADERS`): every
    router each script under its folder exports, mounted on the app at its root."""
    cls, app_index, folder, _ = _LIBRARY_LOADERS[ref.module]
    if ref.attr != cls:
        return
    pattern = rb"\bnew\s+" + re.escape(local.encode()) + rb"\s*\("
    for match in re.finditer(pattern, reader.source):
        node = root.descendant_for_byte_range(match.start(), match.start() + 3)
        while node is not None and node.type != "new_expression":
            node = node.parent
        if node is None:
            continue
        arguments = reader._arguments(node)
        owner = reader._owner(arguments[app_index]) if len(arguments) > app_index else None
        reader.loads.append(
            LoadDecl(owner or Opaque(), folder, None, True, node.start_point[0] + 1,
                     reader._enclosing(node), loader=EACH_MODULE, export=EVERY_ROUTER)
        )  # fmt: skip


def _require_directory(reader: _Reader, call: _Node) -> None:
    """`requireDirectory(module, dir, { visit, recurse, include, exclude, extensions })`:
    every `.js` (by default) below `dir`, recursively unless `recurse: false`; `visit` is
    given each module's export."""
    args = [_unwrap(a) or a for a in reader._arguments(call)]
    here = posixpath.dirname(reader.path)
    if len(args) == 2 and args[1].type == "object":  # `requireDirectory(module, { visit })`
        args = [args[0], args[0], args[1]]
        folder: str | None = here
    elif len(args) > 1 and args[1].type == "string":  # resolved from the calling module's folder
        written = reader._string(args[1])
        folder = _normal(posixpath.join(here, written)) if written is not None else None
    else:
        folder = _folder(reader, args[1]) if len(args) > 1 else here
    options = _unwrap(args[2]) if len(args) > 2 else None
    if options is not None and options.type != "object":
        return _unread(reader, call, REQUIRE_DIRECTORY, "its options are computed")
    preds: list[Pred] = [("not", ("path", ("eq", f"/{reader.path}")))]  # never itself
    recursive = True
    callback: _Node | None = None
    if options is not None:
        visit = _option(reader, options, "visit")
        callback = _function(reader, visit) if visit is not None else None
        if visit is not None and callback is None:
            return _unread(reader, call, REQUIRE_DIRECTORY, "its `visit` is not read")
        recurse = _unwrap(reader._field(options, "recurse"))
        recursive = recurse is None or recurse.type != "false"
        for key, negate in (("include", False), ("exclude", True)):
            value = reader._field(options, key)
            if value is None:
                continue
            pred = _regex(reader, value)
            if pred is None:
                return _unread(reader, call, REQUIRE_DIRECTORY, f"its `{key}` is not read")
            pred = ("path", pred)  # tested on the module's full path
            preds.append(("not", pred) if negate else pred)
        extensions = reader._field(options, "extensions")
        if extensions is not None:
            items = reader._array_items(_unwrap(extensions))
            names = [reader._string(i) for i in items or []]
            if items is None or None in names:
                return _unread(reader, call, REQUIRE_DIRECTORY, "its `extensions` is not read")
            preds.append(("re", "(?i)\\.(" + "|".join(re.escape(n) for n in names if n) + ")$"))
        else:
            preds.append(("re", r"(?i)\.(js|json|coffee)$"))  # its default `extensions`
    else:
        preds.append(("re", r"(?i)\.(js|json|coffee)$"))
    helper = _helper(reader, args[1], "file") if folder is None and len(args) > 1 else None
    if folder is None and helper is None:
        return _unread(reader, call, REQUIRE_DIRECTORY, "its folder is computed")
    _emit(reader, call, folder or "", recursive, (_all(preds),), callback, module_param=True,
          helper=helper)  # fmt: skip


def _require_all(reader: _Reader, call: _Node) -> None:
    """`requireAll(dir)` or `requireAll({ dirname, filter, excludeDirs, recursive, resolve })`:
    every file whose name `filter` matches (by default `.js`/`.json` not starting with a dot),
    recursively unless `recursive: false`; `resolve` is given each module's export."""
    args = reader._arguments(call)
    first = _unwrap(args[0]) if args else None
    if first is None:
        return
    callback: _Node | None = None
    recursive = True
    pred: Pred | None = ("re", _REQUIRE_ALL_FILTER)
    if first.type == "object":
        folder_node = reader._field(first, "dirname")
        folder = _folder(reader, folder_node) if folder_node is not None else None
        given = reader._field(first, "filter")
        if given is not None:
            pred = _regex(reader, given)
        resolve = _option(reader, first, "resolve")
        callback = _function(reader, resolve) if resolve is not None else None
        if resolve is not None and callback is None:
            return _unread(reader, call, REQUIRE_ALL, "its `resolve` is not read")
        flag = _unwrap(reader._field(first, "recursive"))
        recursive = flag is None or flag.type != "false"
    else:
        folder = _folder(reader, first)
    given = reader._field(first, "dirname") if first.type == "object" else first
    helper = _helper(reader, given, "cwd") if folder is None and given is not None else None
    if (folder is None and helper is None) or pred is None:
        what = "its folder is computed" if folder is None else "its `filter` is not read"
        return _unread(reader, call, REQUIRE_ALL, what)
    _emit(reader, call, folder or "", recursive, (pred,), callback, module_param=True,
          helper=helper)  # fmt: skip


def _readdir(reader: _Reader, call: _Node) -> None:
    """`fs.readdirSync(dir)`, then `.filter(pred)`s and a `.forEach(cb)`/`.map(cb)` whose
    callback requires `join(dir, f)`; a nested `readdirSync(join(dir, f))` in the callback
    walks each entry one level down (`levels`)."""
    args = reader._arguments(call)
    folder = _folder(reader, args[0]) if args else None
    levels: list[Pred] = []
    callback = _chain(reader, call, levels)
    if callback is None:
        return  # not a loop over the folder's modules (a listing kept, counted, printed)
    param = _first_param(reader, callback)
    if param is None:
        return
    body = callback
    inner = _inner_readdir(reader, body, param)
    if inner is not None:
        callback = _chain(reader, inner, levels)
        param = _first_param(reader, callback) if callback is not None else None
        if callback is None or param is None:
            return
    if not _requires_entry(reader, callback, param):
        return
    helper = _helper(reader, args[0], "cwd") if folder is None and args else None
    if (folder is None and helper is None) or any(p is None for p in levels):
        what = "its folder is computed" if folder is None else "a filter on its names is not read"
        return _unread(reader, call, "fs.readdirSync", what)
    _emit(reader, call, folder or "", False, tuple(levels), callback, module_param=False,
          helper=helper)  # fmt: skip


def _glob(reader: _Reader, call: _Node) -> None:
    """`glob.sync('routes/**/*.js', { cwd })` (also `globSync`, fast-glob's and globby's
    `sync`), then `.filter(...)`s and a `.forEach`/`.map` whose callback requires each path:
    the pattern, from the working directory (the repository's root), its `cwd` option or
    `__dirname`, read as a folder and a regular expression on the paths below it."""
    args = reader._arguments(call)
    if not args:
        return
    options = _unwrap(args[1]) if len(args) > 1 else None
    base = ""
    if options is not None and options.type == "object":
        cwd = reader._field(options, "cwd")
        if cwd is not None:
            found = _folder(reader, cwd)
            if found is None:
                return _unread(reader, call, "glob", "its `cwd` is computed")
            base = found
    pattern = _pattern(reader, args[0], base)
    levels: list[Pred] = []
    callback = _chain(reader, call, levels)
    param = _first_param(reader, callback) if callback is not None else None
    if callback is None or param is None or not _requires_entry(reader, callback, param):
        return
    if pattern is None or any(p is None for p in levels):
        what = "its pattern is computed" if pattern is None else "a filter on its paths is not read"
        return _unread(reader, call, "glob", what)
    folder, regex = pattern
    pred: Pred = ("path", ("re", regex))
    for level in levels:  # on the paths as glob gives them: below its `cwd` when given one
        pred = ("and", pred, ("below", base, level) if base else ("path", level))
    _emit(reader, call, folder, True, (pred,), callback, module_param=False)


def listing(reader: _Reader, call: _Node) -> Listing | None:
    """A glob listing of script files held as a value (`globSync('src/models/**/*.js')`,
    `glob.sync(pattern)` of an imported glob, fast-glob or globby, no options), or such a
    listing's `.map(f => path.basename(f, '.js'))` whose callback spells a name from each
    path (`_spelling`); None for anything else (a `cwd`, a computed pattern: a value not known,
    as before). Only script patterns (`*.js`, `*.ts`, …): the walk holds no other file."""
    function = _unwrap(call.child_by_field_id(reader.fields.function))
    args = reader._arguments(call)
    if function is None or not args:
        return None
    if (
        function.type == "member_expression"
        and reader._text(function.child_by_field_id(reader.fields.property)) == "map"
    ):
        inner = _unwrap(function.child_by_field_id(reader.fields.object))
        source = (
            listing(reader, inner)
            if inner is not None and inner.type == "call_expression"
            else None
        )
        callback = _function(reader, args[0]) if source is not None and len(args) == 1 else None
        param = _first_param(reader, callback) if callback is not None else None
        value = _returned(reader, callback) if callback is not None else None
        if source is None or source.spelling or param is None or value is None:
            return None
        spelling = _spelling(reader, value, param)
        return Listing(source.pattern, source.regex, spelling, source.origin) if spelling else None
    if len(args) != 1:
        return None
    if function.type == "member_expression":
        owner = reader._text(function.child_by_field_id(reader.fields.object))
        named = reader._text(function.child_by_field_id(reader.fields.property))
        if named != "sync":
            return None
    elif function.type == "identifier":
        owner = reader._text(function)
    else:
        return None
    ref = reader.bindings.get(owner)
    if not isinstance(ref, ImportRef) or ref.module not in _GLOBS:
        return None
    if function.type == "identifier" and ref.attr not in {"globSync", "sync"}:
        return None
    written = reader._string(_unwrap(args[0]) or args[0])
    if written is None or not written.endswith(_SCRIPTS) or written.startswith("/"):
        return None
    text = written.removeprefix("./")
    found = _pattern_text(text)
    if found is None:
        return None
    return Listing(text, found[1], (), reader.path)


def _returned(reader: _Reader, function: _Node) -> _Node | None:
    """What an arrow's expression body, or a body of one `return x;`, gives."""
    body = function.child_by_field_id(reader.fields.body)
    if body is None:
        return None
    if body.type != "statement_block":
        return _unwrap(body)
    statements = [c for c in body.named_children if c.type != "comment"]
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None
    values = statements[0].named_children
    return _unwrap(values[0]) if values else None


GLOB_STEPS = 2_000_000
"""What listing the walked files costs at most in one link (a file looked at, a state of a
pattern's match advanced by one character): past it a listing is not read (a finding at its
use), however many listings, files or wildcards a hostile repository holds."""
_MAX_GLOB_ALTERNATIVES = 64  # the patterns a glob's `{a,b}` groups spell, at most


def listed(
    found: Listing, files: Sequence[str], cwd: str, steps: int
) -> tuple[list[str] | None, int]:
    """The items of a listing: each walked script file below `cwd` its pattern matches (in
    path order, as glob sorts them: `files` is sorted), spelled as its `.map` spells it, and
    the steps of `steps` left; None where a spelling does not apply, the pattern spells more
    than `_MAX_GLOB_ALTERNATIVES` patterns or the steps run out. Matched by advancing the set
    of the pattern's states one character at a time (never a backtracking regular expression:
    `**/**/**/…` or `*a*a*a…` made one file's match take years)."""
    base = f"{cwd}/" if cwd else ""
    patterns = _glob_tokens(found.pattern)
    written = _pattern_text(found.pattern)
    if patterns is None or written is None:
        return None, steps
    below = base + (f"{written[0]}/" if written[0] else "")  # its folder: no wildcard above
    items: list[str] = []
    for file in files:
        steps -= 1
        if steps < 0:
            return None, steps
        if not file.startswith(below) or not file.endswith(_SCRIPTS):
            continue
        rel = file[len(base) :]
        matched = False
        for tokens in patterns:
            matched, steps = _glob_matches(tokens, rel, steps)
            if matched or steps < 0:
                break
        if steps < 0:
            return None, steps
        if not matched:
            continue
        spelled = spelled_for(found.spelling, rel) if found.spelling else rel
        if spelled is None:
            return None, steps
        items.append(spelled)
    return items, steps


def _glob_tokens(pattern: str) -> list[tuple[str, ...]] | None:
    """The patterns a glob spells, `{a,b}` groups written out (as `_glob_regex` reads them: to
    the first `}`), each a token per character: `G` for `**/`, `A` for another `**`, `S` for
    `*`, `Q` for `?`, else the character itself (a one-character token is a literal)."""
    alternatives: list[list[str]] = [[]]
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            step, index = ["G"], index + 3
        elif pattern.startswith("**", index):
            step, index = ["A"], index + 2
        elif pattern[index] in "*?":
            step, index = ["S" if pattern[index] == "*" else "Q"], index + 1
        elif pattern[index] == "{" and (end := pattern.find("}", index)) >= 0:
            options = pattern[index + 1 : end].split(",")
            if len(options) * len(alternatives) > _MAX_GLOB_ALTERNATIVES:
                return None
            written = [_glob_tokens(option) for option in options]
            if any(w is None or len(w) != 1 for w in written):
                return None
            grown = [a + list(w[0]) for a in alternatives for w in written if w is not None]
            alternatives, index = grown, end + 1
            continue
        else:
            step, index = ["\\" + pattern[index]], index + 1
        for alternative in alternatives:
            alternative.extend(step)
    return [tuple(a) for a in alternatives]


def _glob_matches(tokens: tuple[str, ...], path: str, steps: int) -> tuple[bool, int]:
    """Whether `tokens` match all of `path`, and the steps left (one per state per character).
    A state is a token's index, or `~index` inside a segment `**/` at `index` is matching."""
    end = len(tokens)
    reach = list(range(end + 1))  # past the wildcards from each index on (they match nothing)
    for index in range(end - 1, -1, -1):
        if tokens[index] in ("G", "A", "S"):
            reach[index] = reach[index + 1]
    states = set(range(0, reach[0] + 1))
    for char in path:
        steps -= len(states)
        if steps < 0 or not states:
            return False, steps
        after: set[int] = set()
        for state in states:
            if state < 0:  # inside a `**/` segment: more of it, or its `/`
                if char != "/":
                    after.add(state)
                else:
                    after.update(range(~state, reach[~state] + 1))
                continue
            if state == end:
                continue
            token = tokens[state]
            if token == "A" or (token == "S" and char != "/"):
                after.update(range(state, reach[state] + 1))
            elif token == "G":
                if char != "/":
                    after.add(~state)
            elif (token == "Q" and char != "/") or (len(token) == 2 and token[1] == char):
                after.update(range(state + 1, reach[state + 1] + 1))
        states = after
    return end in states, steps


def _bundled(reader: _Reader, call: _Node) -> None:
    """`import.meta.glob('./routes/*.ts', { eager: true })` (Vite: the pattern from the calling
    file's folder, `/…` from the project's root) or `require.context('./routes', true,
    /[.]js$/)` (webpack: every file below the folder, only its own with `false`, whose `./path`
    the expression matches), then what the code does with each module: `Object.values(mods)`
    or `Object.entries(mods)` looped over (`.forEach`, `for…of`), `ctx.keys().forEach(k =>
    … ctx(k) …)`. A pattern, option or flow not read is an `UNRESOLVED_ROUTE` at the call; a
    lazy glob (no `eager: true`: each module a function returning a promise) too."""
    function = _unwrap(call.child_by_field_id(reader.fields.function))
    loader = WEBPACK_CONTEXT if reader._text(function).endswith("context") else VITE_GLOB
    args = [_unwrap(a) or a for a in reader._arguments(call)]
    if not args:
        return
    here = posixpath.dirname(reader.path)
    pred: Pred | None = None
    folder = ""
    if loader == VITE_GLOB:
        written = reader._string(args[0]) if args[0].type == "string" else None
        options = args[1] if len(args) > 1 and args[1].type == "object" else None
        eager = reader._field(options, "eager") if options is not None else None
        if written is None:
            return _unread_bundled(reader, call, loader, "its pattern is computed")
        if not reader._text(function).endswith("Eager") and (
            eager is None or reader._text(eager) != "true"
        ):
            return _unread_bundled(
                reader, call, loader, "its modules load lazily (no `eager: true`)"
            )
        base = "" if written.startswith("/") else here
        pattern = _pattern_text(posixpath.normpath(posixpath.join(base, written.lstrip("/"))))
        if pattern is None:
            return _unread_bundled(reader, call, loader, "its pattern is not read")
        folder, regex = pattern
        pred = ("path", ("re", regex))
    else:
        written = reader._string(args[0]) if args[0].type == "string" else None
        deep = reader._text(args[1]) if len(args) > 1 else "true"
        expression = args[2] if len(args) > 2 else None
        keys = _js_regex(reader, expression) if expression is not None else r"^\./.*$"
        found = _normal(posixpath.join(here, written)) if written is not None else None
        if found is None or deep not in {"true", "false"} or keys is None:
            return _unread_bundled(
                reader, call, loader, "its folder, depth or expression is computed"
            )
        folder = found
        pred = ("ctx", folder, keys, deep == "true")
    flow = _bundled_flow(reader, call, loader)
    if flow is None:
        if _mentions_routes(reader, call.parent or call):
            _unread_bundled(reader, call, loader, "what the code does with each module")
        return
    callback, module = flow
    levels: list[Pred] = []
    if callback.type != "for_in_statement":
        early = _early_returns(reader, callback, _first_param(reader, callback))
        if early is None:
            return _unread_bundled(reader, call, loader, "a filter on its modules is not read")
    levels.append(pred)
    _emit(reader, call, folder, True, tuple(levels), callback, module_param=True,
          module_name=module)  # fmt: skip


def _unread_bundled(reader: _Reader, call: _Node, loader: str, what: str) -> None:
    """`_unread` for a bundler's loader whose result is held in a name: the router is looked
    for in the statements after it that use the name too (`for (const p in lazy) lazy[p]()
    .then((m) => app.use(m.default))`)."""
    declarator = call.parent
    target = declarator.child_by_field_id(reader.fields.name) if declarator else None
    statement = declarator.parent if declarator is not None else None
    block = statement.parent if statement is not None else None
    if _sink(reader, call) is None and target is not None and block is not None:
        name = reader._text(target)
        for later in block.named_children:
            if later.start_byte <= call.end_byte or not any(
                n.type == "identifier" and reader._text(n) == name for n in _descendants(later)
            ):
                continue
            use = next(
                (
                    n
                    for n in _descendants(later)
                    if n.type == "call_expression"
                    and (f := _unwrap(n.child_by_field_id(reader.fields.function))) is not None
                    and f.type == "member_expression"
                    and reader._text(f.child_by_field_id(reader.fields.property)) == "use"
                ),
                None,
            )
            if use is not None:
                function = _unwrap(use.child_by_field_id(reader.fields.function))
                assert function is not None
                owner_node = function.child_by_field_id(reader.fields.object)
                root = call
                while root.parent is not None:
                    root = root.parent
                owner = _owner(reader, owner_node, root) if owner_node is not None else None
                if owner is not None:
                    _replaced(reader, use, len(reader._arguments(use)))
                    reader.routes.append(
                        RouteDecl(owner, Opaque(), None, call.start_point.row + 1,
                                  methods_unknown=True,
                                  generated_by=f"{UNREAD}the folder loader {loader} over "
                                  f"`{reader._text(reader._arguments(call)[0])}`: {what}, so "
                                  "the modules it loads and the routers they export are not "
                                  "listed here")
                    )  # fmt: skip
                    return
    _unread(reader, call, loader, what)


def _bundled_flow(reader: _Reader, call: _Node, loader: str) -> tuple[_Node, str] | None:
    """Where a bundler loader's modules flow: the callback (or `for…of` loop) run per module
    and the name the module is held under there (the key's module for webpack: `ctx` is
    recorded as a name whose call gives the module, `_CALLED_MODULE`)."""
    declarator = call.parent
    held: _Node | None = call
    name = ""
    if declarator is not None and declarator.type == "variable_declarator":
        target = declarator.child_by_field_id(reader.fields.name)
        block = declarator.parent.parent if declarator.parent is not None else None
        if target is None or target.type != "identifier" or block is None:
            return None
        name = reader._text(target)
        held = next(
            (
                n
                for n in _descendants(block)
                if n.type == "identifier"
                and n.start_byte > declarator.end_byte
                and reader._text(n) == name
                and n.parent is not None
                and n.parent.type in {"arguments", "member_expression"}
            ),
            None,
        )
    if held is None:
        return None
    view = ""
    outer = held.parent
    if loader == WEBPACK_CONTEXT:  # `ctx.keys()` (or `require.context(...).keys()`)
        member = outer
        if (
            member is None
            or member.type != "member_expression"
            or reader._text(member.child_by_field_id(reader.fields.property)) != "keys"
            or member.parent is None
            or member.parent.type != "call_expression"
        ):
            return None
        held = member.parent
    elif outer is not None and outer.type == "arguments":  # `Object.values(mods)`
        looped = outer.parent
        function = looped.child_by_field_id(reader.fields.function) if looped else None
        view = reader._text(function)
        if looped is None or view not in {"Object.values", "Object.entries"}:
            return None
        held = looped
    else:
        return None
    loop = held.parent
    callback: _Node | None = None
    if loop is not None and loop.type == "for_in_statement":
        callback = loop
        target = loop.child_by_field_id(reader.fields.left)
    elif (
        loop is not None
        and loop.type == "member_expression"
        and reader._text(loop.child_by_field_id(reader.fields.property)) in {"forEach", "map"}
        and loop.parent is not None
        and loop.parent.type == "call_expression"
        and reader._arguments(loop.parent)
    ):
        callback = _function(reader, reader._arguments(loop.parent)[0])
        target = reader._first_parameter(callback) if callback is not None else None
    if callback is None or target is None:
        return None
    if loader == WEBPACK_CONTEXT:  # each key: the module is `ctx(key)`
        key = reader._text(target) if target.type == "identifier" else ""
        return (callback, f"{_CALLED_MODULE}{name}") if key and name else None
    if view == "Object.values" and target.type == "identifier":
        return callback, reader._text(target)
    if view == "Object.entries" and target.type == "array_pattern":
        named = [c for c in target.named_children if c.type != "comment"]
        if len(named) == 2 and named[1].type == "identifier":
            return callback, reader._text(named[1])
    return None


def _js_regex(reader: _Reader, node: _Node) -> str | None:
    """A regular-expression literal's pattern (its `i` flag kept), as Python reads it."""
    if node.type != "regex":
        return None
    pattern = node.child_by_field_id(reader.fields.pattern)
    flags = next((c for c in node.named_children if c.type == "regex_flags"), None)
    text = reader._text(pattern) if pattern is not None else None
    if text is None:
        return None
    return f"(?i){text}" if flags is not None and "i" in reader._text(flags) else text


def _pattern(reader: _Reader, node: _Node, base: str) -> tuple[str, str] | None:
    """A glob pattern's folder (its leading segments without a wildcard) and the regular
    expression its paths match (`/` and the repository path), or None when not read."""
    node = _unwrap(node) or node
    here = posixpath.dirname(reader.path)
    text: str | None = None
    if node.type == "string":
        written = reader._string(node)
        text = posixpath.join(base, written) if written is not None else None
    elif node.type == "template_string":
        match = re.fullmatch(r"`\$\{(__dirname|process\.cwd\(\))\}/([^`$]*)`", reader._text(node))
        if match is not None:
            text = posixpath.join(here if match.group(1) == "__dirname" else "", match.group(2))
    elif node.type == "call_expression":
        function = node.child_by_field_id(reader.fields.function)
        parts = reader._arguments(node)
        if function is not None and reader._text(function).rpartition(".")[2] in {
            "join",
            "resolve",
        }:
            head = reader._text(parts[0]) if parts else ""
            rest = [reader._string(p) for p in parts[1:]]
            if head in {"__dirname", "process.cwd()"} and None not in rest:
                text = posixpath.join(here if head == "__dirname" else "", *rest)  # type: ignore[arg-type]
    return _pattern_text(text) if text is not None else None


def _pattern_text(text: str) -> tuple[str, str] | None:
    """A glob pattern's folder and the regular expression its repository paths match."""
    text = text.removeprefix("./")
    segments = text.split("/")
    static: list[str] = []
    for segment in segments[:-1]:
        if any(c in segment for c in "*?[{!("):
            break
        static.append(segment)
    folder = _normal("/".join(static)) if static else ""
    if folder is None:
        return None
    return folder, "^/" + _glob_regex(text) + "$"


def _glob_regex(pattern: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:[^/]+/)*")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "{":
            end = pattern.find("}", index)
            if end < 0:
                out.append(re.escape(char))
            else:
                options = pattern[index + 1 : end].split(",")
                out.append("(?:" + "|".join(_glob_regex(o) for o in options) + ")")
                index = end + 1
                continue
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


# -- what the callback does with each module ---------------------------------------------------


def _emit(
    reader: _Reader,
    call: _Node,
    folder: str,
    recursive: bool,
    levels: tuple[Pred, ...],
    callback: _Node | None,
    *,
    module_param: bool,
    helper: tuple[str, int, str] | None = None,
    module_name: str | None = None,
) -> None:
    root = call
    while root.parent is not None:
        root = root.parent
    """One `LoadDecl` per mount (`X.use(m)`) and call (`m(args)`) the callback makes with the
    module; a loader with no callback (its result kept) mounts nothing here."""
    if callback is None:
        return
    param = module_name or _first_param(reader, callback)
    names = _module_names(reader, callback, param, module_param)
    line = call.start_point.row + 1
    scope = reader._enclosing(call)
    found = False
    for node in _descendants(callback):
        if node.type != "call_expression":
            continue
        function = _unwrap(node.child_by_field_id(reader.fields.function))
        args = reader._arguments(node)
        if function is None:
            continue
        if (
            function.type == "member_expression"
            and reader._text(function.child_by_field_id(reader.fields.property)) == "use"
        ):
            owner_node = function.child_by_field_id(reader.fields.object)
            mounted = [(i, _export_of(reader, a, names)) for i, a in enumerate(args)]
            hits = [(i, e) for i, e in mounted if e is not None]
            if owner_node is None or not hits:
                continue
            owner = _owner(reader, owner_node, root)
            if owner is None:
                continue
            index, export = hits[0]
            prefix = reader._expr(args[0]) if index > 0 else None
            spelled = _spelling(reader, args[0], param) if index > 0 and param else None
            _replaced(reader, node, len(args))
            reader.loads.append(
                LoadDecl(owner, folder, prefix, recursive, line, scope, loader=EACH_MODULE,
                         levels=levels, export=export, helper=helper,
                         name_prefix=spelled if not module_param else None)
            )  # fmt: skip
            found = True
        elif (
            function.type == "member_expression"
            and reader._text(function.child_by_field_id(reader.fields.property)) in _TABLE_CALLS
            and len(args) == 1
            and (table := _export_of(reader, args[0], names)) is not None
        ):  # `server.route(require(file))`: each module's export a route table
            owner_node = function.child_by_field_id(reader.fields.object)
            owner = _owner(reader, owner_node, root) if owner_node is not None else None
            if owner is None:
                continue
            at = node.start_point.row + 1
            reader.routes[:] = [r for r in reader.routes if not (r.table and r.line == at)]
            reader.loads.append(
                LoadDecl(owner, folder, None, recursive, line, scope, loader=EACH_MODULE,
                         levels=levels, export=table, helper=helper, table=True)
            )  # fmt: skip
            found = True
        elif _export_of(reader, function, names) is not None:
            export = _export_of(reader, function, names) or "default"
            passed = tuple(_passed(reader, a) for a in args)
            reader.loads.append(
                LoadDecl(Opaque(), folder, None, recursive, line, scope, loader=EACH_MODULE,
                         levels=levels, export=export, call_args=passed, helper=helper)
            )  # fmt: skip
            found = True
    if not found and _mentions_routes(reader, callback):
        _unread(reader, call, "a folder loader", "what its callback does with each module")


def _module_names(
    reader: _Reader, callback: _Node, param: str | None, module_param: bool
) -> dict[str, str]:
    """The names the callback holds a loaded module's export under, and which export: its
    parameter (a loader that passes modules), locals bound to `require(...)` of the entry (its
    default export) or to `require(...).name`."""
    names = {param: "default"} if module_param and param else {}
    for node in _descendants(callback):
        if node.type == "variable_declarator":
            value = _unwrap(node.child_by_field_id(reader.fields.value))
            target = node.child_by_field_id(reader.fields.name)
            if value is None or target is None or target.type != "identifier":
                continue
            if _is_require(reader, value) or _export_of(reader, value, names) == "default":
                names[reader._text(target)] = "default"
            elif value.type == "member_expression":
                inner = _unwrap(value.child_by_field_id(reader.fields.object))
                if inner is not None and _is_require(reader, inner):
                    attr = reader._text(value.child_by_field_id(reader.fields.property))
                    names[reader._text(target)] = attr
    return names


def _export_of(reader: _Reader, node: _Node | None, names: dict[str, str]) -> str | None:
    """Which export of the loaded module `node` is: `m`, `require(...)` (its default),
    `m.default`, `m.router` (named), each also as `.routes()`/`.middleware()`."""
    node = _unwrap(node)
    if node is None:
        return None
    if node.type == "call_expression":
        function = _unwrap(node.child_by_field_id(reader.fields.function))
        if _is_require(reader, node):
            return "default"
        if (
            function is not None
            and function.type == "identifier"
            and (f"{_CALLED_MODULE}{reader._text(function)}" in names)
        ):  # `ctx(key)` of a webpack context: the module at the key
            return "default"
        if function is not None and function.type == "member_expression":
            verb = reader._text(function.child_by_field_id(reader.fields.property))
            if verb in {"routes", "middleware"} and not reader._arguments(node):
                return _export_of(reader, function.child_by_field_id(reader.fields.object), names)
        return None
    if node.type == "identifier":
        return names.get(reader._text(node))
    if node.type == "member_expression":
        base = _export_of(reader, node.child_by_field_id(reader.fields.object), names)
        attr = reader._text(node.child_by_field_id(reader.fields.property))
        if base == "default":
            return attr
    return None


def _early_returns(reader: _Reader, callback: _Node, param: str | None) -> Pred | None:
    """The entries a callback keeps by returning early on the others (`if (f === 'index.js')
    return;` at its top): `_TRUE` when it has no such test, None when one is not read."""
    body = callback.child_by_field_id(reader.fields.body)
    if body is None or body.type != "statement_block" or param is None:
        return _TRUE
    kept: Pred = _TRUE
    for statement in body.named_children:
        if statement.type != "if_statement":
            break
        consequence = statement.child_by_field_id(reader.fields.consequence)
        if statement.child_by_field_id(reader.fields.alternative) is not None:
            break
        inner = consequence
        if inner is not None and inner.type == "statement_block" and len(inner.named_children) == 1:
            inner = inner.named_children[0]
        test = _test(reader, statement.child_by_field_id(reader.fields.condition), param)
        if inner is None or inner.type not in {"return_statement", "continue_statement"}:
            if len(body.named_children) == 1:  # `for (f of list) { if (f.endsWith('.js')) {…} }`
                return test if test is not None else None
            break
        if test is None:
            return None
        kept = ("not", test) if kept == _TRUE else ("and", kept, ("not", test))
    return kept


def _owner(reader: _Reader, node: _Node, root: _Node) -> Expr | None:
    """The router the callback mounts on; `Cls.app` set from a static method's parameter
    (`static init(app) { Cls.app = app }`) is that parameter."""
    owner = reader._owner(node)
    if isinstance(owner, Sym) and len(owner.path) == 2:
        head, attr = owner.path
        pattern = rb"\b" + re.escape(f"{head}.{attr}".encode()) + rb"\s*=\s*(\w+)\s*[;\n]"
        for match in re.finditer(pattern, reader.source):
            value = root.descendant_for_byte_range(match.start(1), match.end(1))
            if value is not None and value.type == "identifier":
                param = reader._param(value, reader._text(value))
                if param is not None:
                    return param
    return owner


def _spelling(reader: _Reader, node: _Node, param: str) -> tuple[tuple[str, ...], ...] | None:
    """A mount path spelled from the entry's name `param` (`` `/${f.split('.')[0]}` ``, `'/' +
    f.replace('.js', '')`, `path.basename(f, '.js')`) as data, or None when it names no entry
    or an operation not read."""
    node = _unwrap(node) or node
    if param.encode() not in reader.source[node.start_byte : node.end_byte]:
        return None
    if node.type == "string":
        value = reader._string(node)
        return (("lit", value),) if value is not None else None
    if node.type == "template_string":
        parts: list[tuple[str, ...]] = []
        for child in node.named_children:
            if child.type == "string_fragment":
                parts.append(("lit", reader._text(child)))
            elif child.type == "template_substitution" and child.named_children:
                inner = _name_ops(reader, child.named_children[0], param)
                if inner is None:
                    return None
                parts.append(inner)
            elif child.type != "escape_sequence":
                return None
        return tuple(parts)
    if (
        node.type == "binary_expression"
        and reader._text(node.child_by_field_id(reader.fields.operator)) == "+"
    ):
        left = node.child_by_field_id(reader.fields.left)
        right = node.child_by_field_id(reader.fields.right)
        a = _spelling_part(reader, left, param) if left is not None else None
        b = _spelling_part(reader, right, param) if right is not None else None
        return (*a, *b) if a is not None and b is not None else None
    ops = _name_ops(reader, node, param)
    return (ops,) if ops is not None else None


def _spelling_part(reader: _Reader, node: _Node, param: str) -> tuple[tuple[str, ...], ...] | None:
    node = _unwrap(node) or node
    if node.type == "string":
        value = reader._string(node)
        return (("lit", value),) if value is not None else None
    return _spelling(reader, node, param)


def _name_ops(reader: _Reader, node: _Node, param: str) -> tuple[str, ...] | None:
    """`f`, `f.split('.')[0]`, `f.slice(0, -3)`, `f.replace('.js', '')`, `f.replace(/\\.js$/,
    '')`, `f.toLowerCase()`, `path.basename(f, '.js')`, `path.parse(f).name`, chained."""
    node = _unwrap(node) or node
    if node.type == "identifier":
        return ("name",) if reader._text(node) == param else None
    if node.type == "subscript_expression":
        index = node.child_by_field_id(reader.fields.index)
        inner = _unwrap(node.child_by_field_id(reader.fields.object))
        if inner is None or index is None or index.type != "number":
            return None
        function = (
            inner.child_by_field_id(reader.fields.function)
            if inner.type == "call_expression"
            else None
        )
        if function is None or function.type != "member_expression":
            return None
        if reader._text(function.child_by_field_id(reader.fields.property)) != "split":
            return None
        args = reader._arguments(inner)
        sep = reader._string(args[0]) if len(args) == 1 else None
        receiver = function.child_by_field_id(reader.fields.object)
        base = _name_ops(reader, receiver, param) if receiver is not None else None
        if sep is None or base is None:
            return None
        return (*base, "split", sep, reader._text(index))
    if node.type == "member_expression":  # `path.parse(f).name`
        inner = _unwrap(node.child_by_field_id(reader.fields.object))
        if reader._text(node.child_by_field_id(reader.fields.property)) != "name" or inner is None:
            return None
        function = (
            inner.child_by_field_id(reader.fields.function)
            if inner.type == "call_expression"
            else None
        )
        args = reader._arguments(inner) if inner.type == "call_expression" else []
        if (
            function is None
            or reader._text(function).rpartition(".")[2] != "parse"
            or len(args) != 1
        ):
            return None
        base = _name_ops(reader, args[0], param)
        return (*base, "stem") if base is not None else None
    if node.type != "call_expression":
        return None
    function = _unwrap(node.child_by_field_id(reader.fields.function))
    args = reader._arguments(node)
    if function is None:
        return None
    if function.type != "member_expression":
        return None
    verb = reader._text(function.child_by_field_id(reader.fields.property))
    receiver = function.child_by_field_id(reader.fields.object)
    if verb == "basename" and args:  # `path.basename(f, '.js')`
        base = _name_ops(reader, args[0], param)
        ext = reader._string(args[1]) if len(args) > 1 else ""
        return (*base, "basename", ext) if base is not None and ext is not None else None
    base = _name_ops(reader, receiver, param) if receiver is not None else None
    if base is None:
        return None
    if verb in {"toLowerCase", "toUpperCase"} and not args:
        return (*base, verb)
    if (
        verb == "slice"
        and 1 <= len(args) <= 2
        and all(_integer(reader, a) is not None for a in args)
    ):
        bounds = [str(_integer(reader, a)) for a in args]
        return (*base, "slice", bounds[0], bounds[1] if len(bounds) > 1 else "")
    if verb == "replace" and len(args) == 2:
        with_ = reader._string(args[1])
        first = _unwrap(args[0])
        if with_ is None or first is None or "$" in with_:
            return None
        if first.type == "regex":
            regex = _regex(reader, first)
            flags = [c for c in first.named_children if c.type == "regex_flags"]
            every = "g" if flags and "g" in reader._text(flags[0]) else ""
            return (*base, "sub", str(regex[1]), with_, every) if regex is not None else None
        text = reader._string(first)
        return (*base, "replace", text, with_) if text is not None else None
    return None


def _integer(reader: _Reader, node: _Node) -> int | None:
    text = reader._text(_unwrap(node) or node).replace(" ", "")
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def spelled_for(parts: tuple[tuple[str, ...], ...], entry: str) -> str | None:
    """The mount path `parts` spell for the entry named `entry` (its operations as JavaScript
    runs them), or None when one does not apply."""
    out: list[str] = []
    for part in parts:
        if part[0] == "lit":
            out.append(part[1])
            continue
        value = entry
        ops = list(part[1:])
        while ops:
            op = ops.pop(0)
            if op == "split":
                sep, index = ops.pop(0), int(ops.pop(0))
                pieces = value.split(sep) if sep else list(value)
                if index >= len(pieces):
                    return None
                value = pieces[index]
            elif op == "slice":
                start, end = int(ops.pop(0)), ops.pop(0)
                value = value[start : int(end)] if end else value[start:]
            elif op == "replace":
                old, new = ops.pop(0), ops.pop(0)
                value = value.replace(old, new, 1)
            elif op == "sub":
                pattern, new, every = ops.pop(0), ops.pop(0), ops.pop(0)
                try:
                    value = re.sub(
                        pattern, new.replace("\\", "\\\\"), value, count=0 if every else 1
                    )
                except re.error:
                    return None
            elif op == "basename":  # of a listed path, too (glob): its last segment
                ext = ops.pop(0)
                value = posixpath.basename(value)
                value = (
                    value[: -len(ext)] if ext and value.endswith(ext) and value != ext else value
                )
            elif op == "stem":
                value = posixpath.basename(value)
                value = posixpath.splitext(value)[0] if not value.startswith(".") else value
            elif op == "toLowerCase":
                value = value.lower()
            elif op == "toUpperCase":
                value = value.upper()
        out.append(value)
    return "".join(out)


def _replaced(reader: _Reader, use: _Node, count: int) -> None:
    """The reader's own reading of a `use` the loader writes out per module (`app.use(m)`,
    `m` a callback's parameter it cannot see through) dropped: it would be a finding."""
    line = use.start_point.row + 1
    reader.uses[:] = [u for u in reader.uses if u.line != line or len(u.args) != count]


def _passed(reader: _Reader, node: _Node) -> Expr:
    """An argument the callback passes each module: a parameter of a function around it
    (`(server, options) => ... route(server, options)`) is that parameter."""
    inner = _unwrap(node)
    if inner is not None and inner.type == "identifier":
        param = reader._param(inner, reader._text(inner))
        if param is not None:
            return param
    return reader._expr(node) or Opaque()


# -- helpers ---------------------------------------------------------------------------------


def _chain(reader: _Reader, call: _Node, levels: list[Pred]) -> _Node | None:
    """The callback of the `.forEach`/`.map` the listing `call` flows into, its `.filter`s
    read into one predicate appended to `levels` (None in it: a filter not read)."""
    preds: list[Pred] = []
    unread = False
    node = _held(reader, call)
    while True:
        loop = node.parent
        if (
            loop is not None
            and loop.type == "for_in_statement"
            and node == loop.child_by_field_id(reader.fields.right)
        ):  # `for (const f of listing) { ... }`
            early = _early_returns(reader, loop, _first_param(reader, loop))
            unread = unread or early is None
            preds.append(early or _TRUE)
            levels.append(_all(preds) if not unread else None)  # type: ignore[arg-type]
            return loop
        member = node.parent
        outer = member.parent if member is not None else None
        if member is None or member.type != "member_expression" or outer is None:
            break
        if outer.type != "call_expression":
            break
        verb = reader._text(member.child_by_field_id(reader.fields.property))
        args = reader._arguments(outer)
        if verb == "filter" and args:
            pred = _predicate(reader, args[0])
            unread = unread or pred is None
            preds.append(pred or _TRUE)
        elif verb in {"forEach", "map"} and args:
            function = _function(reader, args[0])
            early = (
                _early_returns(reader, function, _first_param(reader, function))
                if function is not None
                else _TRUE
            )
            unread = unread or early is None
            preds.append(early or _TRUE)
            levels.append(_all(preds) if not unread else None)  # type: ignore[arg-type]
            return function
        else:
            return None
        node = outer
    return None


def _held(reader: _Reader, call: _Node) -> _Node:
    """Where a listing flows: the call itself, or, for `const files = fs.readdirSync(dir)`,
    the first later use of `files` in the same block (`files.forEach(...)`, `for (f of
    files)`)."""
    declarator = call.parent
    if declarator is None or declarator.type != "variable_declarator":
        return call
    target = declarator.child_by_field_id(reader.fields.name)
    block = declarator.parent.parent if declarator.parent is not None else None
    if target is None or target.type != "identifier" or block is None:
        return call
    name = reader._text(target)
    for node in _descendants(block):
        if (
            node.type == "identifier"
            and node.start_byte > declarator.end_byte
            and reader._text(node) == name
            and node.parent is not None
            and node.parent.type in {"member_expression", "for_in_statement"}
        ):
            return node
    return call


def _inner_readdir(reader: _Reader, callback: _Node, param: str) -> _Node | None:
    """A `readdirSync` of the entry inside the callback's body (a folder listed per entry)."""
    body = callback.child_by_field_id(reader.fields.body) or callback
    for node in _descendants(body):
        if node.type != "call_expression":
            continue
        function = node.child_by_field_id(reader.fields.function)
        if function is None or function.type != "member_expression":
            continue
        if reader._text(function.child_by_field_id(reader.fields.property)) != "readdirSync":
            continue
        if any(n.type == "identifier" and reader._text(n) == param for n in _descendants(node)):
            return node
    return None


def _requires_entry(reader: _Reader, callback: _Node, param: str) -> bool:
    """Whether the callback requires the entry it is given (`require(join(dir, f))`)."""
    for node in _descendants(callback):
        if (
            node.type == "call_expression"
            and _is_require(reader, node)
            and param.encode() in reader.source[node.start_byte : node.end_byte]
        ):
            return True
    return False


def _is_require(reader: _Reader, node: _Node) -> bool:
    if node.type != "call_expression":
        return False
    function = node.child_by_field_id(reader.fields.function)
    return function is not None and reader._text(function) == "require"


def _mentions_routes(reader: _Reader, callback: _Node) -> bool:
    text = reader.source[callback.start_byte : callback.end_byte]
    return b".use(" in text or b"routes(" in text


def _is_outer(reader: _Reader, call: _Node) -> bool:
    """Whether `call` is no nested listing (`readdirSync` inside another's callback)."""
    node = call.parent
    while node is not None:
        if node.type == "call_expression" and node is not call:
            function = node.child_by_field_id(reader.fields.function)
            if function is not None and function.type == "member_expression":
                verb = reader._text(function.child_by_field_id(reader.fields.property))
                arguments = node.child_by_field_id(reader.fields.arguments)
                inside = arguments is not None and arguments.start_byte <= call.start_byte
                if (
                    verb in {"forEach", "map"}
                    and inside
                    and b"readdirSync" in reader.source[function.start_byte : function.end_byte]
                ):
                    return False
        node = node.parent
    return True


def _function(reader: _Reader, node: _Node | None) -> _Node | None:
    """The function `node` is, or names (a declaration or `const` in an enclosing scope)."""
    node = _unwrap(node)
    if node is None:
        return None
    if node.type in _FUNCTION_TYPES:
        return node
    if node.type != "identifier":
        return None
    name = reader._text(node)
    scope = node.parent
    while scope is not None:
        if scope.type in {"statement_block", "program"}:
            for statement in scope.named_children:
                if statement.type == "function_declaration":
                    target = statement.child_by_field_id(reader.fields.name)
                    if target is not None and reader._text(target) == name:
                        return statement
        scope = scope.parent
    declared = reader._declared(node)
    return declared if declared is not None and declared.type in _FUNCTION_TYPES else None


def _option(reader: _Reader, options: _Node, name: str) -> _Node | None:
    """An option's value, a method written in the object (`visit(m) { ... }`) too."""
    for prop in options.named_children:
        if prop.type == "method_definition":
            key = prop.child_by_field_id(reader.fields.name)
            if key is not None and reader._text(key) == name:
                return prop
    return reader._field(options, name)


def _first_param(reader: _Reader, function: _Node) -> str | None:
    if function.type == "for_in_statement":  # `for (const f of listing)`: its variable
        left = function.child_by_field_id(reader.fields.left)
        return reader._text(left) if left is not None and left.type == "identifier" else None
    single = function.child_by_field_id(reader.fields.parameter)
    if single is not None:
        return reader._text(single)
    params = function.child_by_field_id(reader.fields.parameters)
    for param in params.named_children if params is not None else []:
        target = param.child_by_field_id(reader.fields.pattern) or param
        return reader._text(target) if target.type == "identifier" else None
    return None


def _predicate(reader: _Reader, node: _Node) -> Pred | None:
    """A `.filter` callback on an entry's name as data, or None when it is not read."""
    function = _function(reader, node)
    if function is None:
        return None
    param = _first_param(reader, function)
    body = function.child_by_field_id(reader.fields.body)
    if body is not None and body.type == "statement_block":
        returns = [c for c in body.named_children if c.type == "return_statement"]
        if len(returns) != 1 or len(body.named_children) != 1:
            return None
        body = returns[0].named_children[0] if returns[0].named_children else None
    return _test(reader, body, param) if param is not None else None


def _test(reader: _Reader, node: _Node | None, name: str) -> Pred | None:
    node = _unwrap(node)
    if node is None:
        return None
    text = reader._text(node)
    if node.type == "unary_expression":
        operator = reader._text(node.child_by_field_id(reader.fields.operator))
        inner = _test(reader, node.child_by_field_name("argument"), name)
        if operator == "!" and inner is not None:
            return ("not", inner)
        if operator == "~":  # `~f.search(re)`, `~f.indexOf(s)`: found
            return _found(reader, node.child_by_field_name("argument"), name)
        return None
    if node.type == "binary_expression":
        operator = reader._text(node.child_by_field_id(reader.fields.operator))
        left = _unwrap(node.child_by_field_id(reader.fields.left))
        right = _unwrap(node.child_by_field_id(reader.fields.right))
        if operator in {"&&", "||"}:
            a, b = _test(reader, left, name), _test(reader, right, name)
            if a is None or b is None:
                return None
            return ("and" if operator == "&&" else "or", a, b)
        if operator in {"===", "==", "!==", "!="}:
            negate = operator.startswith("!")
            pred = (
                _compare(reader, left, right, name)
                or _compare(reader, right, left, name)
                or _index_compare(reader, left, right, operator[-2:], name)
            )
            if pred is None:
                return None
            return ("not", pred) if negate else pred
        if operator in {">", ">=", "<", "<="}:
            return _index_compare(reader, left, right, operator, name)
        return None
    if node.type == "call_expression":
        function = _unwrap(node.child_by_field_id(reader.fields.function))
        args = reader._arguments(node)
        if function is None or function.type != "member_expression" or len(args) != 1:
            return None
        verb = reader._text(function.child_by_field_id(reader.fields.property))
        receiver = _unwrap(function.child_by_field_id(reader.fields.object))
        if receiver is None:
            return None
        if verb in {"endsWith", "startsWith", "includes"} and reader._text(receiver) == name:
            value = reader._string(args[0])
            kind = {"endsWith": "ends", "startsWith": "starts", "includes": "has"}[verb]
            return (kind, value) if value is not None else None
        if verb == "test" and reader._text(args[0]) == name and receiver.type == "regex":
            return _regex(reader, receiver)
        if verb == "match" and reader._text(receiver) == name:
            return _regex(reader, args[0])
        return None
    if text == "true":
        return _TRUE
    return None


def _compare(reader: _Reader, left: _Node | None, right: _Node | None, name: str) -> Pred | None:
    """`f === 'index.js'`, `path.extname(f) === '.js'`."""
    if left is None or right is None:
        return None
    value = reader._string(right)
    if value is None:
        return None
    if reader._text(left) == name:
        return ("eq", value)
    if left.type == "call_expression":
        function = left.child_by_field_id(reader.fields.function)
        args = reader._arguments(left)
        if (
            function is not None
            and reader._text(function).rpartition(".")[2] == "extname"
            and len(args) == 1
            and reader._text(args[0]) == name
        ):
            return ("ext", value)
        if (
            function is not None
            and reader._text(function) in {f"{name}.indexOf", f"{name}.search"}
            and right.type == "number"
        ):
            return None
    return None


def _index_compare(
    reader: _Reader, left: _Node | None, right: _Node | None, operator: str, name: str
) -> Pred | None:
    """`f.indexOf('.') !== 0`-style tests, as `indexOf(s) > -1`, `>= 0`, `< 0`, `=== -1`."""
    if left is None or right is None or right.type not in {"number", "unary_expression"}:
        return None
    number = reader._text(right)
    found = _found(reader, left, name)
    if found is None:
        return None
    if (operator, number) in {(">", "-1"), (">=", "0"), ("!=", "-1")}:
        return found
    if (operator, number) in {("<", "0"), ("<=", "-1"), ("==", "-1")}:
        return ("not", found)
    if (operator, number) in {("==", "0")} and found[0] == "has":  # `f.indexOf('.') === 0`
        return ("starts", found[1])
    if (operator, number) in {("!=", "0")} and found[0] == "has":
        return ("not", ("starts", found[1]))
    return None


def _found(reader: _Reader, node: _Node | None, name: str) -> Pred | None:
    """`f.indexOf(s)` / `f.search(re)` read as 'found anywhere'."""
    node = _unwrap(node)
    if node is None or node.type != "call_expression":
        return None
    function = node.child_by_field_id(reader.fields.function)
    args = reader._arguments(node)
    if function is None or len(args) != 1:
        return None
    if reader._text(function) == f"{name}.indexOf":
        value = reader._string(args[0])
        return ("has", value) if value is not None else None
    if reader._text(function) == f"{name}.search":
        return _regex(reader, args[0])
    return None


def _regex(reader: _Reader, node: _Node | None) -> Pred | None:
    node = _unwrap(node)
    if node is None or node.type != "regex":
        return None
    pattern = node.child_by_field_id(reader.fields.pattern)
    flags = [c for c in node.named_children if c.type == "regex_flags"]
    text = reader._text(pattern) if pattern is not None else ""
    return ("re", ("(?i)" if flags and "i" in reader._text(flags[0]) else "") + text)


def _all(preds: list[Pred]) -> Pred:
    out: Pred = _TRUE
    for pred in preds:
        out = pred if out == _TRUE else ("and", out, pred)
    return out


def _folder(reader: _Reader, node: _Node | None) -> str | None:
    """The repository folder a loader is given: `__dirname`, `path.join(__dirname, 'x')`,
    `` `${process.cwd()}/x` ``, `path.join(process.cwd(), 'x')`, `'./x'` (from where node is
    started: the repository's root), or a `const` in scope holding one of those."""
    node = _unwrap(node)
    if node is None:
        return None
    here = posixpath.dirname(reader.path)
    text = reader._text(node)
    if text == "__dirname":
        return here
    if node.type == "identifier":
        return _folder(reader, reader._declared(node))
    if node.type == "string":
        value = reader._string(node)
        return _normal(value) if value is not None else None
    if node.type == "template_string":
        match = re.fullmatch(r"`\$\{(__dirname|process\.cwd\(\))\}(/[\w./-]*)`", text)
        if match is None:
            return None
        base = here if match.group(1) == "__dirname" else ""
        return _normal(posixpath.join(base, match.group(2).lstrip("/")))
    if node.type == "binary_expression":
        match = re.fullmatch(r"(__dirname|process\.cwd\(\))\s*\+\s*['\"](/[\w./-]*)['\"]", text)
        if match is None:
            return None
        base = here if match.group(1) == "__dirname" else ""
        return _normal(posixpath.join(base, match.group(2).lstrip("/")))
    if node.type == "call_expression":
        found = reader._folder(node)
        if found is not None:
            return found
        function = node.child_by_field_id(reader.fields.function)
        args = reader._arguments(node)
        if (
            function is None
            or reader._text(function).rpartition(".")[2] not in {"join", "resolve"}
            or not args
            or reader._text(args[0]) != "process.cwd()"
        ):
            return None
        parts = [reader._string(a) for a in args[1:]]
        if any(p is None for p in parts):
            return None
        return _normal(posixpath.join("", *parts))  # type: ignore[arg-type]
    return None


def _helper(reader: _Reader, node: _Node, base: str) -> tuple[str, int, str] | None:
    """A folder that is a parameter of the named function around the loader (`function
    loadRoutes(app, dir) { fs.readdirSync(dir)... }`, an arrow held in a `const` too): the
    function's name, the parameter's index, and what a relative folder is read from."""
    node = _unwrap(node) or node
    if node.type != "identifier":
        return None
    name = reader._text(node)
    scope = node.parent
    while scope is not None:
        if scope.type in _FUNCTION_TYPES:
            index = reader._param_index(scope, name)
            if index is None:
                scope = scope.parent
                continue
            named = scope.child_by_field_id(reader.fields.name)
            holder = scope.parent
            if named is None and holder is not None and holder.type == "variable_declarator":
                named = holder.child_by_field_id(reader.fields.name)
            return (reader._text(named), index, base) if named is not None else None
        scope = scope.parent
    return None


def _normal(path: str) -> str | None:
    joined = posixpath.normpath(path)
    if joined.startswith("..") or joined.startswith("/"):
        return None
    return "" if joined == "." else joined


def _unread(reader: _Reader, call: _Node, loader: str, what: str) -> None:
    """A loader the scan cannot follow: a route of unknown path at the call on the router its
    callback mounts on (or passes each module), an `UNRESOLVED_ROUTE` naming the folder."""
    args = reader._arguments(call)
    folder = reader._text(args[1] if loader == REQUIRE_DIRECTORY and len(args) > 1 else
                          args[0] if args else call)  # fmt: skip
    first = _unwrap(args[0]) if args and loader == REQUIRE_ALL else None
    named = (
        reader._field(first, "dirname") if first is not None and first.type == "object" else None
    )
    folder = reader._text(named) if named is not None else folder
    owner = _sink(reader, call)
    if owner is None:
        return  # nothing mounts or is given a router: the modules' routers stay flagged
    reader.routes.append(
        RouteDecl(owner, Opaque(), None, call.start_point.row + 1, methods_unknown=True,
                  generated_by=f"{UNREAD}the folder loader {loader} over `{folder}`: {what}, "
                  "so the modules it loads and the routers they export are not listed here")
    )  # fmt: skip


def _sink(reader: _Reader, call: _Node) -> Expr | None:
    """The router a loader's callbacks mount each module on (`app.use(m)`), or give it to
    (`require(f)(app)`): searched in the whole chain around `call` and the functions its
    arguments name."""
    top = call
    while (
        top.parent is not None
        and top.parent.type == "member_expression"
        and top.parent.parent is not None
        and top.parent.parent.type == "call_expression"
    ):
        top = top.parent.parent
    places = [top]
    for node in _descendants(top):
        if node.type == "identifier" and node.parent is not None and node.parent.type == "pair":
            function = _function(reader, node)
            if function is not None:
                places.append(function)
    root = call
    while root.parent is not None:
        root = root.parent
    for place in places:
        for node in _descendants(place):
            if node.type != "call_expression":
                continue
            function = _unwrap(node.child_by_field_id(reader.fields.function))
            args = reader._arguments(node)
            if function is None or not args:
                continue
            if (
                function.type == "member_expression"
                and reader._text(function.child_by_field_id(reader.fields.property)) == "use"
            ):
                owner_node = function.child_by_field_id(reader.fields.object)
                owner = _owner(reader, owner_node, root) if owner_node is not None else None
                if owner is not None:
                    _replaced(reader, node, len(args))
                    return owner
            elif function.type == "call_expression" and _is_require(reader, function):
                return _passed(reader, args[0])
    return None


def _unwrap(node: _Node | None) -> _Node | None:
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _descendants(node: _Node) -> list[_Node]:
    out: list[_Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(reversed(current.named_children))
    return out


# -- the linker's side: the folder walked by the same rules -------------------------------------


def matches(pred: Pred, name: str, full: str = "") -> bool:
    """Whether an entry named `name` (at repository path `full`) passes the filter."""
    kind = pred[0]
    if kind == "path":
        return matches(pred[1], f"/{full}", full)  # type: ignore[arg-type]
    if kind == "below":  # the path below a folder (a glob's `cwd`), as glob gives it
        folder = str(pred[1])
        below = full[len(folder) + 1 :] if full.startswith(f"{folder}/") else full
        return matches(pred[2], below, full)  # type: ignore[arg-type]
    if kind == "ctx":  # webpack's keys: `./` and the path below the folder, then the regex
        folder, regex, deep = str(pred[1]), str(pred[2]), bool(pred[3])
        below = full[len(folder) + 1 :] if folder else full
        if not deep and "/" in below:
            return False
        try:
            return re.search(regex, f"./{below}") is not None
        except re.error:
            return False
    if kind == "true":
        return True
    if kind == "eq":
        return name == pred[1]
    if kind == "ends":
        return name.endswith(str(pred[1]))
    if kind == "starts":
        return name.startswith(str(pred[1]))
    if kind == "has":
        return str(pred[1]) in name
    if kind == "ext":
        return posixpath.splitext(name)[1] == pred[1]
    if kind == "re":
        try:
            return re.search(str(pred[1]), name) is not None
        except re.error:
            return False
    if kind == "not":
        return not matches(pred[1], name, full)  # type: ignore[arg-type]
    if kind in {"and", "or"}:
        a = matches(pred[1], name, full)  # type: ignore[arg-type]
        b = matches(pred[2], name, full)  # type: ignore[arg-type]
        return (a and b) if kind == "and" else (a or b)
    return False


def walked(load: LoadDecl, files: Collection[str]) -> list[tuple[str, str]]:
    """The script files a folder loader requires, by its levels' filters on each entry's name
    (a folder entry required as its `index` script), every level below for a recursive one."""
    root = load.folder.rstrip("/")
    found: list[tuple[str, str]] = []  # (file, the entry's name the listing gives)
    entries: dict[str, tuple[set[str], set[str]]] = {}  # folder -> (files, subfolders)
    for name in files:
        if root and not name.startswith(f"{root}/"):
            continue
        parts = (name[len(root) + 1 :] if root else name).split("/")
        folder = root
        for part in parts[:-1]:
            entries.setdefault(folder, (set(), set()))[1].add(part)
            folder = f"{folder}/{part}" if folder else part
        entries.setdefault(folder, (set(), set()))[0].add(parts[-1])

    def join(folder: str, name: str) -> str:
        return f"{folder}/{name}" if folder else name

    def visit(folder: str, depth: int) -> None:
        names, subs = entries.get(folder, (set(), set()))
        pred = load.levels[min(depth, len(load.levels) - 1)] if load.levels else _TRUE
        last = load.dir_prefix or depth >= len(load.levels) - 1
        for name in sorted(names | subs):
            folder_entry = name in subs and name not in names
            if load.dir_prefix and folder_entry:  # a recursive loader walks every folder
                visit(join(folder, name), depth)
                continue
            if not matches(pred, name, join(folder, name)):
                continue
            if not last:
                if folder_entry:
                    visit(join(folder, name), depth + 1)
                continue
            if folder_entry:  # `require(dir/name)` of a folder: its index script
                inner = entries.get(join(folder, name), (set(), set()))[0]
                index = next((f"index{e}" for e in _SCRIPTS if f"index{e}" in inner), None)
                if index is not None:
                    found.append((join(join(folder, name), index), name))
            elif name.endswith(_SCRIPTS) and not name.endswith(".d.ts"):
                found.append((join(folder, name), name))

    visit(root, 0)
    return found


def helper_folders(
    path: str, load: LoadDecl, modules: Mapping[str, ModuleFacts]
) -> list[str] | None:
    """The folders the callers of the helper around a loader pass it (`loadRoutes(app,
    __dirname + '/routes')`, `loadRoutes(app, './routes')`), each a repository folder; None
    when no scanned call reaches it or one passes a folder not read."""
    if load.helper is None:
        return None
    name, index, base = load.helper
    found: list[str] = []
    for file, facts in modules.items():
        for call in facts.invocations:
            if not _calls_helper(file, facts, call.callee, path, name):
                continue
            passed = call.args[index] if index < len(call.args) else None
            folder = _passed_folder(file, path, passed, base)
            if folder is None:
                return None
            if folder not in found:
                found.append(folder)
    return found or None


def _calls_helper(file: str, facts: ModuleFacts, callee: Expr, target: str, name: str) -> bool:
    """Whether `callee`, written in `file`, is the function `name` of `target`: by its name in
    that file, or imported from it (by name, or as a member of its module)."""
    if isinstance(callee, Sym) and len(callee.path) == 1:
        if file == target and callee.path[0] == name:
            return True
        bound = facts.bindings.get(callee.path[0])
        return (
            isinstance(bound, ImportRef)
            and bound.attr == name
            and _resolves(file, bound.module, target)
        )
    if isinstance(callee, Sym) and len(callee.path) == 2 and callee.path[1] == name:
        bound = facts.bindings.get(callee.path[0])
        return (
            isinstance(bound, ImportRef)
            and bound.attr in {"default", None}
            and _resolves(file, bound.module, target)
        )
    if isinstance(callee, ImportRef):
        return callee.attr == name and _resolves(file, callee.module, target)
    return False


def _resolves(file: str, spec: str, target: str) -> bool:
    if not spec.startswith("."):
        return False
    base = posixpath.normpath(posixpath.join(posixpath.dirname(file), spec))
    candidates = {base, *(base + e for e in _SCRIPTS), *(f"{base}/index{e}" for e in _SCRIPTS)}
    return target in candidates


def _passed_folder(file: str, helper_file: str, passed: Expr | None, base: str) -> str | None:
    """A folder a call passes: `'./x'` (from the working directory, or the helper's own file
    for `require-directory`), `__dirname`, `__dirname + '/x'`, as the caller's file has them."""
    here = posixpath.dirname(file)
    if isinstance(passed, Lit):
        start = posixpath.dirname(helper_file) if base == "file" else ""
        return _normal(posixpath.join(start, passed.value))
    if isinstance(passed, Sym) and passed.path == ("__dirname",):
        return here
    if (
        isinstance(passed, Concat)
        and len(passed.parts) == 2
        and passed.parts[0] == Sym(("__dirname",))
        and isinstance(passed.parts[1], Lit)
    ):
        return _normal(posixpath.join(here, passed.parts[1].value.lstrip("/")))
    return None


def helper_gap(load: LoadDecl) -> RouteDecl:
    """A loader whose folder its helper's callers do not show: a finding at the loader."""
    name, index, _ = load.helper or ("", 0, "")
    owner = load.owner if load.call_args is None else (load.call_args or (Opaque(),))[0]
    detail = (
        f"{UNREAD}the folder loader's folder is parameter {index + 1} of `{name}`, and no "
        "scanned call of it passes a folder the scan reads: the modules it loads and the "
        "routers they export are not listed here"
    )
    return RouteDecl(owner, Opaque(), None, load.line, methods_unknown=True, generated_by=detail)


def written_out(
    path: str, load: LoadDecl, files: Collection[str]
) -> tuple[list[UseDecl], list[Invocation | RouteDecl], list[str]]:
    """The mounts, calls and route tables a folder loader makes, one per module it requires,
    as `app.use(require(file))`, `require(file)(app)` or `server.route(require(file))`
    written at the loader's line; and those files."""
    uses: list[UseDecl] = []
    calls: list[Invocation | RouteDecl] = []
    loaded = walked(load, files)
    for file, entry in loaded:
        spec = posixpath.relpath(file, posixpath.dirname(path) or ".")
        spec = spec if spec.startswith(".") else f"./{spec}"
        child = ImportRef(spec, load.export or "default", path)
        if load.table:
            calls.append(RouteDecl(load.owner, child, None, load.line, table=True))
            continue
        if load.call_args is not None:
            calls.append(Invocation(child, load.call_args, (), load.line, scope=load.scope))
            continue
        args: tuple[tuple[Expr | None, Auth], ...] = ((child, Auth((child,))),)
        prefix = load.prefix
        if load.name_prefix is not None:
            spelled = spelled_for(load.name_prefix, entry)
            prefix = Lit(spelled) if spelled is not None else prefix
        if prefix is not None:
            args = ((prefix, Auth((prefix,))), *args)
        uses.append(UseDecl(load.owner, args, load.line))
    return uses, calls, [file for file, _ in loaded]


__all__ = ["EACH_MODULE", "Lit", "matches", "read", "seeded", "walked", "written_out"]
