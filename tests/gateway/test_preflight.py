"""`gpp check-config` reports what would fail at the first request, one line per problem."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO, doc
from gateway_harness import write_config

EXAMPLE = str(REPO / "plugins" / "jsonrpc_example.py")
NO_NAMESPACES = {"sandbox": {"network": "inherit"}}
"""Where the sandbox is beside the point: its check depends on this machine."""


def check_config(
    config: Path, *flags: str, start: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    """`gpp check-config`, by default with `--no-start` (these tests' plugins are beside the
    point: `test_every_plugin_is_started_in_its_sandbox` starts them)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "gpp.gateway",
            "check-config",
            str(config),
            *flags,
            *([] if start else ["--no-start"]),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        env={**os.environ, **env},
    )


def entry(plugin_id: str, command: list[str], **extra: object) -> dict[str, object]:
    return {"id": plugin_id, "version": "1", "command": command, **extra}


def test_commands_and_token_file_that_would_fail_are_one_line_each(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("s3cret\n")
    (tmp_path / "token").chmod(0o644)
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "in_root.py").write_text("")
    config = write_config(
        tmp_path,
        [
            entry("not-on-path", ["gpp-no-such-tool"]),
            entry("no-script", ["{python}", "missing_plugin.py"]),
            entry("relative", ["bin/plugin"], root="root"),
            entry("absolute", ["/nonexistent/gpp-plugin", "--flag"]),
            entry("not-executable", [str(tmp_path / "token")]),
            entry("fine", ["{python}", "-u", "in_root.py"], root="root"),  # found in its root (cwd)
            entry("code", ["{python}", "-c", "import os.path; print('a/b.py')"]),
            entry("module", ["{python}", "-m", "json.tool"]),
        ],
        gateway={"token_file": "token"},
        defaults=NO_NAMESPACES,
    )
    done = check_config(config)
    assert done.returncode == 1 and done.stdout == ""
    root = (tmp_path / "root").resolve()
    assert done.stderr.splitlines() == [
        f"{config}: gateway.token_file: {tmp_path / 'token'} is readable by group or others "
        "(mode 0644); chmod 600 it",
        f"{config}: [[plugin]] #1 (not-on-path): command: 'gpp-no-such-tool' is not found on PATH",
        f"{config}: [[plugin]] #2 (no-script): command: 'missing_plugin.py' is neither beside the "
        f"config ({tmp_path}) nor in the root ({tmp_path})",
        f"{config}: [[plugin]] #3 (relative): command: 'bin/plugin' is neither beside the config "
        f"({tmp_path}) nor in the root ({root})",
        f"{config}: [[plugin]] #4 (absolute): command: '/nonexistent/gpp-plugin' does not exist",
        f"{config}: [[plugin]] #5 (not-executable): command: '{tmp_path / 'token'}' is not "
        "executable",
    ]


def test_a_missing_token_file_and_a_root_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    config = write_config(
        tmp_path,
        [entry("example", ["{python}", EXAMPLE], root="a-file")],
        gateway={"token_file": "absent"},
        defaults=NO_NAMESPACES,
    )
    done = check_config(config)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{config}: [[plugin]] #1 (example): root: {tmp_path / 'a-file'} is not a directory"
    ]
    (tmp_path / "a-file").unlink()
    (tmp_path / "a-file").mkdir()
    done = check_config(config)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{config}: gateway.token_file: {tmp_path / 'absent'}: cannot read: No such file or directory"
    ]
    (tmp_path / "absent").write_text("s3cret\n")
    (tmp_path / "absent").chmod(0o600)
    done = check_config(config)
    assert done.returncode == 0 and done.stdout.endswith(f"{config}: OK, 1 plugin(s)\n")


