"""The `gpp` command: serve the gateway, run one discovery without HTTP, check a config.

Exit codes: 0 success; 1 a bad config or bad arguments; 2 any E_* failure.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import json
import logging
import math
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from gpp import __version__
from gpp.client import TokenNotFound, default_socket, default_token_file, find_token
from gpp.core import PROTOCOL_VERSION, canonical_trusted, codes
from gpp.host import PluginSession, SandboxPolicy

from . import (
    cgroup_notice,
    command_line,
    completion,
    scan,
    scan_page,
    status,
    summary,
    systemd_scope,
)
from .config import (
    DEFAULT_CONFIG,
    PYTHON_PLACEHOLDER,
    Config,
    ConfigError,
    default_config_path,
    load_config,
    resolve_command,
    with_token_file,
)
from .default_token import with_default_token
from .logs import escaped
from .plugin_words import failure_lines, terminal_lines
from .preflight import preflight, start_each
from .scan import BUNDLED_PACKS
from .security import is_loopback_host

ISOLATED_MARKER = "GPP_ISOLATED"
EXIT_CONFIG = 1
EXIT_PROTOCOL = 2
REPO_HELP = "the repository every registered plugin reads (overrides each root in the config)"
NO_REPO = (
    "--plugin: name the repository its plugins read with --repo PATH (`--repo .` for this "
    "folder); none is assumed, so a gateway started in a home folder never shares it"
)
"""Why `--plugin` has no default root: the current directory, when the gateway is started from
a home folder, handed the whole home (token files, keys) to every plugin."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpp",
        description="gate-forge gateway: run untrusted discovery plugins over GPP/3.",
        epilog="Run `gpp COMMAND --help` for each command's options.",
    )
    parser.add_argument(
        "--version", action="version", version=f"gpp {__version__} (GPP/{PROTOCOL_VERSION})"
    )
    commands = parser.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="start the HTTP gateway",
        description="Start the HTTP gateway (loopback only by default).",
    )
    serve.add_argument(
        "--config", type=Path, help="registry TOML (default: $GPP_CONFIG or plugins/registry.toml)"
    )
    serve.add_argument("--host", help="bind address (default from config: 127.0.0.1)")
    serve.add_argument("--port", type=int, help="bind port (default from config: 8787)")
    serve.add_argument(
        "--uds",
        metavar="PATH",
        nargs="?",
        const=str(default_socket()),
        help="listen on this Unix domain socket instead of host:port (without PATH: "
        f"{default_socket()}); its folder must be yours and closed to others",
    )
    serve.add_argument(
        "--isolated",
        action="store_true",
        help="run in a fresh network namespace (only lo) with the scanned "
        "repositories mounted read-only; reach it over --uds",
    )
    serve.add_argument("--repo", type=Path, metavar="PATH", help=REPO_HELP)
    serve.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="ID[@VERSION][=COMMAND]",
        help="register a GPP/3 plugin without a registry file (repeatable): "
        "`--plugin ID -- CMD ARGS...` or `--plugin 'ID=CMD ARGS'` (a CMD that starts with a "
        ".py file runs with this Python, which has gpp); it reads --repo (required: `--repo .` "
        "for the current directory); without @VERSION the version its hello announces at start "
        "is pinned",
    )
    serve.add_argument(
        "--jsonrpc",
        action="store_true",
        help="the --plugin whose command follows `--` (or the only one) speaks JSON-RPC 2.0 "
        "(served on /plugins/ID/rpc), not GPP/3",
    )
    serve.add_argument(
        "--cgroup",
        choices=["auto", "required", "optional"],
        default="auto",
        help="auto: a non-root gateway on cgroup v2 that cannot make plugin cgroups where it "
        "runs asks the user's systemd for a delegated scope (`systemd-run --user --scope -p "
        "Delegate=yes`) and runs there; required: never asks; optional: where no cgroup can be "
        "made for a plugin, run it bounded per process by rlimits only (no whole-plugin "
        "memory, CPU or process bound, no freezing when idle), for every plugin; said in one "
        "line at start (default: %(default)s)",
    )
    serve.add_argument(
        "--reload",
        action="store_true",
        help="restart a plugin's session when its files change (its entry files and view "
        "folders; __pycache__, node_modules and .git left out) and reload the registry file "
        "when it changes, like `uvicorn --reload`; requests in flight finish on the old session",
    )
    serve.add_argument(
        "--token-file",
        type=Path,
        metavar="PATH",
        help="require `Authorization: Bearer <the file's token>` (GPP_TOKEN overrides it; "
        f"without either, the token generated in {default_token_file()} is required)",
    )
    serve.add_argument(
        "--no-token",
        action="store_true",
        help="serve without a token: any local user can call every plugin (a throwaway run)",
    )
    serve.add_argument("command", nargs="*", metavar="-- CMD ARGS", help=argparse.SUPPRESS)
    serve.add_argument(
        "--allow-non-loopback", action="store_true", help="permit binding to a non-loopback address"
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])

    discover = commands.add_parser(
        "discover",
        help="run one discovery without HTTP and print the result document",
        description="Run one discovery and print the result document (GF-canonical JSON). "
        "Either name a registered plugin: `gpp discover [--config FILE] [--repo DIR] PLUGIN_ID "
        "PATH...`, or "
        "give the command: `gpp discover --command CMD --plugin-id ID --plugin-version V "
        "[--root DIR] PATH...`. On failure prints the two diagnostic lines and exits 2.",
    )
    discover.add_argument("--config", type=Path, help="registry TOML naming the plugin")
    discover.add_argument(
        "--command", help=f"plugin command line ({PYTHON_PLACEHOLDER} = this Python)"
    )
    discover.add_argument("--plugin-id")
    discover.add_argument("--plugin-version")
    discover.add_argument(
        "--root",
        type=Path,
        default=Path("."),
        help="repository the plugin reads (its cwd; default .)",
    )
    discover.add_argument("--repo", type=Path, metavar="PATH", help=REPO_HELP)
    discover.add_argument("--request-id")
    discover.add_argument(
        "--no-sandbox",
        action="store_true",
        help="with --command: run the plugin without the default sandbox",
    )
    discover.add_argument(
        "--stderr",
        action="store_true",
        help="after the document, print what the plugin wrote on stderr (escaped)",
    )
    discover.add_argument(
        "--format",
        choices=["json", "table"],
        default="json",
        help="json: the result document (GF-canonical); table: per kind the count, then each "
        "resource, unresolved path and finding in one line with its place",
    )
    discover.add_argument("args", nargs="+", metavar="[PLUGIN_ID] PATH")

    scan = commands.add_parser(
        "scan",
        help="run every bundled pack over a repository and print what it holds",
        description="Run the bundled packs (" + ", ".join(BUNDLED_PACKS) + ") over REPO, each "
        "in its sandbox as `gpp discover` runs it, and print per kind the count, per framework "
        "what was found, then each resource, finding and unresolved entry with its path:line. "
        "A pack that runs out of its request_ms is asked again in its session, where it keeps "
        "what it read, until it has read everything or stops getting further. "
        "REPO is required (`gpp scan .` for this folder): the packs read only the folder named. "
        "Exits 0 when every pack answered, 2 when one failed with an E_* diagnostic (the others "
        "still print), 1 for a bad REPO, pack or config.",
    )
    scan.add_argument("repo", type=Path, metavar="REPO", help="the repository the packs read")
    scan.add_argument(
        "--packs",
        metavar="ID,ID",
        help="the packs to run, comma-separated (default: every bundled pack)",
    )
    scan.add_argument(
        "--config", type=Path, help="registry TOML naming the packs (default: the bundled one)"
    )
    scan.add_argument("--json", action="store_true", help="print one JSON object keyed by pack id")
    scan.add_argument(
        "--html",
        type=Path,
        metavar="FILE",
        help="also write a self-contained HTML report to FILE (filter, kind toggles)",
    )

    check = commands.add_parser(
        "check-config",
        help="validate a registry TOML file",
        description="Validate a config and what would fail at the first "
        "request (commands, roots, token file, sandbox); print every "
        "problem and exit 1.",
    )
    check.add_argument("file", type=Path)
    check.add_argument(
        "--no-start",
        action="store_true",
        help="do not start each GPP/3 plugin in its sandbox for a handshake (and bye)",
    )

    status = commands.add_parser(
        "status",
        help="show a running gateway's plugins, and why any of them fails",
        description="Ask a running gateway (GET /plugins) for its plugins' state: each shows "
        "its last stderr lines, and one that failed its last diagnostic. The token is found as "
        "`gpp token` finds it. Exits 2 when a plugin is failed or backing off or has failed a "
        "request, 1 when no gateway answers or it refuses the token.",
    )
    status.add_argument(
        "--url", default="http://127.0.0.1:8787", help="the gateway (default: %(default)s)"
    )
    status.add_argument("--uds", type=Path, metavar="PATH", help="reach it on this Unix socket")
    status.add_argument(
        "--token-file", type=Path, metavar="PATH", help="the token's file (GPP_TOKEN wins over it)"
    )

    token = commands.add_parser(
        "token",
        help="print the token a local gateway requires",
        description="Print the bearer token: GPP_TOKEN, else --token-file's contents, else "
        f"the one `gpp serve` generated ({default_token_file()}). For curl: "
        '-H "Authorization: Bearer $(gpp token)".',
    )
    token.add_argument("--token-file", type=Path, metavar="PATH")

    completion = commands.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print a completion script: `gpp completion bash > "
        "~/.local/share/bash-completion/completions/gpp`, or `source <(gpp completion zsh)`.",
    )
    completion.add_argument("shell", choices=["bash", "zsh"])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.subcommand == "serve":
        return _serve(args, parser, argv)
    if args.subcommand == "discover":
        return _discover(args, parser)
    if args.subcommand == "scan":
        return _scan(args)
    if args.subcommand == "status":
        return _status(args.url, args.uds, args.token_file)
    if args.subcommand == "token":
        return _token(args.token_file)
    if args.subcommand == "completion":
        print(completion.script(parser, args.shell), end="")
        return 0
    return _check_config(args.file, start=not args.no_start)


