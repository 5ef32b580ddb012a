"""The version a plugin is pinned to is checked as a registry version is (issue 33, items 7 and
8): 1 to 128 characters, no control character, whether a registry entry says it, a `--plugin
ID@VERSION` flag, or an unpinned plugin's hello announces it. On main a 129-character one was
pinned, and every later reload then failed (so a new token could not be rotated in)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURE_PLUGINS, REPO

from app.config import ConfigError, parse_config

ANNOUNCES = str(FIXTURE_PLUGINS / "plugin_announces_version.py")


def _serve(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`gpp serve --plugin …` that must refuse to start (bounded)."""
    return subprocess.run(
        [sys.executable, "-m", "gpp.gateway", "serve", "--uds", str(tmp_path / "gw.sock"),
         "--repo", str(tmp_path), *flags],
        capture_output=True, text=True, timeout=60, cwd=REPO, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("announced", "says"),
    [
        ("v" * 129, "1 to 128 characters, this one has 129"),
        ("1.0\x1b]52;c;aGk=\x07", "no control characters"),
        ("1.0\n[gateway] all plugins ready", "no control characters"),
    ],
)
def test_an_unpinned_plugin_announcing_a_bad_version_is_refused_at_start(
    tmp_path: Path, announced: str, says: str
) -> None:
    done = _serve(tmp_path, "--plugin", "fixture", "--", sys.executable, ANNOUNCES, announced)
    assert done.returncode != 0 and not (tmp_path / "gw.sock").exists()
    assert "Traceback" not in done.stderr
    assert says in done.stderr, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "\n[gateway] all plugins ready" not in done.stderr


def test_a_pin_flag_of_129_characters_is_refused_at_start(tmp_path: Path) -> None:
    done = _serve(
        tmp_path, "--plugin", "fixture@" + "v" * 129, "--", sys.executable, ANNOUNCES, "x"
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "version" in done.stderr and "128" in done.stderr, done.stderr


def test_a_registry_version_with_a_control_character_is_refused() -> None:
    raw = {"plugin": [{"id": "a", "version": "1.0\x1b[2J", "command": ["x"]}]}
    with pytest.raises(ConfigError, match="version"):
        parse_config(raw, Path("registry.toml"), Path("/"))


def test_plugin_flags_without_a_repo_are_refused_not_served_from_the_current_folder(
    tmp_path: Path,
) -> None:
    """On main the current directory was the root: started from a home folder, every plugin
    could read the whole home (a token file kept there included)."""
    (tmp_path / "secret").write_text("token in the home folder\n")
    done = subprocess.run(
        [sys.executable, "-m", "gpp.gateway", "serve", "--uds", str(tmp_path / "gw.sock"),
         "--plugin", "fixture@1.0.0", "--", sys.executable, ANNOUNCES, "1.0.0"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode != 0 and not (tmp_path / "gw.sock").exists()
    assert "--repo PATH (`--repo .` for this folder)" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
