"""The `gpp` command as a user runs it, and the README's commands run as written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import DEMO_REPO, FIXTURE_PLUGINS, REPO, doc
from gateway_harness import running_gateway

from app.config import load_config
from gpp.core import canonical

GPP = [sys.executable, "-m", "gpp.gateway"]
GOLDEN = json.loads((REPO / "tests/vectors/demo_repo_document.json").read_text("utf-8"))
README = doc()  # the README and every docs page


def gpp(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GPP, *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def discover_fixture(name: str) -> subprocess.CompletedProcess[str]:
    """`gpp discover .` with the fixture plugin `plugin_NAME.py`, given by flags alone."""
    command = f"{{python}} {FIXTURE_PLUGINS / f'plugin_{name}.py'}"
    return gpp(
        "discover",
        *("--command", command, "--plugin-id", "fixture", "--plugin-version", "1.0.0"),
        ".",
    )


def test_version_and_help() -> None:
    assert re.fullmatch(r"gpp \S+ \(GPP/3\)\n", gpp("--version").stdout)
    help_text = gpp("--help").stdout
    for command in ("serve", "discover", "check-config"):
        assert command in help_text
    assert "--command" in gpp("discover", "--help").stdout


def test_discover_with_a_registered_plugin_prints_the_canonical_document() -> None:
    done = gpp(
        "discover",
        "--config",
        "plugins/registry.toml",
        "--request-id",
        "golden",
        "reference-detector",
        ".",
        "README.md",
        "outside.gfx",
        "missing.gfx",
        "legacy/latin1.gfx",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.encode() == canonical(GOLDEN) + b"\n"


def test_discover_with_a_command() -> None:
    done = gpp(
        "discover",
        "--command",
        "{python} " + str(REPO / "plugins/reference_detector.py"),
        "--plugin-id",
        "reference-detector",
        "--plugin-version",
        "1.0.0",
        "--root",
        str(DEMO_REPO),
        "api",
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["resources"]) == 3


def test_discover_failure_prints_two_lines_and_exits_2() -> None:
    done = discover_fixture("gpp2_peer")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("[plugin-protocol] FAIL E_PROTOCOL_VERSION: frame 1:")
    assert lines[1].startswith("[plugin-protocol] offending frame: {")


def test_discover_bad_path_exits_2_without_running_anything_useful() -> None:
    done = gpp("discover", "--config", "plugins/registry.toml", "reference-detector", "../etc")
    assert done.returncode == 2
    assert "FAIL E_SCHEMA" in done.stderr and "'..' segment" in done.stderr


def test_check_config(tmp_path: Path) -> None:
    ok = gpp("check-config", "plugins/registry.toml")
    registered = len(load_config(REPO / "plugins/registry.toml").plugins)
    assert ok.returncode == 0 and f"OK, {registered} plugin(s)" in ok.stdout
    packs = REPO / "plugins" / "packs"
    assert f"  view: {REPO}/plugins/pack_django.py, {packs} (sandbox.view)" in ok.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[defaults]\nrequest_ms = 0\n[[plugin]]\nid = "a"\nversion = "1"\ncommand = []\n'
        '[[plugin]]\nid = "a"\nversion = "1"\ncommand = ["x"]\nroot = "nowhere"\n'
        "[plugin.sandbox]\nnetwork = true\n"
    )
    done = gpp("check-config", str(bad))
    assert done.returncode == 1
    problems = done.stderr.splitlines()
    assert all(line.startswith(f"{bad}: ") for line in problems)
    joined = "\n".join(problems)
    for expected in (
        "defaults.request_ms",
        "#1 (a): command",
        "#2 (a): sandbox.network",
        "#2 (a): id: registered twice",
    ):
        assert expected in joined


def test_serve_refuses_a_non_loopback_bind() -> None:
    done = gpp("serve", "--host", "0.0.0.0", "--port", "1")
    assert done.returncode == 2 and "--allow-non-loopback" in done.stderr


def readme_commands(prefix: str) -> list[str]:
    """Shell commands in the README's sh blocks that start with `prefix` (joined across \\)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for command in block.replace("\\\n", " ").splitlines():
            if command.startswith(prefix):
                commands.append(command)
    return commands


