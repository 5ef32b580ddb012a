"""A non-root user on a systemd machine with cgroup v2 runs the bundled plugins with `make serve`
(issue 32), proved in a real guest, with `systemd-run --user --scope -p Delegate=yes` typed or asked
for by the gateway itself: this host is root on a cgroup v1 hybrid whose v2 mount has
no controllers, where the v2 delegation path could only meet a fake cgroupfs.

The guest (tests/vm/build-guest.sh: Debian bookworm from debootstrap, its own kernel, systemd,
cgroup v2 unified) boots under qemu with KVM and no network; this checkout and a wheelhouse come
in through a read-only 9p share, and tests/vm/guest_scenario.py, run there as the non-root user
in that user's systemd session, writes a report to a second share that the tests below judge.
Only `make test-vm` collects it (GPP_VM_TEST=1, tests/conftest.py), after `make test-container`
in CI; without qemu, or where no stock kernel can boot fast enough, it skips in one line."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_ok

from app import cgroup_notice

QEMU = shutil.which("qemu-system-x86_64")


def _accelerator() -> list[str] | str:
    """qemu's accelerator options, or why the guest cannot run here in reasonable time. KVM where
    the CPU virtualises (vmx or svm): a /dev/kvm without them (a nested host's PVM, `kvm_pvm`)
    boots only guest kernels built for it, and a stock Debian kernel hangs in its decompressor
    there. Else TCG, qemu's emulator, only when GPP_VM_TCG=1 asks: it takes minutes."""
    flags = Path("/proc/cpuinfo").read_text().split()
    if os.access("/dev/kvm", os.R_OK | os.W_OK) and ("vmx" in flags or "svm" in flags):
        return ["-enable-kvm", "-cpu", "host"]
    if os.environ.get("GPP_VM_TCG") == "1":
        return ["-accel", "tcg,thread=multi", "-cpu", "max"]
    return (
        "no KVM that boots a stock kernel here (no vmx/svm CPU flag); "
        "GPP_VM_TCG=1 runs the guest emulated (minutes)"
    )


ACCELERATOR = _accelerator()

CACHE = REPO / ".vm"
"""Built guests (by the build script's digest) and wheelhouses (by the locked dependencies'),
kept between runs; ignored by git."""
BUILD_WITHIN_S = 1500
BOOT_AND_RUN_WITHIN_S = 1500
"""Boot, scenario and power-off, host side; the scenario's own bound is the guest unit's
`TimeoutStartSec=1200` (`tests/vm/build-guest.sh`), under it. On a 2-core host at load 10 the
guest took 184 s to boot and its scenario overran the 600 s it had then: no report."""
MIB = 1024 * 1024
GUEST_UID = 1000
SESSION_GROUP = re.compile(r"gpp-\d+-[0-9a-f]{12}")
STARTED = time.monotonic()


def _timed(what: str, since: float) -> float:
    now = time.monotonic()
    print(f"vm: {what} in {now - since:.1f} s", file=sys.stderr)
    return now


def _guest(dependencies: Path) -> Path:
    """The built guest's folder (rootfs.img, vmlinuz, initrd.img): built once per version of
    the build script and of the locked dependencies."""
    script = REPO / "tests" / "vm" / "build-guest.sh"
    built = run_ok([str(script), str(CACHE), str(dependencies)], timeout=BUILD_WITHIN_S)
    return Path(built.stdout.split()[-1])


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]


def _dependencies() -> Path:
    """The wheels of the gateway's locked dependencies (cached by requirements.lock and
    pyproject.toml): the guest's .venv is made from them, offline."""
    digest = hashlib.sha256(
        (REPO / "requirements.lock").read_bytes() + (REPO / "pyproject.toml").read_bytes()
    ).hexdigest()[:12]
    wheels = CACHE / f"wheels-{digest}"
    if not wheels.is_dir():
        partial = Path(tempfile.mkdtemp(dir=CACHE, prefix="wheels."))
        run_ok([*PIP, "wheel", "-c", "requirements.lock", "-w", str(partial), "."], timeout=900)
        for built in partial.glob("gate_forge-*"):
            built.unlink()  # each run's own, from the checkout (`_payload`)
        for old in CACHE.glob("wheels-*"):
            shutil.rmtree(old)
        partial.rename(wheels)
    return wheels