def test_a_sandbox_this_machine_cannot_build_is_named(tmp_path: Path) -> None:
    """Without bwrap on PATH the probe refuses; only the plugins that ask for namespaces fail."""
    empty = tmp_path / "no-tools"
    empty.mkdir()
    config = write_config(
        tmp_path,
        [
            entry("isolated", ["{python}", EXAMPLE]),
            entry(
                "readonly",
                ["{python}", EXAMPLE],
                sandbox={"network": "inherit", "readonly_root": True},
            ),
            entry(
                "open",
                ["{python}", EXAMPLE],
                sandbox={"network": "inherit", "readonly_root": False},
            ),
        ],
    )
    done = check_config(config, PATH=str(empty))
    assert done.returncode == 1
    advice = 'set sandbox.network = "inherit" and readonly_root = false to run without them'
    assert done.stderr.splitlines() == [
        f"{config}: [[plugin]] #1 (isolated): sandbox.network: needs namespaces, which this "
        f"machine cannot build (bwrap is not installed); {advice}",
        f"{config}: [[plugin]] #2 (readonly): sandbox.readonly_root: needs namespaces, which this "
        f"machine cannot build (bwrap is not installed); {advice}",
    ]
    assert check_config(config).returncode == 0  # bwrap works here (the suite's sandbox tests)


def test_readme_broken_config_example_runs_as_written(tmp_path: Path) -> None:
    readme = doc("registry.md")
    (toml,) = [
        b for b in re.findall(r"```toml\n(.*?)```", readme, re.S) if 'token_file = "token"' in b
    ]
    (shown,) = re.findall(r"```text\n\$ gpp check-config broken.toml\n(.*?)```", readme, re.S)
    (tmp_path / "broken.toml").write_text(toml)
    (tmp_path / "repo").mkdir()
    (tmp_path / "token").write_text("s3cret\n")
    (tmp_path / "token").chmod(0o644)
    done = subprocess.run(
        [sys.executable, "-m", "gpp.gateway", "check-config", "broken.toml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.replace(str(tmp_path.resolve()), "/srv/engine") == shown


def test_every_plugin_is_started_in_its_sandbox(tmp_path: Path) -> None:
    """Issue 23: a command the sandbox cannot run (exit 127 before `hello`) used to pass
    check-config and fail at the first request; now the handshake is tried, then `bye`. The
    wrapper is run as it is (issue 32): what it execs is not in its view."""
    wrapper = tmp_path / "bin" / "python3"
    wrapper.parent.mkdir()
    wrapper.write_text('#!/bin/sh\nexec "/nonexistent/bin/python3" "$@"\n')
    wrapper.chmod(0o755)
    reference = str(REPO / "plugins" / "reference_detector.py")
    config = write_config(
        tmp_path,
        [
            entry("reference-detector", ["{python}", reference], version="1.0.0"),
            entry("broken", [str(wrapper), reference]),
        ],
    )
    done = check_config(config, start=True)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(
        f"{config}: [[plugin]] #2 (broken): does not start in its sandbox: E_EOF: output ended "
    ), line
    assert f"inside the sandbox, {wrapper} (or what it runs) was not found" in line
    assert "sandbox.view" in line  # where to say what it runs (issue 32: never followed)
    assert line.endswith("(exit code 127)"), line
    assert check_config(config).returncode == 0  # --no-start: the shape alone is fine


def test_check_config_says_the_uid_each_plugin_ran_as(tmp_path: Path) -> None:
    """Issue 32: a root gateway's plugins each run as a uid of their own; check-config says
    which one the handshake's session had, and the range without `--no-start`."""
    reference = str(REPO / "plugins" / "reference_detector.py")
    config = write_config(
        tmp_path, [entry("reference-detector", ["{python}", reference], version="1.0.0")]
    )
    started = check_config(config, start=True)
    assert started.returncode == 0, started.stderr
    (said,) = [line for line in started.stdout.splitlines() if line.startswith("  uid: ")]
    if os.geteuid() == 0:
        uid = int(said.removeprefix("  uid: uid ").split(",")[0])
        assert 0x7000_0000 <= uid <= 0x7000_FFFF, said
        assert "the session's own (sandbox.uid_range [1879048192, 1879113727])" in said
    shape = check_config(config)
    assert shape.returncode == 0, shape.stderr
    if os.geteuid() == 0:
        assert "  uid: one of its own per session, from sandbox.uid_range [1879048192, " in (
            shape.stdout
        )
