"""The gateway's TOML configuration, validated with pydantic.

Every error names the file, the plugin entry and the key, and `check-config` prints all of them
at once: a person fixing a registry should not have to play whack-a-mole.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import sys
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from gpp.client import TOKEN_VARIABLE, default_token_file
from gpp.core import DEFAULT_MAX_LINE_BYTES, codes
from gpp.host import (
    JsonRpcSession,
    PluginSession,
    ProcessOptions,
    SandboxPolicy,
    Timeouts,
    entry_files,
    own_entry_files,
    uid_range_refusal,
)

from .config_errors import describe, keys_of

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "plugins" / "registry.toml"
PYTHON_PLACEHOLDER = "{python}"

PositiveInt = Annotated[int, Field(gt=0)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GatewayConfig(_Strict):
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8787
    token_file: Path | None = None
    allowed_origins: list[str] = []
    allowed_hosts: list[str] = []
    """Host header values accepted besides loopback names (only useful with a non-loopback bind)."""
    max_body_bytes: PositiveInt = 1024 * 1024
    max_header_bytes: Annotated[int, Field(ge=1024)] = 32 * 1024
    """The request line and headers together; over it → 431 and the connection closes."""
    header_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    """From connection (or a keep-alive request's first byte) to the end of its head → 408."""
    body_timeout_s: Annotated[float, Field(gt=0)] = 30.0
    """From the end of the head to the end of the body → 408."""
    send_timeout_s: Annotated[float, Field(gt=0)] = 30.0
    """How long an answer may sit unsent with no byte taken by the client before the
    connection is closed (a client that never reads must not pin the answer's memory)."""
    max_connections: Annotated[int, Field(ge=1)] = 4096
    """Open HTTP connections at once; also capped below the process's file descriptor limit.
    Past it, idle keep-alive connections are closed first, then new ones refused (503)."""
    max_buffered_bytes: Annotated[int, Field(ge=1024 * 1024)] = 256 * 1024 * 1024
    """Bytes held across all connections in request bodies (from their arrival to the end of
    their answer) and in answers the clients have not taken yet; past it → 503, Retry-After."""
    grace_seconds: Annotated[float, Field(ge=0)] = 10.0


_TIMEOUTS = Timeouts()


class Limits(_Strict):
    """The per-plugin settings [defaults] provides and a [[plugin]] entry may override; the
    timeouts default to gpp.host.session.Timeouts', the line cap to the wire's."""

    handshake_ms: PositiveInt = _TIMEOUTS.handshake_ms
    request_ms: PositiveInt = _TIMEOUTS.request_ms
    shutdown_ms: PositiveInt = _TIMEOUTS.shutdown_ms
    max_line_bytes: PositiveInt = DEFAULT_MAX_LINE_BYTES
    instances: Annotated[int, Field(gt=0, le=64)] = 1
    max_queue: Annotated[int, Field(ge=0)] = 64


VERSION_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""A plugin version: 1 to 128 characters, none of them a control character (it reaches logs,
terminals and every frame). The same rule for a registry entry, a `--plugin ID@VERSION` pin and
the version an unpinned plugin's hello announces."""


def version_problem(version: str) -> str | None:
    """Why `version` cannot be a plugin's version, or None."""
    if not 1 <= len(version) <= 128:
        return f"a version is 1 to 128 characters, this one has {len(version)}"
    if re.search(VERSION_PATTERN, version) is None:
        return "a version holds no control characters"
    return None


class DefaultsConfig(Limits):
    sandbox: SandboxPolicy = SandboxPolicy()


PLUGIN_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"


class PluginEntry(Limits):
    """A [[plugin]] table as written; `resolve` turns it into a PluginConfig.

    The Limits keys it sets (`model_fields_set`) and the sandbox keys it sets (`sandbox_keys`)
    override [defaults]; the rest come from there.
    """

    id: Annotated[str, Field(pattern=PLUGIN_ID_PATTERN)]
    announces: Annotated[str, Field(pattern=PLUGIN_ID_PATTERN)] | None = None
    version: Annotated[str, Field(min_length=1, max_length=128, pattern=VERSION_PATTERN)]
    protocol: Literal["gpp/3", "jsonrpc-2.0"] = "gpp/3"
    command: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]
    root: str = "."
    eager: bool = False
    env: dict[str, str] = {}
    sandbox: SandboxPolicy = SandboxPolicy()
    _sandbox_keys: frozenset[str] = PrivateAttr(frozenset())

    @model_validator(mode="wrap")
    @classmethod
    def _note_sandbox_keys(
        cls, data: Any, handler: ModelWrapValidatorHandler[PluginEntry]
    ) -> PluginEntry:
        entry = handler(data)
        if isinstance(data, dict) and isinstance(data.get("sandbox"), dict):
            entry._sandbox_keys = frozenset(data["sandbox"])
        return entry

    def limits_over(self, defaults: Limits) -> Limits:
        """`defaults`' limits, with the ones this entry sets."""
        keys = set(Limits.model_fields)
        given = self.model_dump(include=keys & self.model_fields_set)
        return Limits(**defaults.model_dump(include=keys) | given)

    def sandbox_over(self, defaults: SandboxPolicy) -> SandboxPolicy:
        """`defaults`, with the sandbox keys this entry sets."""
        return replace(defaults, **{key: getattr(self.sandbox, key) for key in self._sandbox_keys})