def _payload(folder: Path) -> None:
    """What the guest's read-only share holds: this checkout's files as git sees them (tracked
    and untracked, not ignored), and the gateway's wheel built from them in `.wheels`; readable
    by the guest's user, who sees the host's modes."""
    listed = run_ok(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], timeout=60
    ).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if not source.exists() and not source.is_symlink():  # deleted, not yet committed
            continue
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    skip = shutil.ignore_patterns("__pycache__", "node_modules")
    with tempfile.TemporaryDirectory(prefix="gpp-vm-source.") as copy:
        source = Path(copy)  # a copy: building writes build/ and *.egg-info beside the sources
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(REPO / name, source / name)
        for part in ("gpp", "app", "plugins"):
            shutil.copytree(REPO / part, source / part, ignore=skip, symlinks=True)
        wheel = [*PIP, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w"]
        run_ok([*wheel, str(folder / ".wheels"), "."], cwd=source, timeout=300)
    for directory, _, _ in os.walk(folder):
        Path(directory).chmod(0o755)


def _boot(guest: Path, payload: Path, results: Path, console: Path) -> None:
    """The guest booted, its scenario run and the guest powered off; qemu killed whatever
    happens, its console kept for the failure message."""
    command = [
        str(QEMU),
        *ACCELERATOR,
        "-smp",
        "2",
        "-m",
        "2048",
        "-display",
        "none",
        "-no-reboot",
        "-nic",
        "none",
        "-serial",
        f"file:{console}",
        "-kernel",
        str(guest / "vmlinuz"),
        "-initrd",
        str(guest / "initrd.img"),
        "-append",
        "root=/dev/vda rw console=ttyS0 panic=-1 systemd.show_status=0",
        "-drive",
        f"file={guest / 'rootfs.img'},if=virtio,format=raw,snapshot=on",
        "-virtfs",
        f"local,path={payload},mount_tag=payload,security_model=none,readonly=on",
        "-virtfs",
        f"local,path={results},mount_tag=results,security_model=none",
    ]
    qemu = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, stderr = qemu.communicate(timeout=BOOT_AND_RUN_WITHIN_S)
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"the guest did not power off within {BOOT_AND_RUN_WITHIN_S} s:\n{_tail(console)}"
        )
    finally:
        if qemu.poll() is None:
            qemu.kill()
            qemu.wait(timeout=30)
    if qemu.returncode != 0:
        pytest.fail(f"qemu exited {qemu.returncode}: {stderr.decode(errors='replace')}")


def _tail(console: Path) -> str:
    return console.read_text(errors="replace")[-8000:] if console.exists() else "(no console)"


@pytest.fixture(scope="module")
def report() -> Iterator[dict[str, Any]]:
    """The guest's report. Skips every test in one reason where the guest cannot run (the
    tests are still collected: pytest's "no tests" exit would fail `make test-vm`)."""
    if QEMU is None:
        pytest.skip("no qemu-system-x86_64 here (make vm-deps)")
    if isinstance(ACCELERATOR, str):
        pytest.skip(ACCELERATOR)
    CACHE.mkdir(exist_ok=True)
    started = time.monotonic()
    guest = _guest(_dependencies())
    started = _timed("guest built (or found built)", started)
    with tempfile.TemporaryDirectory(prefix="gpp-vm.") as scratch:
        payload, results = Path(scratch, "payload"), Path(scratch, "results")
        payload.mkdir()
        results.mkdir()
        _payload(payload)
        Path(scratch).chmod(0o755)
        started = _timed("payload made", started)
        console = Path(scratch, "console.log")
        _boot(guest, payload, results, console)
        _timed("guest booted, ran the scenario and powered off", started)
        said = console.read_text(errors="replace")
        if not (results / "report.json").exists():
            pytest.fail(f"the guest wrote no report:\n{_tail(console)}")
        found: dict[str, Any] = json.loads((results / "report.json").read_text())
        found["console"] = said
        yield found
    _timed("whole run", STARTED)


