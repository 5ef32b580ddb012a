"""Route paths as each framework spells them, turned into one form: `{name}` parameters and
prefixes joined the way the frameworks join them."""

from __future__ import annotations

import re

_FLASK_PARAM = re.compile(r"<(?:[A-Za-z_][A-Za-z0-9_]*(?:\([^)>]*\))?:)?([A-Za-z_][A-Za-z0-9_]*)>")
_BRACE_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}")
_EXPRESS_PARAM = re.compile(r":([A-Za-z_$][A-Za-z0-9_$]*)(?:\([^)]*\))?\??")


def flask_path(rule: str) -> str:
    """`/users/<int:id>` → `/users/{id}` (converter and its arguments dropped)."""
    return _FLASK_PARAM.sub(_braced, rule) if "<" in rule else rule


def flask_shape(rule: str) -> str:
    """`/users/<int:id>` → `/users/{int}`, `/<name>` → `/{string}`: what Flask tells apart
    (two rules differing only in a converter both route), parameter names aside."""
    return _FLASK_PARAM.sub(_converter, rule) if "<" in rule else rule


def _converter(match: re.Match[str]) -> str:
    spelled = match.group(0)[1:-1]
    converter = spelled.rpartition(":")[0] if ":" in spelled else ""
    return "{" + (converter or "string") + "}"


def brace_path(path: str) -> str:
    """FastAPI/Starlette `{id:int}` or `{rest:path}` → `{id}`, `{rest}`."""
    return _BRACE_PARAM.sub(_braced, path) if ":" in path else path


def hapi_path(path: str) -> str:
    """A hapi path as hapi's own route table names it: its parameters kept as spelled
    (`{path*}`, `{ids*2}`, `{id?}` match other paths than `{id}`, and `server.table()` writes
    them so); a trailing slash dropped, so a plugin's `/` under a prefix is the prefix alone
    (hapi's rule: `prefix + (path === '/' ? '' : path)`)."""
    return path[:-1] if len(path) > 1 and path.endswith("/") else path


def express_path(path: str) -> str:
    """`/posts/:slug`, `:id(\\d+)` or the optional `:page?` → `{slug}`, `{id}`, `{page}`."""
    return _EXPRESS_PARAM.sub(_braced, path) if ":" in path else path


def express_served(path: str) -> str:
    """As `express_path`, and `/users/` named `/users`: Express and koa-router route without
    strict slashes by default, so `router.get('/')` mounted at `/users` answers `/users` and
    `/users/` alike; it is named as it is usually written (and called)."""
    path = express_path(path)
    return path[:-1] if len(path) > 1 and path.endswith("/") else path


def _braced(match: re.Match[str]) -> str:
    return "{" + match.group(1) + "}"


def join(prefix: str, path: str) -> str:
    """Prefix then path with exactly one `/` between, the trailing slash kept as declared:
    `/users` + `/` is `/users/`, `/users` + `` is `/users`, `/` + `/x` is `/x`.

    FastAPI concatenates (and forbids a prefix ending in `/`), Flask and Starlette strip the
    prefix's trailing slash and the rule's leading one, Express ignores a mount path's trailing
    slash: for every prefix those frameworks accept, all of them come down to this."""
    if not path:
        return prefix or "/"
    return join_prefix(prefix, path)


def join_prefix(prefix: str, more: str) -> str:
    """Two prefixes (an include's and a router's own) joined like a prefix and a path; an
    empty one adds nothing."""
    if not more:
        return prefix
    if not prefix:
        return more
    return prefix.rstrip("/") + "/" + more.lstrip("/")


# A regular expression given as a path (`app.get(/^\/x/i, h)`) travels through prefix joins and
# a framework's `normalise` as a token no join or normaliser changes (hex digits: no `/`, `:`,
# `{`), and is written back as its source once the name is made: `GET /api/^\/x`.
_REGEX_TOKEN = re.compile("\x00([0-9a-f]*)\\.([a-z]*)\x00")


def regex_token(source: str, flags: str) -> str:
    """The stand-in for a regular expression in a path being joined."""
    return f"\x00{source.encode().hex()}.{flags}\x00"


def has_regex(path: str) -> bool:
    return "\x00" in path


def regex_literals(path: str) -> tuple[str, ...]:
    """Each regular expression in `path`, as a literal: `/^\\/x/i`."""
    return tuple(
        f"/{_source(m)}/{m.group(2)}" for m in _REGEX_TOKEN.finditer(path) if _source(m) is not None
    )


def regex_named(path: str) -> str:
    """`path` with each regular expression written as its source where it stands (its flags
    dropped: they are in `attrs.pathRegex`): `/api` and `/^\\/x/i` give `/api/^\\/x`."""
    return _REGEX_TOKEN.sub(_written, path)


def _written(token: re.Match[str]) -> str:
    source = _source(token)
    return token.group(0) if source is None else source


def _source(token: re.Match[str]) -> str | None:
    """A token's source; None for text a repository wrote that only looks like one (a path
    literal holding `\\x00ff.\\x00`: no hex of UTF-8 text), which stays as written."""
    try:
        return bytes.fromhex(token.group(1)).decode()
    except ValueError:  # odd or non-UTF-8 hex (UnicodeDecodeError is one)
        return None