def test_readme_curl_examples_run_as_written() -> None:
    """Against the bundled registry on 8787, with the token `gpp serve` generates (the curl
    finds it with `.venv/bin/gpp token`); the other examples' own tests run theirs."""
    commands = [c for c in readme_commands("curl ") if "127.0.0.1:8787" in c]
    assert commands, "the README shows no curl example"
    with running_gateway(REPO / "plugins" / "registry.toml", as_served=True) as gw:
        for command in commands:
            done = subprocess.run(
                ["bash", "-c", command.replace("8787", str(gw.port))],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=REPO,
            )
            assert done.returncode == 0, (command, done.stderr)
            if "/reference-detector/discover" in command:
                assert json.loads(done.stdout)["findings"][0]["code"] == "DUPLICATE_TABLE_NAME"
            elif "/discover" in command:  # a source-reading pack over the sample app
                assert json.loads(done.stdout)["resources"], command
            elif "event-stream" in command:
                assert done.stdout.count("event: notification") == 3
                assert (
                    'event: response\ndata: {"jsonrpc": "2.0", "result": 3, "id": "p"}'
                    in done.stdout
                )
            else:
                assert done.stdout == '{"jsonrpc": "2.0", "result": 19, "id": 1}'


def test_readme_gpp_and_by_hand_examples_run_as_written() -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    # `gpp scan … --html report.html` writes a file: test_scan.py runs it in a scratch folder
    commands = [c for c in readme_commands("gpp ") if not c.startswith(("gpp serve", "gpp scan"))]
    assert commands
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, cwd=REPO, env=env, timeout=60
        )
        assert done.returncode == 0, (command, done.stderr)
    by_hand = re.search(r"```sh\n(cd plugins/examples/demo-repo.*?)```", README, re.S)
    assert by_hand, "the README lost its drive-it-by-hand example"
    done = subprocess.run(
        ["bash", "-c", by_hand.group(1)], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    frames = [json.loads(line) for line in done.stdout.splitlines()]
    assert [f["type"] for f in frames] == ["hello", "result", "bye"], done.stderr


def test_readme_engine_client_example_runs_as_written() -> None:
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if "GatewayClient" in b]
    with running_gateway(REPO / "plugins" / "registry.toml") as gw:
        namespace: dict[str, object] = {}
        exec(block.replace("8787", str(gw.port)), namespace)
    document = namespace["document"]
    assert isinstance(document, dict) and document["findings"][0]["code"] == "DUPLICATE_TABLE_NAME"


def _fixture_processes(name: str) -> list[str]:
    script = str(FIXTURE_PLUGINS / f"plugin_{name}.py").encode()
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and script in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:  # gone meanwhile
            pass
    return found


def test_a_session_fatal_error_frame_in_place_of_hello_or_bye_is_two_lines() -> None:
    for name, frame in (("error_instead_of_hello", 1), ("error_instead_of_bye", 3)):
        done = discover_fixture(name)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.splitlines() == [
            f"[plugin-protocol] FAIL E_PLUGIN_ERROR: frame {frame}: plugin answered with an error "
            "frame: Crashed: out of coffee",
            done.stderr.splitlines()[1],
        ]
        assert done.stderr.splitlines()[1].startswith('[plugin-protocol] offending frame: {"')
        assert _fixture_processes(name) == []


def test_discover_after_an_endless_oversized_line_ends_with_e_frame_json() -> None:
    """Issue 23: the plugin keeps writing past the refused line; the CLI still ends (bounded by
    `gpp`'s 60 s timeout) with the gateway's diagnostic."""
    done = discover_fixture("floods_oversized_line")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(
        "[plugin-protocol] FAIL E_FRAME_JSON: frame 1: line exceeds max_line_bytes"
    )


def test_discover_plugin_id_path_asks_the_default_registry() -> None:
    """The first form in `gpp discover --help`, with no --config: plugins/registry.toml."""
    done = gpp("discover", "reference-detector", "api")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["resources"]) == 3


def test_discover_id_flags_without_a_command_say_what_they_go_with() -> None:
    done = gpp("discover", "--plugin-id", "x", "--plugin-version", "1", ".")
    assert done.returncode == 2 and "go with --command CMD" in done.stderr