class PluginConfig(_Strict):
    """A registered plugin, with defaults applied and paths made absolute."""

    id: str
    announces: str
    """The pluginId its frames carry: the registered id unless `announces` says otherwise (one
    pack registered twice, over two repositories)."""
    version: str
    protocol: Literal["gpp/3", "jsonrpc-2.0"]
    command: list[str]
    root: Path
    eager: bool
    env: dict[str, str]
    limits: Limits
    sandbox: SandboxPolicy

    @property
    def timeouts(self) -> Timeouts:
        return Timeouts(
            handshake_ms=self.limits.handshake_ms,
            request_ms=self.limits.request_ms,
            shutdown_ms=self.limits.shutdown_ms,
        )

    def declared_view(self) -> str:
        """The view the registry gives this plugin, before any start resolves its interpreter
        (`GET /plugins/{id}` of an idle plugin, `gpp check-config`): the session's own
        `sandbox.view` adds the interpreter and the SDKs."""
        entries = entry_files(self.command, str(self.root))
        if self.sandbox.view is None:
            said = ", ".join(sorted({os.path.dirname(e) for e in entries})) or "none"
            return f"{said} (the entry file's folder), read-only"
        return f"{', '.join([*entries, *self.sandbox.view]) or 'none'} (sandbox.view), read-only"

    def session(self, on_stderr: Callable[[str], None] | None = None) -> PluginSession:
        """A GPP/3 session with this plugin as registered (not started)."""
        return PluginSession(
            self.command,
            self.id,
            self.version,
            announced_id=self.announces,
            **self._session_options(on_stderr),
        )

    def jsonrpc_session(
        self,
        on_stderr: Callable[[str], None] | None = None,
        on_failure: Callable[[codes.ProtocolError], None] | None = None,
    ) -> JsonRpcSession:
        """A JSON-RPC session with this plugin as registered (not started)."""
        options = self._session_options(on_stderr)
        return JsonRpcSession(self.command, self.id, on_failure=on_failure, **options)

    def _session_options(self, on_stderr: Callable[[str], None] | None) -> SessionOptions:
        return SessionOptions(
            cwd=str(self.root),
            env=self.env,
            on_stderr=on_stderr,
            sandbox=self.sandbox,
            timeouts=self.timeouts,
            max_line_bytes=self.limits.max_line_bytes,
        )


class SessionOptions(ProcessOptions):
    """What both session kinds take besides the process options: the watchdogs and line cap."""

    timeouts: Timeouts
    max_line_bytes: int


class ConfigFile(_Strict):
    gateway: GatewayConfig = GatewayConfig()
    defaults: DefaultsConfig = DefaultsConfig()
    plugin: list[PluginEntry] = []