def test_the_guest_runs_cgroup_v2_and_the_scenario_as_a_non_root_user(
    report: dict[str, Any],
) -> None:
    assert report["cgroup_fs"] == "cgroup2fs"
    assert report["uid"] == GUEST_UID
    for name, run in report["runs"].items():  # what each start said and took (-rP shows it)
        answers = {pid: p["status"] for pid, p in run.get("plugins", {}).items()}
        print(f"{name} ({run['seconds']} s): {run.get('cgroup_line', run.get('error'))}; {answers}")


def test_the_guests_make_serve_is_the_recipe_make_serve_runs() -> None:
    """The guest has no network: its .venv is made beforehand, and it runs `make -o install
    serve` (install taken as done). That must be `make serve`'s own command, nothing else."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    make = ["make", "--no-print-directory", "-n", "-o", "install", "serve", "PORT=8787"]
    planned = run_ok(make, timeout=60, env=env).stdout
    assert planned.split() == [".venv/bin/gpp", "serve", "--port", "8787"], planned
    scenario = (REPO / "tests" / "vm" / "guest_scenario.py").read_text()
    assert '["make", "-o", "install", "serve"]' in scenario


def _run(report: dict[str, Any], name: str) -> dict[str, Any]:
    run: dict[str, Any] = report["runs"][name]
    assert "error" not in run, f"{name}: {run['error']}\n{run.get('log', '')}"
    return run


def _answered(plugin: dict[str, Any]) -> bool:
    """A discovery that found something, or the JSON-RPC example's `subtract(42, 23)`."""
    if plugin["described"]["protocol"] == "gpp/3":
        return bool(plugin["status"] == 200 and plugin["found"])
    return bool(plugin["status"] == 200 and plugin["found"] == 19)


def _said(plugin: dict[str, Any], mechanism: str) -> str:
    said: str = plugin["described"]["sandbox"].get(mechanism, "")
    return said


def test_make_serve_in_a_delegated_scope_says_it_makes_plugin_cgroups(
    report: dict[str, Any],
) -> None:
    run = _run(report, "delegated")
    assert run["cgroup_line"] == "gpp: plugin cgroups: cgroup v2, one per session", run["log"]
    tree = run["tree"]
    scope = tree["groups"]["."]
    assert tree["owner_uid"] == GUEST_UID, "systemd gave the user the delegated scope"
    assert {"memory", "pids"} <= set(scope["cgroup.subtree_control"].split())
    assert scope["procs"] == {}, "no process left in the scope: make and the gateway in the leaf"
    leaf = " | ".join(tree["groups"]["gpp-gateway"]["procs"].values())
    assert "make -o install serve" in leaf and "gpp serve" in leaf, leaf


def test_plain_make_serve_asks_the_users_systemd_for_a_delegated_scope_and_runs_there(
    report: dict[str, Any],
) -> None:
    """`make serve` in a cgroup the user may not write (a terminal's `session-N.scope`; here the
    boot service's), with the user's systemd at hand: the gateway asks it for a delegated scope
    (`app/systemd_scope.py`), runs itself again there, and says so in its one line. `make`, its
    starter, stays where it was: only the gateway moved."""
    run = _run(report, "asked")
    assert run["cgroup_line"] == (
        f"gpp: plugin cgroups: cgroup v2, one per session, {cgroup_notice.ASKED}"
    ), run["log"]
    tree = run["tree"]
    scope = Path(tree["path"])
    assert re.fullmatch(r"run-[^/]+\.scope", scope.name), scope
    assert f"/user@{GUEST_UID}.service/" in str(scope), scope
    assert tree["owner_uid"] == GUEST_UID, "the user's systemd made the scope the user's"
    assert {"memory", "pids"} <= set(tree["groups"]["."]["cgroup.subtree_control"].split())
    assert tree["groups"]["."]["procs"] == {}, "the gateway moved into its leaf"
    leaf = " | ".join(tree["groups"]["gpp-gateway"]["procs"].values())
    assert "bin/gpp serve --port 8791" in leaf and "make" not in leaf, leaf
    assert not run["started_in"].startswith(str(scope)), run["started_in"]


