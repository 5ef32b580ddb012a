"""The Node compatibility package installs from its folder in a clean checkout, as
docs/migration.md says (issue 35, item 11): the checkout's files only (no `node_modules`, which
`make install` would have made), the page's commands as written, no network (`--offline`)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from conftest import REPO, run_ok

MIGRATION = REPO / "docs" / "migration.md"
BUDGET_S = 120
CHECKOUT_PARTS = ("plugins/sdk/node", "plugins/sdk/node-compat", "plugins/client/node")
"""What the package and its two bundled `file:` dependencies are made of."""
IMPORT = (
    "const m = await import('@gate-forge/plugin-protocol');"
    "console.log(typeof m.servePlugin, m.PROTOCOL_VERSION)"
)


def clean_checkout(folder: Path) -> Path:
    for part in CHECKOUT_PARTS:
        shutil.copytree(REPO / part, folder / part, ignore=shutil.ignore_patterns("node_modules"))
    return folder


def documented_commands() -> list[str]:
    """The lines of the page's block that installs the package's folder."""
    text = MIGRATION.read_text("utf-8")
    claim = (
        "test_node_compat_checkout.py::test_the_node_compat_package_installs_from_a_clean_checkout"
    )
    block = re.search(re.escape(claim) + r" -->\n```sh\n(.*?)```", text, re.S)
    assert block is not None, "docs/migration.md no longer shows the folder install"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines()]


def empty_project(folder: Path) -> Path:
    folder.mkdir()
    (folder / "package.json").write_text(
        '{"name": "my-plugin", "version": "1.0.0", "type": "module"}'
    )
    return folder


def imports(project: Path) -> str:
    done = run_ok(["node", "--input-type=module", "-e", IMPORT], cwd=project, timeout=BUDGET_S,
                  check=False)  # fmt: skip
    return done.stdout.strip() or done.stderr


def test_the_node_compat_package_installs_from_a_clean_checkout(tmp_path: Path) -> None:
    checkout = clean_checkout(tmp_path / "checkout")
    folder = checkout / "plugins/sdk/node-compat"
    first, install = documented_commands()

    # What the issue saw: the folder alone installs, and its import fails.
    before = empty_project(tmp_path / "before")
    run_ok(["npm", "install", "--offline", "--install-links", str(folder)], cwd=before,
           timeout=BUDGET_S)  # fmt: skip
    assert "Cannot find package '@gate-forge/gateway-client'" in imports(before)

    # The page's commands, as written (with its /path/to made this checkout's).
    run_ok(shlex.split(first), cwd=checkout, timeout=BUDGET_S)
    project = empty_project(tmp_path / "my-plugin")
    cd, npm = install.split(" && ")
    assert cd == "cd /my/plugin"
    words = [word.replace("/path/to/", f"{checkout}/") for word in shlex.split(npm)]
    run_ok([*words, "--offline"], cwd=project, timeout=BUDGET_S)
    assert imports(project) == "function 3"
    assert not (project / "node_modules/@gate-forge/plugin-protocol").is_symlink()
