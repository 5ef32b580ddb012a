"""Web frameworks pack-http-routes recognises but does not read: one record each, read by the
readers (which note where a file uses one), the pre-filter (`seeds`: bytes that admit such a
file) and the linker (which names each in an `UNREAD_FRAMEWORK` finding). A repository built on
one of these is never an empty document that says nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Unread:
    """A framework: its name as the finding says it, and how its use is recognised."""

    name: str
    language: str  # "python" | "javascript"
    seeds: tuple[bytes, ...]  # a file whose bytes hold none cannot use it as `pattern` sees
    pattern: re.Pattern[bytes]  # group 0 starts where the use is written


def _js_import(modules: str) -> re.Pattern[bytes]:
    """`require('m')`, `import ... from 'm'` or `import 'm'` of one of `modules` (a regex)."""
    return re.compile(
        rb"""(?:require\s*\(\s*|from\s*|import\s*)['"](?:""" + modules.encode() + rb""")['"/]"""
    )


UNREAD = (
    Unread(
        "Django",
        "python",
        (b"urlpatterns",),
        re.compile(rb"^urlpatterns\s*[:=+]", re.MULTILINE),
    ),
    Unread("Koa", "javascript", (b"koa",), _js_import(r"koa|@koa/router|koa-router")),
    Unread("Fastify", "javascript", (b"fastify",), _js_import(r"fastify")),
    Unread("Hapi", "javascript", (b"hapi",), _js_import(r"@hapi/hapi|hapi")),
    Unread("NestJS", "javascript", (b"@nestjs/",), _js_import(r"@nestjs/core|@nestjs/common")),
    Unread("Next.js", "javascript", (b"'next", b'"next'), _js_import(r"next")),
)
SEEDS = {
    language: tuple(sorted({s for u in UNREAD if u.language == language for s in u.seeds}))
    for language in ("python", "javascript")
}
_ANY_SEED = {
    language: re.compile(b"|".join(re.escape(seed) for seed in seeds))
    for language, seeds in SEEDS.items()
}


def unread_uses(source: bytes, language: str) -> tuple[tuple[str, int], ...]:
    """(framework, line) of each use of an unread framework in a file of `language`: the first
    per framework (one place is enough to name it)."""
    found: list[tuple[str, int]] = []
    if _ANY_SEED[language].search(source) is None:  # most files: one pass
        return ()
    for framework in UNREAD:
        if framework.language != language or not any(s in source for s in framework.seeds):
            continue
        match = framework.pattern.search(source)
        if match is not None:
            found.append((framework.name, source.count(b"\n", 0, match.start()) + 1))
    return tuple(found)