class Config(_Strict):
    path: Path
    gateway: GatewayConfig
    plugins: dict[str, PluginConfig]

    def token(self) -> str | None:
        """The bearer token: GPP_TOKEN wins over token_file; None means no token.

        A token that is configured but unusable is a ConfigError, never "no token": an emptied
        file or an empty GPP_TOKEN must not turn authentication off in silence (at start, in
        check-config, and on a reload, which is then refused and keeps the old token).
        """
        if TOKEN_VARIABLE in os.environ:
            if not os.environ[TOKEN_VARIABLE].strip():
                raise ConfigError(
                    self.path,
                    [
                        f"{TOKEN_VARIABLE} is set but empty; give it the token, or unset it "
                        "(the token file is then used)"
                    ],
                )
            return os.environ[TOKEN_VARIABLE]
        if self.gateway.token_file is None:
            return None
        try:
            return read_token_file(self.gateway.token_file)
        except ValueError as exc:
            raise ConfigError(self.path, [f"gateway.token_file: {exc}"]) from None


MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes; OSError otherwise.

    A FIFO, device or socket in place of a config or token file would block the read (at
    start, in check-config, or in a reload's thread that SIGTERM then waits for): it is opened
    without blocking and refused unread, as is a file too large to be what it claims to be.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 16, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, f"larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


MAX_TOKEN_BYTES = 4096
"""A token is a line; a token file larger than this is not one."""


def read_token_file(path: Path) -> str:
    """The token in `path`, or ValueError saying why it cannot be used.

    The one check of a token file, called at start, by every reload and by check-config: a
    regular file (a FIFO would hang the reader), owned by this user or root, neither readable
    nor writable by group or others, in a folder owned by this user or root that group and
    others cannot write (who can write the folder can swap the file), and not blank.
    """
    try:  # O_NONBLOCK: opening a FIFO must not wait for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as file:
        if problem := _exposed(path, os.fstat(fd)):
            raise ValueError(problem)
        data = file.read(MAX_TOKEN_BYTES + 1)
    if len(data) > MAX_TOKEN_BYTES:
        raise ValueError(f"{path} is over {MAX_TOKEN_BYTES} bytes: not a token")
    try:
        token = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None
    if not token:
        raise ValueError(
            f"{path} is empty; write the token in it, or remove gateway.token_file "
            "to serve without authentication"
        )
    return token


def _exposed(path: Path, found: os.stat_result) -> str | None:
    """Why the token file `found` (stat of the open file) could be read or replaced by another
    user, or None."""
    mode = stat.S_IMODE(found.st_mode)
    trusted = {os.geteuid(), 0}
    if not stat.S_ISREG(found.st_mode):
        return f"{path} is not a regular file"
    if found.st_uid not in trusted:
        return f"{path} is owned by uid {found.st_uid}, not by this user or root; chown it"
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        return f"{path} is readable by group or others (mode {mode:04o}); chmod 600 it"
    if mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{path} is writable by group or others (mode {mode:04o}); chmod 600 it"
    folder = Path(os.path.realpath(path)).parent
    try:
        held = os.stat(folder)
    except OSError as exc:
        return f"{folder}: {exc.strerror or exc}"
    if held.st_uid not in trusted:
        return (
            f"{path}: its folder {folder} is owned by uid {held.st_uid}, not by this user or "
            "root; keep the token in a folder of your own"
        )
    if held.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return (
            f"{path}: its folder {folder} is writable by group or others (mode "
            f"{stat.S_IMODE(held.st_mode):04o}), who could replace the file; chmod go-w it"
        )
    return None


class ConfigError(Exception):
    """Every problem found in a config file, one line each."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__("\n".join(f"{path}: {p}" for p in problems))


def default_config_path() -> Path:
    return Path(os.environ.get("GPP_CONFIG") or DEFAULT_CONFIG)


def load_config(path: Path | str | None = None) -> Config:
    """Read, validate and resolve a config file, or raise ConfigError listing every problem."""
    path = Path(path) if path is not None else default_config_path()
    try:
        raw = tomllib.loads(read_regular_file(path, MAX_CONFIG_FILE_BYTES).decode("utf-8"))
    except OSError as exc:
        raise ConfigError(path, [f"cannot read: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(path, [f"not UTF-8 text (byte {exc.start})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [f"not valid TOML: {exc}"]) from None
    except RecursionError:
        raise ConfigError(path, ["not valid TOML: nested too deep"]) from None
    if not raw:  # an empty file is a half-written one far more often than a wish for nothing
        raise ConfigError(path, ["is empty: a registry has a [gateway] table or [[plugin]]s"])
    return parse_config(raw, path, path.resolve().parent)


def parse_config(raw: dict[str, Any], path: Path, base: Path) -> Config:
    """Validate and resolve a config given as data (a TOML file's, or the one `gpp serve
    --plugin` builds); relative paths resolve against `base`; `path` names it in errors."""
    problems = _duplicate_ids(raw)
    try:
        parsed = ConfigFile.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(path, [_describe(err, raw) for err in exc.errors()] + problems) from None
    plugins: dict[str, PluginConfig] = {}
    for index, entry in enumerate(parsed.plugin):
        where = f"[[plugin]] #{index + 1} ({entry.id})"
        try:
            plugins[entry.id] = _resolve(entry, parsed.defaults, base)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
    if problems:
        raise ConfigError(path, problems)
    gateway = parsed.gateway
    if gateway.token_file is not None and not gateway.token_file.is_absolute():
        gateway = gateway.model_copy(update={"token_file": base / gateway.token_file})
    # the default token file too: `gpp serve` may generate it there after this load (and a
    # plugin of a non-root gateway, its own uid, could read it in a view or repository)
    own = [path.resolve(), *([gateway.token_file] if gateway.token_file else [])]
    own.append(default_token_file())
    return Config(path=path.resolve(), gateway=gateway, plugins=_hidden(plugins, own))


def with_token_file(config: Config, token_file: Path) -> Config:
    """`config` served with `token_file` (`gpp serve --token-file`), which every plugin's
    view shows empty, as for a token file the registry names."""
    plugins = {
        plugin_id: plugin.model_copy(
            update={
                "sandbox": replace(
                    plugin.sandbox,
                    hide=tuple(dict.fromkeys([*plugin.sandbox.hide, str(token_file)])),
                )
            }
        )
        for plugin_id, plugin in config.plugins.items()
    }
    gateway = config.gateway.model_copy(update={"token_file": token_file})
    return config.model_copy(update={"gateway": gateway, "plugins": plugins})


def _hidden(plugins: dict[str, PluginConfig], own: list[Path]) -> dict[str, PluginConfig]:
    """Each plugin with the gateway's own files (`own`: the registry, the token file) and the
    other plugins' entry files added to its sandbox's `hide`: what lies inside a plugin's view
    of these is shown empty (issue 32: plugins dropped side by side see none of each other).
    Only a plugin's own files are hidden from the others: not a word its repository resolves
    (that file is the repository's, which the other plugins read too), nor a file every
    plugin runs on (the system folders, the gateway's Python, the SDKs): one registry entry
    naming the standard library's `encodings/__init__.py` stopped every other Python plugin,
    naming `package.json` blinded every other plugin to the repository's (round 6)."""
    entries = {
        plugin_id: entry_files(plugin.command, str(plugin.root), path=_path_of(plugin))
        for plugin_id, plugin in plugins.items()
    }
    owned = {
        plugin_id: own_entry_files(plugin.command, str(plugin.root), path=_path_of(plugin))
        for plugin_id, plugin in plugins.items()
    }
    hidden = {}
    for plugin_id, plugin in plugins.items():
        # its own interpreter too: another plugin run by it alone (`["deno", "run", URL]`)
        # counts it as that plugin's file, which must not hide it from this one's view
        found = shutil.which(plugin.command[0], path=_path_of(plugin))
        interpreter = [os.path.abspath(found)] if found else []
        mine = {*entries[plugin_id], *plugin.command, *interpreter}
        theirs = [f for other, files in owned.items() if other != plugin_id for f in files]
        hide = [*plugin.sandbox.hide, *map(str, own), *(f for f in theirs if f not in mine)]
        sandbox = replace(plugin.sandbox, hide=tuple(dict.fromkeys(hide)))
        hidden[plugin_id] = plugin.model_copy(update={"sandbox": sandbox})
    return hidden


def _path_of(plugin: PluginConfig) -> str:
    """The PATH the plugin's bare `argv[0]` is found on (`gpp.host.process.scrubbed_env`)."""
    return plugin.env.get("PATH", os.environ.get("PATH", os.defpath))


def _resolve(entry: PluginEntry, defaults: DefaultsConfig, base: Path) -> PluginConfig:
    # not resolved: a symlink its owner left there (to another user's project behind a 0700
    # home) is for the spawn to refuse (`gpp.host.identity.open_folder`), not to follow as root
    root = Path(os.path.abspath(base / entry.root))
    if not root.is_dir():
        raise ValueError(f"root: {root} is not a directory")
    sandbox = entry.sandbox_over(defaults.sandbox)
    if why := uid_range_refusal(sandbox.uid_range):
        raise ValueError(f"sandbox.uid_range: {why}")
    listed = None if sandbox.view is None else tuple(_paths(sandbox.view, base, "sandbox.view"))
    hide = tuple(str((base / p).resolve()) for p in sandbox.hide)
    return PluginConfig(
        id=entry.id,
        announces=entry.announces or entry.id,
        version=entry.version,
        protocol=entry.protocol,
        command=resolve_command(entry.command, base),
        root=root,
        eager=entry.eager,
        env=entry.env,
        limits=entry.limits_over(defaults),
        sandbox=replace(sandbox, view=listed, hide=hide),
    )


def _paths(paths: tuple[str, ...], base: Path, key: str) -> list[str]:
    """`paths` made absolute against the registry's folder, each one existing; not resolved:
    a symlink on the way is refused when the plugin starts (`gpp.host.view`), never followed
    here into what it leads to (a plugin's `lib` linked to `/` had the host's root in view)."""
    absolute = [Path(os.path.abspath(base / p)) for p in paths]
    missing = [str(p) for p in absolute if not p.exists()]
    if missing:
        raise ValueError(f"{key}: {', '.join(missing)} does not exist")
    return [str(p) for p in absolute]


def resolve_command(command: list[str], base: Path) -> list[str]:
    """`{python}` becomes this interpreter; a word naming a file beside the config becomes its
    absolute path (so `reference_detector.py` works whatever the gateway's cwd), as named: never
    resolved, since the view holds each file's folder, and a file the plugin ships as a symlink
    (`rules.toml` → `/proc/version`) would choose it (issue 32, round 5). A command that
    starts with a `.py` file runs it with this interpreter, which has `gpp` and `gateforge_plugin`
    (a `python3` found on PATH may have neither, as after `pipx install .`)."""
    if command and command[0].endswith(".py"):
        command = [PYTHON_PLACEHOLDER, *command]
    resolved = []
    for word in command:
        word = word.replace(PYTHON_PLACEHOLDER, sys.executable)
        candidate = base / word
        if not word.startswith("-") and not Path(word).is_absolute() and candidate.is_file():
            word = os.path.abspath(candidate)  # not resolved: a plugin's link names no folder
        resolved.append(word)
    return resolved


def _duplicate_ids(raw: dict[str, Any]) -> list[str]:
    entries = raw.get("plugin")
    if not isinstance(entries, list):
        return []
    problems, seen = [], set()
    for index, entry in enumerate(entries):
        plugin_id = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(plugin_id, str) and plugin_id in seen:
            problems.append(f"[[plugin]] #{index + 1} ({plugin_id}): id: registered twice")
        seen.add(plugin_id)
    return problems


TABLES: dict[str, Any] = {
    "": ConfigFile,
    "gateway": GatewayConfig,
    "defaults": DefaultsConfig,
    "plugin": PluginEntry,
    "sandbox": SandboxPolicy,
}
"""The table type at each key of the file (a [[plugin]]'s `sandbox` as [defaults]')."""


def _table_keys(parent: tuple[Any, ...]) -> list[str]:
    names = [part for part in parent if not isinstance(part, int)]
    return keys_of(TABLES.get(str(names[-1]) if names else ""))


def _describe(error: Any, raw: dict[str, Any]) -> str:
    return describe(error, raw, _table_keys)
