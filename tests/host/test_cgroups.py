"""`gpp.host.cgroups`: finding where session groups go, and what a group writes and reads.

The v1 path runs for real on this machine (tests/host/test_sandbox_escapes.py). The v2 path cannot:
here the unified mount offers no controller but hugetlb. Its file writes are tested against a
fake cgroupfs (a tmp dir with the files a v2 cgroup has), which proves what is written where and
in which order, not that a kernel accepts it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpp.host import CgroupUnavailable, Layout, Limits, SessionGroup, cgroups

V1_MOUNTINFO = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
V1_CGROUP = """\
8:pids:/
6:freezer:/
4:memory:/process_api/cb7c
2:cpuacct:/
1:cpu:/
0::/
"""
V2_MOUNTINFO = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
V2_CGROUP = "0::/user.slice/user-1000.slice/session-3.scope\n"


def test_v1_groups_go_under_the_gateways_own_cgroup_in_each_hierarchy() -> None:
    layout = cgroups.find_layout(V1_MOUNTINFO, V1_CGROUP)
    assert layout == Layout(
        1,
        {
            "memory": Path("/sys/fs/cgroup/memory/process_api/cb7c"),
            "pids": Path("/sys/fs/cgroup/pids"),
            "cpuacct": Path("/sys/fs/cgroup/cpuacct"),
            "freezer": Path("/sys/fs/cgroup/freezer"),
        },
    )


def test_v1_with_cpu_and_cpuacct_mounted_together_and_a_container_root() -> None:
    mountinfo = (
        "35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
        "36 31 0:33 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
        "39 31 0:36 /docker/abc /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n"
    )
    proc = "9:pids:/docker/abc\n4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n"
    layout = cgroups.find_layout(mountinfo, proc)
    assert isinstance(layout, Layout) and layout.version == 1
    assert layout.parents["cpuacct"] == Path("/sys/fs/cgroup/cpu,cpuacct")
    assert layout.parents["memory"] == Path("/sys/fs/cgroup/memory")
    assert "freezer" not in layout.parents


def test_v2_groups_go_under_the_gateways_own_cgroup() -> None:
    layout = cgroups.find_layout(V2_MOUNTINFO, V2_CGROUP)
    assert layout == Layout(
        2, {"unified": Path("/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope")}
    )


def test_no_cgroup_mount_says_why() -> None:
    why = cgroups.find_layout("1 0 0:1 / / rw - ext4 /dev/sda rw\n", "0::/\n")
    assert isinstance(why, str) and "memory" in why


def fake_v2(root: Path, *, procs: str = "", enabled: str = "", root_cgroup: bool = False) -> Path:
    """A v2 cgroup directory as the kernel shows it, its files plain files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids\n")
    (root / "cgroup.subtree_control").write_text(enabled)
    (root / "cgroup.procs").write_text(procs)
    if not root_cgroup:
        (root / "cgroup.type").write_text("domain\n")
    return root


def test_v2_delegation_moves_the_gateway_into_a_leaf_before_enabling(tmp_path: Path) -> None:
    parent = fake_v2(tmp_path / "session.scope", procs=f"{os.getpid()}\n")
    cgroups.delegate_v2(parent, os.getpid())
    assert (parent / "gpp-gateway" / "cgroup.procs").read_text() == str(os.getpid())
    assert (parent / "cgroup.subtree_control").read_text() == "+memory +pids"


def test_v2_delegation_leaves_the_gateway_where_it_is_when_not_needed(tmp_path: Path) -> None:
    enabled = fake_v2(tmp_path / "a", procs="1\n", enabled="memory pids\n")
    cgroups.delegate_v2(enabled, os.getpid())
    root = fake_v2(tmp_path / "b", procs="1\n", root_cgroup=True)  # no internal-process rule
    cgroups.delegate_v2(root, os.getpid())
    assert not (enabled / "gpp-gateway").exists() and not (root / "gpp-gateway").exists()
    assert (root / "cgroup.subtree_control").read_text() == "+memory +pids"


def test_v2_without_the_controllers_is_refused(tmp_path: Path) -> None:
    parent = fake_v2(tmp_path / "x")
    (parent / "cgroup.controllers").write_text("hugetlb\n")  # this machine's unified mount
    with pytest.raises(CgroupUnavailable, match="memory, pids"):
        cgroups.delegate_v2(parent, os.getpid())