def test_discover_escapes_what_a_plugin_wrote() -> None:
    hostile = FIXTURE_PLUGINS / "plugin_writes_terminal_escapes.py"
    done = gpp(
        "discover",
        *("--command", f"{{python}} {hostile}", "--plugin-id", "hostile"),
        *("--plugin-version", "1.0.0", "crash"),
    )
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "\r" not in done.stderr and "\x07" not in done.stderr
    lines = done.stderr.splitlines()
    assert "  clipboard \\u001b]52;c;cm0gLXJmIH4=\\u0007" in lines
    assert "  partial\\r[plugin-protocol] FAIL E_FORGED: forged" in lines
    assert not any(line.startswith("[plugin-protocol] FAIL E_FORGED") for line in lines)


def test_discover_runs_a_py_command_with_the_gateways_python() -> None:
    done = gpp(
        "discover",
        *("--command", str(REPO / "plugins/reference_detector.py")),
        *("--plugin-id", "reference-detector", "--plugin-version", "1.0.0"),
        *("--root", str(DEMO_REPO), "api"),
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["resources"]) == 3


def test_a_python_without_the_sdk_is_named_in_one_line(tmp_path: Path) -> None:
    """`-I -S`: this interpreter with neither site-packages nor PYTHONPATH, a `python3` that
    has no `gpp`, as after `pipx install .`."""
    plugin = tmp_path / "my_plugin.py"
    plugin.write_text(README.split("```python\n", 1)[1].split("```", 1)[0])
    done = gpp(
        "discover",
        *("--command", f"{sys.executable} -I -S {plugin}", "--root", str(tmp_path)),
        *("--plugin-id", "my-plugin", "--plugin-version", "1.0.0", "."),
    )
    assert done.returncode == 2
    hint = [line for line in done.stderr.splitlines() if line.startswith("gpp: the plugin ran")]
    assert hint == [
        f"gpp: the plugin ran with {sys.executable}, which has no module 'gpp'; run it with the "
        f"gateway's own Python, which has gpp and gateforge_plugin (`-- {plugin}` or "
        f"`-- '{{python}}' {plugin}`), or install gate-forge into that interpreter"
    ], done.stderr
    assert "ModuleNotFoundError: No module named 'gpp'" in done.stderr


def test_discover_shows_the_plugins_stderr_after_the_document_when_asked() -> None:
    done = gpp(
        "discover",
        "--stderr",
        *("--command", str(FIXTURE_PLUGINS / "chatty_plugin.py"), "--plugin-id", "chatty"),
        *("--plugin-version", "1.0.0", "."),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["resources"] == []
    heading = "gpp: the plugin's stderr (3 lines):"
    said = done.stderr.splitlines()
    assert said[said.index(heading) + 1 :] == [
        "  debug: discovering ['.']",
        "  a child's output too",
        "  no newline, even",
    ]
    assert heading not in gpp("discover", "reference-detector", "api").stderr


def test_discover_as_a_table_counts_per_kind_and_places_every_entry() -> None:
    done = gpp("discover", "--format", "table", "reference-detector", ".")
    assert done.returncode == 0, done.stderr
    head, *entries = done.stdout.splitlines()
    assert head == "7 resources (4 route, 3 table), 2 unresolved, 1 findings"
    assert "  route  POST /users  api/users.gfx:4" in entries
    assert "  unresolved  legacy/latin1.gfx  unreadable: not valid UTF-8" in entries
    assert (
        "  finding  DUPLICATE_TABLE_NAME  table users is defined 2 times  "
        "api/users.gfx:2 billing/orders.gfx:2"
    ) in entries
    assert len(entries) == 10


def test_check_config_escapes_what_a_plugin_said_at_start(tmp_path: Path) -> None:
    shutil.copy(FIXTURE_PLUGINS / "_fault.py", tmp_path)  # the sandbox sees the root, not tests/
    (tmp_path / "hostile.py").write_text(
        "from _fault import *\n"
        'send(envelope("error", {"code": "Crashed", "message": "\\x1b]52;c;eA==\\x07 gone"}, 1))\n'
        "block_forever()\n"
    )
    registry = tmp_path / "registry.toml"
    registry.write_text(
        '[[plugin]]\nid = "fixture"\nversion = "1.0.0"\ncommand = ["{python}", "hostile.py"]\n'
        "[plugin.sandbox]\nreadonly_root = false\n"
    )
    done = gpp("check-config", str(registry))
    assert done.returncode == 1
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "Crashed: \\u001b]52;c;eA==\\u0007 gone" in done.stderr, done.stderr