@pytest.mark.parametrize("name", ["delegated", "asked"])
def test_every_bundled_plugin_answers_make_serve_in_a_delegated_scope(
    report: dict[str, Any], name: str
) -> None:
    plugins = _run(report, name)["plugins"]
    assert len(plugins) >= 7, sorted(plugins)
    failed = {pid: p for pid, p in plugins.items() if not _answered(p)}
    assert not failed, json.dumps(failed, indent=1)


@pytest.mark.parametrize("name", ["delegated", "asked"])
def test_each_plugin_session_ran_in_a_cgroup_v2_leaf_of_its_own_with_memory_and_pids_max(
    report: dict[str, Any], name: str
) -> None:
    run = _run(report, name)
    groups: dict[str, Any] = run["tree"]["groups"]
    seen: set[str] = set()
    for plugin_id, plugin in run["plugins"].items():
        pid = str(plugin["described"]["pid"])
        holding = [name for name, group in groups.items() if pid in group["procs"]]
        assert len(holding) == 1 and SESSION_GROUP.fullmatch(holding[0]), (plugin_id, holding)
        name = holding[0]
        assert not any(other.startswith(f"{name}/") for other in groups), f"{name} is no leaf"
        memory = re.search(r"memory\.max=(\d+) MiB", _said(plugin, "cgroup"))
        pids = re.search(r"pids\.max=(\d+)", _said(plugin, "processes"))
        assert memory and pids, plugin["described"]["sandbox"]
        assert groups[name]["memory.max"] == str(int(memory[1]) * MIB), (plugin_id, groups[name])
        assert groups[name]["pids.max"] == pids[1], (plugin_id, groups[name])
        seen.add(name)
    assert len(seen) == len(run["plugins"]), "a session group of each plugin's own"


def test_make_serve_where_the_user_may_not_write_its_cgroup_says_what_to_do(
    report: dict[str, Any],
) -> None:
    """A terminal's `session-N.scope` is root's: here, the boot service's cgroup, and no user
    manager to ask for a scope (no `XDG_RUNTIME_DIR`, no user bus, as under `su`)."""
    run = _run(report, "undelegated")
    line = run["cgroup_line"]
    assert line.startswith("gpp: no cgroup for plugins here (") and "Permission denied" in line
    assert f"{cgroup_notice.REFUSED}; {cgroup_notice.DELEGATE}" in line, line
    assert "`gpp serve --cgroup optional`" in line, line
    for plugin_id, plugin in run["plugins"].items():
        assert not _answered(plugin), plugin_id
        assert "no cgroup can be made" in plugin["described"]["lastDiagnostic"], plugin_id


def test_cgroup_optional_where_the_user_may_not_write_its_cgroup_says_what_is_lost(
    report: dict[str, Any],
) -> None:
    run = _run(report, "optional")
    line = run["cgroup_line"]
    assert line.startswith("gpp: no cgroup for plugins here (") and line.endswith(
        f"; --cgroup optional: {cgroup_notice.LOST}"
    ), line
    failed = {pid: p for pid, p in run["plugins"].items() if not _answered(p)}
    assert not failed, json.dumps(failed, indent=1)
    for plugin_id, plugin in run["plugins"].items():
        assert _said(plugin, "cgroup").startswith("none ("), plugin_id


def test_make_serve_in_a_user_scope_without_delegate_makes_plugin_cgroups_too(
    report: dict[str, Any],
) -> None:
    """What the real guest showed: a scope of the user's own systemd is the user's directory
    with memory and pids offered, Delegate or not, and systemd 252 marks neither kind (no
    `user.delegate` xattr), so the gateway cannot tell them apart and makes its groups there.
    Without Delegate=yes systemd may rewrite that scope's controllers later (a daemon-reload):
    the README says Delegate=yes."""
    run = _run(report, "scope-without-delegate")
    assert run["cgroup_line"] == "gpp: plugin cgroups: cgroup v2, one per session", run["log"]
    assert run["tree"]["marks"]["user.delegate"].startswith("("), run["tree"]["marks"]
    failed = {pid: p for pid, p in run["plugins"].items() if not _answered(p)}
    assert not failed, json.dumps(failed, indent=1)
