"""The token `gpp serve` uses when none is configured, as Jupyter does: generated at first start,
kept 0600 in the user's state folder (`gpp.client.local_gateway` says where, and why there), and
found there by the CLI and both clients. `--no-token` serves without one, said in a warning.

Two gateways starting at once must end with one token: the token is written to a private
temporary file and linked into place, which fails for the second whoever comes first, so
neither can ever read a half-written file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import tempfile
from pathlib import Path

from gpp.client import TOKEN_VARIABLE, default_token_file

from .config import Config, ConfigError

log = logging.getLogger("gpp.gateway")

TOKEN_BYTES = 32
"""Of randomness: `secrets.token_urlsafe(32)` is 43 URL-safe characters."""


def with_default_token(config: Config, *, no_token: bool) -> Config:
    """`config` as `gpp serve` runs it: with the default token file when neither
    gateway.token_file nor GPP_TOKEN names a token, or with no token at all under `--no-token`
    (refused when a token is configured: dropping one must be done where it was set)."""
    configured = TOKEN_VARIABLE in os.environ or config.gateway.token_file is not None
    if no_token:
        if configured:
            where = (
                TOKEN_VARIABLE
                if TOKEN_VARIABLE in os.environ
                else f"gateway.token_file ({config.gateway.token_file})"
            )
            raise ConfigError(
                config.path, [f"--no-token: a token is configured by {where}; remove it there"]
            )
        return config
    if configured:
        return config
    path = default_token_file()
    try:
        ensure_token_file(path)
    except OSError as exc:
        raise ConfigError(
            config.path,
            [
                f"cannot keep the generated token in {path}: {exc.strerror or exc}; set "
                f"gateway.token_file or {TOKEN_VARIABLE}, or pass --no-token"
            ],
        ) from None
    gateway = config.gateway.model_copy(update={"token_file": path})
    return config.model_copy(update={"gateway": gateway})


def ensure_token_file(path: Path) -> bool:
    """Make `path` hold a fresh token (mode 0600, its folder created 0700) unless it exists;
    True when this call made it. Whether an existing file is fit to use is
    `config.read_token_file`'s to say, as for any token file."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.path.lexists(path):
        return False
    fd, staged = tempfile.mkstemp(prefix=".token-", dir=path.parent)  # 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(secrets.token_urlsafe(TOKEN_BYTES) + "\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(staged, path)  # atomic, and never over an existing file
        except FileExistsError:
            return False  # another gateway linked its token first: that one is the token
    finally:
        with contextlib.suppress(OSError):
            os.unlink(staged)
    log.info("generated a token", extra={"fields": {"token_file": str(path)}})
    return True


def token_source(config: Config) -> str:
    """What the start line says of the token: where it is, never what it is."""
    if TOKEN_VARIABLE in os.environ:
        return TOKEN_VARIABLE
    if config.gateway.token_file is not None:
        return str(config.gateway.token_file)
    return "none"