def _status(url: str, uds: Path | None, token_file: Path | None) -> int:
    import httpx

    where = f"unix:{uds}" if uds else url
    try:
        plugins = status.fetch(url, uds, token_file)
    except TokenNotFound as exc:
        print(f"gpp: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except status.TokenRefused as refused:
        said = "refused the token it was sent" if refused.sent else "wants a token"
        print(f"gpp: the gateway at {where} {said} (401); give the token it serves with "
              "(GPP_TOKEN, or --token-file: its --token-file or the token_file in its config)",
              file=sys.stderr)  # fmt: skip
        return EXIT_CONFIG
    except httpx.HTTPError as exc:
        print(f"gpp: no gateway answers at {where} ({exc}); start one with `gpp serve`, or "
              "name it with --url or --uds", file=sys.stderr)  # fmt: skip
        return EXIT_CONFIG
    print(status.render(plugins))
    return EXIT_PROTOCOL if any(status.failing(plugin) for plugin in plugins) else 0


def _token(token_file: Path | None) -> int:
    try:
        token = find_token(token_file)
    except TokenNotFound as exc:
        print(f"gpp: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if token is None:
        print(f"gpp: no token: GPP_TOKEN is not set and {default_token_file()} cannot be read "
              "(`gpp serve` makes it at its first start)", file=sys.stderr)  # fmt: skip
        return EXIT_CONFIG
    print(token)
    return 0


def _serve(
    args: argparse.Namespace, parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> int:
    """`gpp serve`; `argv`: what `main` was given (None: the process's command line), for
    running this same gateway again in a scope systemd delegates (`_ask_systemd`)."""
    import uvicorn

    from . import fd_limit, logs, unix_socket
    from .main import create_app
    from .plugin_watch import PluginWatch
    from .reload import EARLY_SIGHUPS
    from .server.front_door import server_config
    from .unix_socket import SocketPathError, listen_private

    EARLY_SIGHUPS.hold()  # until the app's loop takes SIGHUP: counted, then one reload
    logs.configure(args.log_level)
    soft, _ = fd_limit.raise_soft_limit()
    logging.getLogger("gpp.gateway").debug(
        "file descriptor limit", extra={"fields": {"soft": soft}}
    )

    refused_scope = ""  # why systemd made no delegated scope when asked for one

    def cgroups() -> str:  # probed where it is said: not in an --isolated gateway's outer half
        return cgroup_notice.start_line(
            cgroup_notice.probe(),
            args.cgroup == "optional",
            os.geteuid(),
            asked=systemd_scope.in_asked_scope(),
            refused=refused_scope,
        )

    try:
        config = _serve_config(args)
        config.token()  # a blank or unreadable token file stops the start, never disables auth
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        pinned_at_start = bool(args.plugin or args.command)  # a refused start: what to do
        if pinned_at_start and cgroup_notice.REFUSED in (said := cgroups()):
            print(said, file=sys.stderr)
        return EXIT_CONFIG
    if args.isolated and (args.plugin or args.command):
        parser.error("--isolated serves a registry file (--config), not --plugin flags")
    if os.environ.get(ISOLATED_MARKER) != "1":  # the outer half asks: the scope holds both
        refused_scope = _ask_systemd(args.cgroup, argv, os.geteuid())
    if args.no_token:
        logging.getLogger("gpp.gateway").warning(
            "serving without a token (--no-token): every local user can call every plugin"
        )
    if args.isolated and os.environ.get(ISOLATED_MARKER) != "1":
        return _reexec_isolated(args, config)
    host = args.host or config.gateway.host
    port = args.port if args.port is not None else config.gateway.port
    if not args.uds and not is_loopback_host(host) and not args.allow_non_loopback:
        parser.error(
            f"refusing to bind to non-loopback address {host!r}; "
            "pass --allow-non-loopback if you mean it"
        )

    bound_read_only = (
        {plugin.root for plugin in config.plugins.values()}
        if os.environ.get(ISOLATED_MARKER) == "1"
        else None
    )

    if not args.uds and (problem := port_taken(host, port)):
        print(f"gpp: {problem}; choose another with --port PORT", file=sys.stderr)
        return EXIT_CONFIG

    def reread() -> Config:  # a reload reads the same file, with the same flags
        fresh = _serve_config(args, pinned=config)
        if bound_read_only is not None:
            _refuse_unbound_roots(fresh, bound_read_only)
        return fresh

    listener = None
    if args.uds:
        try:
            if Path(args.uds) == default_socket():
                unix_socket.make_private_folder(default_socket().parent)
            listener = listen_private(Path(args.uds))
        except SocketPathError as exc:
            print(f"gpp: --uds: {exc}", file=sys.stderr)
            return EXIT_CONFIG
    print(cgroups(), file=sys.stderr, flush=True)
    server = uvicorn.Server(
        server_config(
            create_app(
                config,
                load=reread,
                reload_on_sighup=True,
                on_ready=listener.publish if listener is not None else None,
                watch=PluginWatch() if args.reload else None,
            ),
            config.gateway,
            host=host,
            port=port,
            # uvicorn reads 0 as "wait forever"; the grace is at least a second
            timeout_graceful_shutdown=max(1, math.ceil(config.gateway.grace_seconds)),
        )
    )
    # uvicorn drains, then re-raises the signal it caught against the handler it found. Finding
    # a no-op one makes a drained SIGTERM/SIGINT shutdown exit 0, as promised.
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: None)
    if listener is None:
        server.run()
        return 0 if server.started else EXIT_CONFIG
    logging.getLogger("gpp.gateway").info(
        "listening",
        extra={"fields": {"uds": str(listener.path), "mode": f"{unix_socket.SOCKET_MODE:04o}"}},
    )
    try:
        server.run(sockets=[listener.sock])
    finally:
        listener.remove()
    return 0 if server.started else EXIT_CONFIG


def _ask_systemd(mode: systemd_scope.Mode, argv: Sequence[str] | None, euid: int) -> str:
    """Exec this gateway again in a scope the user's systemd delegates, where that is what it
    needs (`systemd_scope.should_ask`) and systemd makes one; else why systemd would not ("" when
    it was not asked)."""
    systemd_run = systemd_scope.user_manager()
    version = systemd_scope.cgroup_version()
    manager = systemd_run is not None
    if not systemd_scope.should_ask(mode, euid, os.environ, version, manager):
        return ""
    if systemd_run is None or not isinstance(cgroup_notice.probe(), str):
        return ""  # a plugin cgroup can be made where the gateway runs
    refused = systemd_scope.try_scope(systemd_run)
    if refused is not None:
        return refused
    systemd_scope.exec_in_scope(systemd_run, systemd_scope.own_command(argv))


def _serve_config(args: argparse.Namespace, pinned: Config | None = None) -> Config:
    """The config `gpp serve` runs: the registry file's, or the `--plugin` flags' (whose
    versions, once pinned, a reload keeps); with the default token unless one is configured
    or `--no-token` is given (a reload keeps to the same rule); every plugin's `sandbox.cgroup`
    "optional" when `--cgroup optional` says so."""
    return with_default_token(_flags_config(args, pinned), no_token=args.no_token)


def _with_cgroup(config: Config, args: argparse.Namespace) -> Config:
    """`--cgroup optional`: every plugin's `sandbox.cgroup` "optional" (before `--plugin`
    versions are pinned: that first start needs it too)."""
    if getattr(args, "cgroup", "required") != "optional":
        return config
    plugins = {
        pid: plugin.model_copy(update={"sandbox": replace(plugin.sandbox, cgroup="optional")})
        for pid, plugin in config.plugins.items()
    }
    return config.model_copy(update={"plugins": plugins})


def _flags_config(args: argparse.Namespace, pinned: Config | None) -> Config:
    if not (args.plugin or args.command or args.jsonrpc):
        config = _with_cgroup(
            _with_repo(load_config(args.config or default_config_path()), args.repo), args
        )
        if args.token_file is None:
            return config
        return with_token_file(config, args.token_file.resolve())
    if args.config is not None:
        raise ConfigError(command_line.COMMAND_LINE, ["give either --config or --plugin, not both"])
    try:
        plugins = command_line.parse_flags(args.plugin, args.command, args.jsonrpc)
    except ValueError as exc:
        raise ConfigError(command_line.COMMAND_LINE, [str(exc)]) from None
    if args.repo is None:
        raise ConfigError(command_line.COMMAND_LINE, [NO_REPO])
    announced = (
        {pid: command_line.Announced(p.announces, p.version) for pid, p in pinned.plugins.items()}
        if pinned
        else {}
    )
    repo = Path(os.path.abspath(args.repo))  # not resolved: as a registry's `root` (app.config)
    config = _with_cgroup(command_line.registry(plugins, repo, args.token_file, announced), args)
    return config if pinned else command_line.pin_versions(config)


def port_taken(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on, in one line (uvicorn would log it as an error
    and exit), or None. A port another process takes in between still fails in uvicorn."""
    if port == 0:
        return None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"{host}:{port} is already in use (another gateway?)"
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _reexec_isolated(args: argparse.Namespace, config: Config) -> int:
    """Become the gateway again, inside new network and mount namespaces (exec: same pid).

    Only `lo` exists inside, so neither the gateway nor its plugins can reach any network; the
    engine on the host comes in over the Unix socket, a filesystem object that no network
    namespace hides. Non-root users get a user namespace where the kernel allows one.
    """
    unshare = shutil.which("unshare")
    flags = ["--net", "--mount"]
    if os.geteuid() != 0:
        flags = ["--user", "--map-root-user", *flags]
    probe = (
        subprocess.run(
            [unshare or "unshare", *flags, "true"], capture_output=True, text=True, check=False
        )
        if unshare
        else None
    )
    if probe is None or probe.returncode != 0:
        why = probe.stderr.strip() if probe is not None else "unshare(1) is not installed"
        print(
            f"gpp: --isolated needs network and mount namespaces, which are not available "
            f"here ({why})",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    uds = args.uds or str(default_socket())
    roots = sorted({str(plugin.root) for plugin in config.plugins.values()})
    mounts = " && ".join(
        f"mount --bind {shlex.quote(r)} {shlex.quote(r)} && "
        f"mount -o remount,bind,ro {shlex.quote(r)}"
        for r in roots
    )
    inner = [
        sys.executable,
        "-m",
        __package__ or "app",  # app in a checkout, gpp.gateway from the wheel
        "serve",
        "--config",
        str(config.path),
        "--uds",
        uds,
        "--log-level",
        args.log_level,
    ]
    if args.repo is not None:
        inner += ["--repo", os.path.abspath(args.repo)]
    if args.token_file is not None:
        inner += ["--token-file", str(args.token_file.resolve())]
    if args.no_token:
        inner.append("--no-token")
    if args.reload:
        inner.append("--reload")
    if args.cgroup == "optional":
        inner += ["--cgroup", "optional"]
    command = f'ip link set lo up 2>/dev/null; {mounts or "true"} || exit 125; exec "$@"'
    print(
        f"gpp: isolated gateway (network: lo only; repositories read-only) on unix:{uds}",
        file=sys.stderr,
        flush=True,
    )
    os.environ[ISOLATED_MARKER] = "1"
    os.execv(
        unshare or "unshare", ["unshare", *flags, "--", "sh", "-c", command, "gpp-isolated", *inner]
    )


def _discover(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    said: list[str] = []  # the plugin's stderr lines, for --stderr
    if not args.command:  # `gpp discover PLUGIN_ID PATH...`, the registry's (default or --config)
        if args.plugin_id or args.plugin_version:
            parser.error("--plugin-id and --plugin-version go with --command CMD")
        try:
            config = _with_repo(load_config(args.config or default_config_path()), args.repo)
        except ConfigError as exc:
            print(exc, file=sys.stderr)
            return EXIT_CONFIG
        plugin_id, *paths = args.args
        plugin = config.plugins.get(plugin_id)
        if plugin is None or plugin.protocol != "gpp/3":
            print(
                codes.UnknownPluginError(
                    f"no GPP/3 plugin {plugin_id!r} in {config.path}"
                ).diagnostic(),
                file=sys.stderr,
            )
            return EXIT_PROTOCOL
        if not paths:
            parser.error("name at least one PATH after PLUGIN_ID")
        command, session = plugin.command, plugin.session(on_stderr=said.append)
    else:
        if args.config is not None:
            parser.error("give either --config or --command, not both")
        if not (args.plugin_id and args.plugin_version):
            parser.error("--command needs --plugin-id and --plugin-version")
        command = resolve_command(shlex.split(args.command), Path.cwd())
        paths = args.args
        session = PluginSession(
            command,
            args.plugin_id,
            args.plugin_version,
            cwd=str(args.repo or args.root),
            sandbox=None if args.no_sandbox else SandboxPolicy(),
            on_stderr=said.append,
        )
    try:
        document = asyncio.run(_run_once(session, paths, args.request_id))
    except codes.ProtocolError as exc:
        # the plugin's own words, as HTTP gives them in stderrTail, escaped for the terminal
        print("\n".join(failure_lines(exc, command)), file=sys.stderr)
        return EXIT_PROTOCOL
    if args.format == "table":
        print(summary.table(json.loads(document)), flush=True)
    else:
        sys.stdout.buffer.write(document + b"\n")
        sys.stdout.buffer.flush()
    if args.stderr:
        print(f"gpp: the plugin's stderr ({len(said)} lines):", file=sys.stderr)
        print("\n".join(f"  {escaped(line)}" for line in said), file=sys.stderr)
    return 0


def _scan(args: argparse.Namespace) -> int:
    packs = args.packs.split(",") if args.packs else list(BUNDLED_PACKS)
    if not args.repo.is_dir():
        print(f"gpp scan: REPO {escaped(str(args.repo))} is not a folder", file=sys.stderr)
        return EXIT_CONFIG
    try:
        config = _with_repo(load_config(args.config or DEFAULT_CONFIG), args.repo)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    unknown = [p for p in packs if getattr(config.plugins.get(p), "protocol", None) != "gpp/3"]
    if unknown:
        print(
            f"gpp scan: no GPP/3 pack {', '.join(map(repr, unknown))} in {config.path} (there: "
            f"{', '.join(p for p, v in config.plugins.items() if v.protocol == 'gpp/3')})",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    tty = sys.stderr.isatty()
    outcomes = asyncio.run(
        scan.run_packs(config, packs, lambda line: print(line, file=sys.stderr) if tty else None)
    )
    repo = str(args.repo)
    if args.html is not None:
        args.html.write_text(scan_page.page(repo, outcomes), "utf-8")
    print(scan.json_text(outcomes) if args.json else scan.summary_text(repo, outcomes))
    if args.html is not None and not args.json:
        print(f"\nreport: {escaped(str(args.html))}")
    return EXIT_PROTOCOL if any(o.document is None for o in outcomes) else 0


def _refuse_unbound_roots(config: Config, bound: set[Path]) -> None:
    """Under `--isolated` the repositories were bound read-only once, before the gateway began:
    a reload that brings another root would leave it writable, so it waits for a restart."""
    problems = [
        f"[[plugin]] {plugin_id}: root: {plugin.root} was not bound read-only when the "
        "isolated gateway started; restart the gateway to add it"
        for plugin_id, plugin in config.plugins.items()
        if plugin.root not in bound
    ]
    if problems:
        raise ConfigError(config.path, problems)


def _with_repo(config: Config, repo: Path | None) -> Config:
    """`--repo PATH`: the config with every plugin's root at PATH; the file is left as it is."""
    if repo is None:
        return config
    root = Path(os.path.abspath(repo))  # not resolved: as a registry's `root` (app.config)
    if not root.is_dir():
        raise ConfigError(config.path, [f"--repo: {root} is not a directory"])
    plugins = {pid: p.model_copy(update={"root": root}) for pid, p in config.plugins.items()}
    return config.model_copy(update={"plugins": plugins})


async def _run_once(session: PluginSession, paths: list[str], request_id: str | None) -> bytes:
    async with session:
        result = await session.discover(paths, request_id)
    return canonical_trusted(result)


def _uid_said(uid_range: tuple[int, int]) -> str:
    """Who a plugin not started by check-config would run as (a started one says it itself)."""
    if os.geteuid() != 0:
        return f"the gateway's own ({os.geteuid()})"
    return f"one of its own per session, from sandbox.uid_range {list(uid_range)}"


def _check_config(path: Path, start: bool = True) -> int:
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    problems = preflight(config)
    identities: dict[str, str] = {}
    if start and not problems:
        problems = asyncio.run(start_each(config, identities))
    if problems:  # a plugin's start may quote its words (an error frame's message): escaped
        print("\n".join(terminal_lines(str(ConfigError(path, problems)))), file=sys.stderr)
        return EXIT_CONFIG
    for plugin in config.plugins.values():
        print(
            f"{plugin.id} {plugin.version} ({plugin.protocol}): {shlex.join(plugin.command)} "
            f"in {plugin.root}\n  view: {plugin.declared_view()}"
        )
        print(f"  uid: {identities.get(plugin.id) or _uid_said(plugin.sandbox.uid_range)}")
    print(f"{path}: OK, {len(config.plugins)} plugin(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