def make_v2_group(parent: Path) -> SessionGroup:
    """A v2 session group in a fake parent: the kernel would create the files on mkdir."""
    real_mkdir = Path.mkdir

    def mkdir(path: Path, *args: object, **kwargs: object) -> None:
        real_mkdir(path)
        for name in ("memory.max", "memory.swap.max", "pids.max", "cgroup.procs",
                     "cgroup.freeze", "cgroup.events"):  # fmt: skip
            (path / name).write_text("")
        (path / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\n")
        (path / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n")

    layout = Layout(2, {"unified": parent})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "mkdir", mkdir)
        return SessionGroup.create(layout, Limits(64 * 1024 * 1024, 16), 4242)


def test_a_v2_group_writes_its_limits_freezes_and_reads_its_counters(tmp_path: Path) -> None:
    group = make_v2_group(fake_v2(tmp_path / "parent"))
    (directory,) = set(group.dirs.values())
    assert directory.parent == tmp_path / "parent" and directory.name.startswith("gpp-4242-")
    assert (directory / "memory.max").read_text() == str(64 * 1024 * 1024)
    assert (directory / "memory.swap.max").read_text() == "0"
    assert (directory / "pids.max").read_text() == "16"
    assert group.procs_files == (str(directory / "cgroup.procs"),)
    assert group.cpu_usage_ns() == 1_500_000_000
    assert group.oom_kills() == 2
    group.freeze()
    assert (directory / "cgroup.freeze").read_text() == "1"
    group.thaw()
    assert (directory / "cgroup.freeze").read_text() == "0"


def test_a_v1_group_writes_memory_and_swap_limits_in_their_hierarchies(tmp_path: Path) -> None:
    parents = {c: tmp_path / c for c in ("memory", "pids", "cpuacct", "freezer")}
    real_mkdir = Path.mkdir

    def mkdir(path: Path, *args: object, **kwargs: object) -> None:
        real_mkdir(path)
        files = {
            "memory": [
                "memory.limit_in_bytes",
                "memory.memsw.limit_in_bytes",
                "memory.kmem.tcp.limit_in_bytes",
            ],
            "pids": ["pids.max"],
            "cpuacct": ["cpuacct.usage"],
            "freezer": ["freezer.state"],
        }[path.parent.name]
        for name in [*files, "cgroup.procs"]:
            (path / name).write_text("")

    for parent in parents.values():
        parent.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Path, "mkdir", mkdir)
        group = SessionGroup.create(Layout(1, parents), Limits(32 * 1024 * 1024, 8), 7)
    assert (group.dirs["memory"] / "memory.limit_in_bytes").read_text() == str(32 << 20)
    assert (group.dirs["memory"] / "memory.memsw.limit_in_bytes").read_text() == str(32 << 20)
    # socket buffers: v1 charges them to no group unless their own limit is set (round 8)
    assert (group.dirs["memory"] / "memory.kmem.tcp.limit_in_bytes").read_text() == str(32 << 20)
    with (
        pytest.MonkeyPatch.context() as patch
    ):  # and at most SOCKET_BYTES_V1: tcp_mem is the host's
        patch.setattr(Path, "mkdir", mkdir)
        large = SessionGroup.create(Layout(1, parents), Limits(4 << 30, 8), 7)
    tcp = (large.dirs["memory"] / "memory.kmem.tcp.limit_in_bytes").read_text()
    assert tcp == str(cgroups.SOCKET_BYTES_V1) == str(64 << 20)
    assert (group.dirs["pids"] / "pids.max").read_text() == "8"
    assert len(group.procs_files) == 4
    group.freeze()
    assert (group.dirs["freezer"] / "freezer.state").read_text() == "FROZEN"
    group.thaw()
    assert (group.dirs["freezer"] / "freezer.state").read_text() == "THAWED"


def test_a_group_that_cannot_be_made_is_removed_and_said(tmp_path: Path) -> None:
    parents = {"memory": tmp_path / "memory", "pids": tmp_path / "missing-hierarchy"}
    parents["memory"].mkdir()
    with pytest.raises(CgroupUnavailable, match="cannot make the plugin's cgroup"):
        SessionGroup.create(Layout(1, parents), Limits(None, None), 7)
    assert list(parents["memory"].iterdir()) == []  # the half-made group is gone


def test_stale_groups_of_dead_gateways_are_swept_live_ones_kept(tmp_path: Path) -> None:
    dead, live = tmp_path / "gpp-999999999-aaaa", tmp_path / f"gpp-{os.getpid()}-bbbb"
    for group in (dead, live):
        group.mkdir()
    cgroups.sweep_stale([tmp_path])
    assert live.exists()
    assert not dead.exists()


def test_v2_delegation_moves_what_started_the_gateway_in_its_cgroup_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`systemd-run --user --scope -p Delegate=yes make serve`: `make`, the gateway's parent,
    is in the scope too, and the controllers cannot be enabled while it stays there (found in
    a real cgroup v2 guest: tests/product/test_vm_cgroup2.py). A stranger in the cgroup stays."""
    stranger = "999999999"
    parent = fake_v2(
        tmp_path / "run-u7.scope", procs=f"{os.getppid()}\n{os.getpid()}\n{stranger}\n"
    )
    moved: list[str] = []
    real_write_text = Path.write_text

    def write_text(path: Path, text: str, *args: object, **kwargs: object) -> int:
        if path == parent / "gpp-gateway" / "cgroup.procs":
            moved.append(text)
        return real_write_text(path, text)

    monkeypatch.setattr(Path, "write_text", write_text)
    cgroups.delegate_v2(parent, os.getpid())
    assert moved == [str(os.getpid()), str(os.getppid())]
    assert (parent / "cgroup.subtree_control").read_text() == "+memory +pids"


def test_the_starters_are_the_ancestors_in_the_gateways_cgroup_nearest_first(
    tmp_path: Path,
) -> None:
    for pid, ppid in ((40, 30), (30, 20), (20, 10), (10, 1)):
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "status").write_text(f"Name:\tx\nPid:\t{pid}\nPPid:\t{ppid}\n")
    assert cgroups._starters(40, {"40", "30", "20", "5"}, tmp_path) == [30, 20]
    assert cgroups._starters(40, {"40", "20"}, tmp_path) == []  # 30 is elsewhere: 20 is not its
    assert cgroups._starters(40, {"40", "30", "20", "10"}, tmp_path) == [30, 20, 10]


def test_the_walk_to_the_starters_ends_on_a_cycle_of_reused_pids(tmp_path: Path) -> None:
    """Pids reused while `/proc` is read may make the parent links a cycle: the walk stops."""
    for pid, ppid in ((40, 30), (30, 20), (20, 30)):
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "status").write_text(f"Name:\tx\nPid:\t{pid}\nPPid:\t{ppid}\n")
    assert cgroups._starters(40, {"40", "30", "20"}, tmp_path) == [30, 20]
