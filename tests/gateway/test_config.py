"""The config's one source for each list: [defaults] and a [[plugin]] entry's overrides merge
key by key, the sandbox keys are gpp.host.sandbox.SandboxPolicy's, and `PluginConfig.session()`
builds the session the pool and the CLI run."""

from __future__ import annotations

import grp
import pwd
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from app.config import ConfigError, Limits, load_config
from gpp.client import default_token_file
from gpp.core import DEFAULT_MAX_LINE_BYTES
from gpp.host import SandboxPolicy, Timeouts

CONFIG = """
[defaults]
request_ms = 2000
max_queue = 3
[defaults.sandbox]
network = "inherit"
memory_mb = 512

[[plugin]]
id = "plain"
version = "1"
command = ["plugin"]

[[plugin]]
id = "tuned"
version = "2"
command = ["plugin", "--flag"]
request_ms = 700
instances = 2
env = {A = "b"}
[plugin.sandbox]
cpu_seconds = 5
readonly_root = true
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "registry.toml"
    path.write_text(text)
    return path


def test_an_entry_overrides_only_the_keys_it_sets(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, CONFIG))
    plain, tuned = config.plugins["plain"], config.plugins["tuned"]
    assert plain.limits == Limits(request_ms=2000, max_queue=3)
    assert tuned.limits == Limits(request_ms=700, max_queue=3, instances=2)
    # the registry itself and the token `gpp serve` would generate, wherever they fall in a view
    hidden = (str(config.path), str(default_token_file()))
    assert plain.sandbox == SandboxPolicy(network="inherit", memory_mb=512, hide=hidden)
    assert tuned.sandbox == SandboxPolicy(
        network="inherit", memory_mb=512, cpu_seconds=5, readonly_root=True, hide=hidden
    )


def test_the_defaults_are_the_hosts_and_the_sandboxs_own(tmp_path: Path) -> None:
    config = write(tmp_path, '[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\n')
    plugin = load_config(config).plugins["p"]
    assert plugin.timeouts == Timeouts()
    assert plugin.limits.max_line_bytes == DEFAULT_MAX_LINE_BYTES
    assert plugin.sandbox == SandboxPolicy(hide=(str(config.resolve()), str(default_token_file())))


def test_every_sandbox_key_is_a_config_key(tmp_path: Path) -> None:
    keys = [field.name for field in fields(SandboxPolicy)]
    values: dict[str, tuple[str, object]] = {
        "readonly_root": ("true", True),
        "cgroup": ('"optional"', "optional"),
        "view": ('["."]', (str(tmp_path.resolve()),)),  # relative to the registry's folder
        "hide": (
            '["x"]',
            (
                str(tmp_path.resolve() / "x"),
                str(tmp_path.resolve() / "registry.toml"),
                str(default_token_file()),
            ),
        ),
        "uid_range": ("[1879048192, 1879048199]", (1879048192, 1879048199)),
        "terminal": ("true", True),
    }  # the limits: 7
    body = "\n".join(f"{key} = {values.get(key, ('7', 7))[0]}" for key in keys[1:])
    config = write(
        tmp_path,
        f'[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\n[plugin.sandbox]\n{body}\n',
    )
    sandbox = load_config(config).plugins["p"].sandbox
    assert [getattr(sandbox, key) for key in keys[1:]] == [
        values.get(key, ("7", 7))[1] for key in keys[1:]
    ]


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        (
            "[plugin.sandbox]\nnetwork = true\n",
            '#1 (p): sandbox.network: expected false or "inherit", got the boolean true',
        ),
        ("[plugin.sandbox]\nswap_mb = 1\n", "#1 (p): sandbox.swap_mb: unknown key"),
        ("[plugin.sandbox]\nmemory = 1\n", "sandbox.memory: unknown key (did you mean memory_mb?)"),
        ("[plugin.sandbox]\nmemory_mb = 0\n", "#1 (p): sandbox.memory_mb: must be greater than 0"),
        (
            "[plugin.sandbox]\nuid = 5000\n",
            "#1 (p): sandbox.uid: no longer a key: replaced by uid_range = [first, last]",
        ),
        (
            "[plugin.sandbox]\nuid_range = [60000, 70000]\n",
            "#1 (p): sandbox.uid_range: [60000, 70000] contains 65534 (nobody)",
        ),
        (
            "[plugin.sandbox]\nuid_range = [0, 10]\n",
            "#1 (p): sandbox.uid_range: [0, 10] must be two uids with 0 < first <= last",
        ),
        (
            "[plugin.sandbox]\nuid_range = [20, 10]\n",
            "#1 (p): sandbox.uid_range: [20, 10] must be two uids with 0 < first <= last",
        ),
    ],
)
def test_a_bad_sandbox_key_is_named(tmp_path: Path, table: str, problem: str) -> None:
    config = write(tmp_path, f'[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\n{table}')
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert [p for p in caught.value.problems if problem in p], caught.value.problems


def test_the_session_is_the_plugin_as_registered(tmp_path: Path) -> None:
    tuned = load_config(write(tmp_path, CONFIG)).plugins["tuned"]
    lines: list[str] = []
    session = tuned.session(on_stderr=lines.append)
    assert (session.command, session.plugin_id, session.plugin_version) == (
        ["plugin", "--flag"],
        "tuned",
        "2",
    )
    env = {"A": "b", "GPP_REQUEST_MS": "700"}  # the host tells a plugin its budget (packs)
    assert (session.cwd, session.env, session.sandbox) == (str(tmp_path), env, tuned.sandbox)
    assert session.timeouts == Timeouts(handshake_ms=10_000, request_ms=700, shutdown_ms=5_000)
    assert session.pid is None  # built, not started


def test_a_command_that_starts_with_a_py_file_runs_with_the_gateways_python(
    tmp_path: Path,
) -> None:
    (tmp_path / "scanner.py").write_text("")
    registry = tmp_path / "registry.toml"
    registry.write_text(
        '[[plugin]]\nid = "scanner"\nversion = "1"\ncommand = ["scanner.py", "--fast"]\n'
        '[[plugin]]\nid = "node"\nversion = "1"\ncommand = ["node", "scanner.py"]\n'
    )
    plugins = load_config(registry).plugins
    assert plugins["scanner"].command == [sys.executable, str(tmp_path / "scanner.py"), "--fast"]
    assert plugins["node"].command == ["node", str(tmp_path / "scanner.py")]


def test_announces_is_the_id_unless_said(tmp_path: Path) -> None:
    registry = tmp_path / "registry.toml"
    registry.write_text(
        '[[plugin]]\nid = "shop"\nannounces = "pack-http-routes"\nversion = "1"\ncommand = ["x"]\n'
        '[[plugin]]\nid = "plain"\nversion = "1"\ncommand = ["x"]\n'
    )
    plugins = load_config(registry).plugins
    assert (plugins["shop"].announces, plugins["plain"].announces) == ("pack-http-routes", "plain")
    with pytest.raises(ConfigError, match="announces"):
        registry.write_text(
            '[[plugin]]\nid = "a"\nannounces = "no spaces"\nversion = "1"\ncommand = ["x"]\n'
        )
        load_config(registry)


def test_a_view_is_relative_to_the_registry_and_must_exist(tmp_path: Path) -> None:
    """Issue 32: `sandbox.view` paths resolve like `command` (against the registry's folder),
    and a path that does not exist is named at load, not at the first request."""
    (tmp_path / "packs").mkdir()
    entry = '[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\nsandbox.view = '
    config = write(tmp_path, entry + '["packs"]\n')
    assert load_config(config).plugins["p"].sandbox.view == (str(tmp_path.resolve() / "packs"),)
    with pytest.raises(ConfigError) as refused:
        load_config(write(tmp_path, entry + '["packs", "../nowhere"]\n'))
    missing = tmp_path.resolve().parent / "nowhere"
    assert refused.value.problems == [f"[[plugin]] #1 (p): sandbox.view: {missing} does not exist"]


def test_a_uid_range_holding_a_host_account_is_refused(tmp_path: Path) -> None:
    """Issue 32, item 3: a plugin's uid is shared with nothing on the host."""
    account = next(e for e in pwd.getpwall() if e.pw_uid not in (0, 65534))
    table = f"[plugin.sandbox]\nuid_range = [{account.pw_uid}, {account.pw_uid}]\n"
    config = write(tmp_path, f'[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\n{table}')
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    (problem,) = caught.value.problems
    assert problem.startswith("[[plugin]] #1 (p): sandbox.uid_range: "), problem
    assert f"contains id {account.pw_uid} of {account.pw_name!r} in /etc/passwd" in problem


def test_a_uid_range_set_in_the_defaults_is_checked_for_every_plugin(tmp_path: Path) -> None:
    account = next(e for e in grp.getgrall() if e.gr_gid not in (0, 65534))
    text = (
        f"[defaults.sandbox]\nuid_range = [{account.gr_gid}, {account.gr_gid}]\n"
        '[[plugin]]\nid = "p"\nversion = "1"\ncommand = ["x"]\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert "sandbox.uid_range: " in caught.value.problems[0], caught.value.problems
