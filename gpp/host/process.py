"""Plugin processes: spawn with a scrubbed environment in a process group, kill the group, reap;
and `ProcessSession`, the process half that the GPP/3 and the JSON-RPC host sessions share.

Kept apart from the sessions so each reads as protocol, and so isolation (namespaces, rlimits)
and the end of a process have one place to live.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import os
import shutil
import signal
import stat
import tempfile
import threading
import weakref
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypedDict, Unpack, runtime_checkable

from gpp.core import codes
from gpp.host import uids
from gpp.host.cgroups import SessionGroup
from gpp.host.identity import drops_root
from gpp.host.sandbox import SandboxPolicy, SandboxUnavailable, SpawnPlan, plan
from gpp.host.uids import UidLease

PASSED_ENV = ("PATH", "LANG")
"""The only variables a plugin inherits; everything else it gets is said in its config."""
NOT_STARTED = {126: "could not be executed", 127: "was not found"}
"""What the sandbox's `sh` means by these statuses (before `hello`)."""


def scrubbed_env(extra: Mapping[str, str] | None, home: str) -> dict[str, str]:
    env = {key: os.environ[key] for key in PASSED_ENV if key in os.environ}
    env.setdefault("PATH", os.defpath)
    env["HOME"] = home
    env.update(extra or {})
    return env


async def spawn(
    command: Sequence[str],
    *,
    cwd: str | None,
    env: Mapping[str, str],
    sandbox: SandboxPolicy | None = None,
    home: str | None = None,
) -> tuple[asyncio.subprocess.Process, SpawnPlan | None]:
    """Start the plugin as the leader of a new session (so its whole group can be killed),
    inside its sandbox when one is given, as a uid of its own when the gateway is root (leased
    and planned for off the event loop, `_plan_off_loop`; given back by the plan once the
    session's processes are gone). `home`: the plugin's HOME folder, which the gateway made
    (never `env["HOME"]`: the registry may set that to a plugin's folder, whose symlink would
    then have root make folders and change modes where the plugin chose: issue 32, round 5).
    Raises SandboxUnavailable or OSError."""
    spawn_plan = (
        await _plan_off_loop(sandbox, command, cwd, env, home) if sandbox is not None else None
    )
    pipes = StdioPipes()
    try:
        proc = await asyncio.create_subprocess_exec(
            *(spawn_plan.argv if spawn_plan else command),
            stdin=pipes.child_ends[0],
            stdout=pipes.child_ends[1],
            stderr=pipes.child_ends[2],
            # bwrap sets the plugin's cwd (`--chdir`); the uid it runs as may not reach `cwd`
            # (uvloop changes directory after the pre-exec step has changed uid); without
            # bwrap the pre-exec step enters `cwd` as that uid (never as root: a symlink)
            cwd=cwd if spawn_plan is None else "/" if spawn_plan.namespaced else None,
            env=dict(env) if spawn_plan is None or spawn_plan.env is None else spawn_plan.env,
            start_new_session=True,
            preexec_fn=_child_setup(
                spawn_plan.preexec if spawn_plan else None, spawn_plan.fds if spawn_plan else ()
            ),
            pass_fds=spawn_plan.fds if spawn_plan else (),
        )
    except BaseException:
        pipes.close_gateway_ends()
        if spawn_plan is not None:
            spawn_plan.cleanup()
        raise
    finally:
        pipes.close_child_ends()
        if spawn_plan is not None:
            spawn_plan.close_fds()
    try:
        await pipes.attach(proc)
    except BaseException:
        pipes.close_gateway_ends()
        kill_group(proc)
        if spawn_plan is not None:
            spawn_plan.cleanup()
        raise
    return proc, spawn_plan


class StdioPipes:
    """The plugin's stdin, stdout and stderr as pipes the gateway makes, never sockets.

    uvloop (the gateway's loop under uvicorn) gives a child's `PIPE`s as Unix socketpairs, over
    which the plugin could send the gateway file descriptors (`SCM_RIGHTS`): the gateway's
    reads dropped them, and the last reference to a file dropped in the gateway's thread is
    closed there, so a TCP socket of the plugin's own loopback with unsent data and
    `SO_LINGER` (passed inside a socketpair end, its last reference the gateway's) held the
    event loop in `close` for as long as the plugin chose: every client, `/healthz` and every
    other plugin's watchdog frozen (issue 32, round 9). A pipe carries bytes only, and its
    ends are one-way (the plugin cannot write into its stdin). Made close-on-exec: the child
    gets its ends on 0-2, no other spawn inherits any."""

    def __init__(self) -> None:
        made: list[tuple[int, int]] = []
        try:
            for _ in range(3):
                made.append(os.pipe2(os.O_CLOEXEC))
        except OSError:
            for read_end, write_end in made:
                os.close(read_end)
                os.close(write_end)
            raise
        (stdin_r, stdin_w), (stdout_r, stdout_w), (stderr_r, stderr_w) = made
        self.child_ends: tuple[int, int, int] = (stdin_r, stdout_w, stderr_w)
        self.gateway_ends: tuple[int, int, int] = (stdin_w, stdout_r, stderr_r)
        self.transports: dict[int, asyncio.BaseTransport] = {}

    def close_child_ends(self) -> None:
        for fd in self.child_ends:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.child_ends = (-1, -1, -1)

    def close_gateway_ends(self) -> None:
        for number, fd in enumerate(self.gateway_ends):
            if number in self.transports:
                self.transports[number].close()
            elif fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.gateway_ends = (-1, -1, -1)

    async def attach(self, proc: asyncio.subprocess.Process) -> None:
        """The gateway's ends as the process's `stdin` writer and `stdout`, `stderr` readers,
        as `asyncio.subprocess.PIPE` would have made them."""
        loop = asyncio.get_running_loop()
        stdin_w, stdout_r, stderr_r = self.gateway_ends
        readers = []
        for number, fd in ((1, stdout_r), (2, stderr_r)):
            reader = asyncio.StreamReader(limit=STREAM_LIMIT, loop=loop)
            transport, _ = await loop.connect_read_pipe(
                functools.partial(asyncio.StreamReaderProtocol, reader, loop=loop),
                os.fdopen(fd, "rb", buffering=0),
            )
            self.transports[number] = transport
            readers.append(reader)
        writing, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(stdin_w, "wb", buffering=0)
        )
        self.transports[0] = writing
        proc.stdin = asyncio.StreamWriter(writing, protocol, None, loop)
        proc.stdout, proc.stderr = readers
        _PIPES[proc] = self


STREAM_LIMIT = 2**16
"""The readers' buffer limit, asyncio.subprocess's (only `readline` heeds it: the sessions
read in chunks)."""
_PIPES: weakref.WeakKeyDictionary[asyncio.subprocess.Process, StdioPipes] = (
    weakref.WeakKeyDictionary()
)
"""The pipes of each process `spawn` started, for `_close_pipes`."""


PLAN_BOUND_S = 30.0
"""How long planning a spawn may take before that start fails: the namespace probe and a version
manager are bounded at 10 s each, but a `stat` of a repository or view path on a hung NFS or
FUSE mount is not, and a plan held there for ever held a thread, and the start, for ever."""
MAX_STUCK_PLANS = 16
"""How many plans past their bound may still hold a thread (each sits in the kernel until its
mount answers) before every start is refused: threads are not spent without end."""
_STUCK = threading.Lock()
_stuck: Counter[str] = Counter()
"""The plans past their bound that have not ended, by repository: while one hangs there, no
new start plans against that repository (it would only hang a new thread)."""


async def _plan_off_loop(
    sandbox: SandboxPolicy,
    command: Sequence[str],
    cwd: str | None,
    env: Mapping[str, str],
    home: str | None,
) -> SpawnPlan:
    """`_lease_and_plan` in a thread of its own, for at most PLAN_BOUND_S: it may wait on the
    disk, the uid leases, a version manager (bounded) or the first probes, and one plugin's
    start must not stall every client and `/healthz` (issue 32). Not the loop's default
    executor: a plan stuck on a hung mount held one of its few workers for ever, and the
    loop parses large bodies and lines there. A plan past its bound fails its start alone,
    and one abandoned meanwhile (its request cancelled) releases the plan, and with it the
    uid, once it is made. Raises SandboxUnavailable."""
    repository = os.path.abspath(cwd) if cwd else ""
    with _STUCK:
        if _stuck[repository]:
            raise SandboxUnavailable(
                f"an earlier start's plan against {repository} has run past {PLAN_BOUND_S:g} s "
                "and not ended (a path of its repository or view on a hung mount?); no new "
                "plan against it until that one ends"
            )
        if sum(_stuck.values()) >= MAX_STUCK_PLANS:
            raise SandboxUnavailable(
                f"{MAX_STUCK_PLANS} plans have run past {PLAN_BOUND_S:g} s and not ended "
                "(paths on hung mounts?); no new plan until one ends"
            )
    made: concurrent.futures.Future[SpawnPlan] = concurrent.futures.Future()
    # its outcome handed to the loop (dropped if the loop has closed meanwhile: the gateway
    # stopped while a plan hung, and nobody waits any more)
    planning = asyncio.wrap_future(made)
    planning.add_done_callback(_retrieve)
    threading.Thread(
        target=_plan_into,
        args=(made, sandbox, command, cwd, env, home),
        name="gpp-plan",
        daemon=True,
    ).start()
    try:
        return await asyncio.wait_for(asyncio.shield(planning), PLAN_BOUND_S)
    except TimeoutError:
        with _STUCK:
            _stuck[repository] += 1
        made.add_done_callback(functools.partial(_unstick, repository))
        raise SandboxUnavailable(
            f"planning the plugin's sandbox took over {PLAN_BOUND_S:g} s (a path of its "
            f"repository {repository or '(none)'} or of its view on a hung mount?)"
        ) from None
    except asyncio.CancelledError:
        made.add_done_callback(_discard_plan)
        raise


def _plan_into(made: concurrent.futures.Future[SpawnPlan], *args: Any) -> None:
    """`_lease_and_plan(*args)`, its outcome set into `made` (whose callbacks run here)."""
    if not made.set_running_or_notify_cancel():
        return
    try:
        made.set_result(_lease_and_plan(*args))
    except BaseException as exc:  # the start's to raise, or the discard's to ignore
        made.set_exception(exc)


def _retrieve(planning: asyncio.Future[SpawnPlan]) -> None:
    """Mark an abandoned plan's exception as seen (its start has failed already)."""
    if not planning.cancelled():
        planning.exception()


def _unstick(repository: str, made: concurrent.futures.Future[SpawnPlan]) -> None:
    with _STUCK:
        _stuck[repository] -= 1
        if _stuck[repository] <= 0:
            del _stuck[repository]
    _discard_plan(made)


def _lease_and_plan(
    sandbox: SandboxPolicy,
    command: Sequence[str],
    cwd: str | None,
    env: Mapping[str, str],
    home: str | None,
) -> SpawnPlan:
    """The session's own uid first (a root gateway's, `gpp.host.uids`), then the plan made for
    it, which holds the lease from then on; the uid is given back at once if no plan is made."""
    lease = _lease_uid(sandbox) if drops_root() else None
    try:
        spawn_plan = plan(sandbox, command, cwd, home, env, lease.uid if lease else None)
    except BaseException:
        if lease is not None:
            lease.release()
        raise
    spawn_plan.uid_lease = lease
    return spawn_plan


def _discard_plan(planning: concurrent.futures.Future[SpawnPlan]) -> None:
    if not planning.cancelled() and planning.exception() is None:
        planning.result().close_fds()
        planning.result().cleanup()  # removes the cgroup and gives the uid back


def _lease_uid(sandbox: SandboxPolicy) -> UidLease:
    try:
        return uids.lease(sandbox.uid_range)
    except (uids.UidsExhausted, OSError) as exc:
        raise SandboxUnavailable(f"no uid of its own for the plugin: {exc}") from None


FREEZE_AFTER_S = 0.2
"""How long a session idles before its cgroup is frozen. Back-to-back requests pay no freeze
and no thaw (each a cgroup write; docs/performance.md has the figure); an idle plugin runs at
most this long after its answer, on the CPU budget."""
BUDGET_MIN_CHECK_S = 0.05
"""The shortest wait between two reads of a session's CPU counter near the end of its budget."""


def allowance_left(
    allowance_ns: int, budget_ns: int, window_s: float, elapsed_s: float, used_ns: int
) -> int:
    """A refilling CPU budget after `elapsed_s` in which `used_ns` were used: `budget_ns` per
    `window_s` flows back in (never past `budget_ns`), what was used flows out."""
    refilled = allowance_ns + int(elapsed_s * budget_ns / window_s)
    return min(budget_ns, refilled) - used_ns


class CpuBudget:
    """`cpu_seconds` as the plugin's total: its cgroup's CPU counter, checked while it may run.

    No read on a request's path: the group can use at most `cpus` CPU-seconds per second of
    wall time while it runs, so the next read is due when the budget left, spread over every
    CPU, could be gone. A session frozen between requests is not checked (nor can it run); one
    never frozen is checked for as long as it lives. At the end `on_spent` hears the usage.

    With `window_s` the budget refills (`allowance_left`): `cpu_seconds` in any `window_s`,
    not in the session's whole life. A JSON-RPC session serves every client at once for as
    long as it lives: a lifetime budget let one client's heavy calls, or only the sum of
    everyone's, kill the session under every other client's calls in flight.
    """

    def __init__(
        self,
        group: SessionGroup,
        budget_s: float,
        on_spent: Callable[[float], None],
        window_s: float | None = None,
    ) -> None:
        self.group = group
        self.budget_ns = int(budget_s * 1e9)
        self.on_spent = on_spent
        self.window_s = window_s
        self.cpus = max(1, len(os.sched_getaffinity(0)))
        self._loop = asyncio.get_running_loop()
        self._handle: asyncio.TimerHandle | None = None
        self._slack_s = budget_s / self.cpus  # wall time until the budget could be gone
        self._armed_at = 0.0
        self._allowance_ns = self.budget_ns  # with a window: what is left of it
        self._used_ns = 0  # the counter at the last check
        self._checked_at = self._loop.time()
        self.charged_ns = 0
        """The gateway's own CPU spent on the plugin's behalf (`charge`), counted as its."""

    def arm(self) -> None:
        if self._handle is None:
            self._armed_at = self._loop.time()
            self._handle = self._loop.call_later(
                max(BUDGET_MIN_CHECK_S, self._slack_s), self._check
            )

    def disarm(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
            self._slack_s -= self._loop.time() - self._armed_at

    def charge(self, seconds: float) -> None:
        """Count work the gateway did for the plugin (parsing what it wrote) as the plugin's
        own: a plugin writing cheap lines made the gateway spend some 500 times its own CPU,
        so its budget lasted hours. Seen at the next check (the gateway spends at most one
        CPU-second a second on it: the check may come that much later than the budget)."""
        self.charged_ns += int(seconds * 1e9)

    def _check(self) -> None:
        self._handle = None
        try:
            used = self.group.cpu_usage_ns() + self.charged_ns
        except (OSError, ValueError):
            return  # the group is gone: the session ended
        if self.window_s is None:
            left = self.budget_ns - used
        else:
            now = self._loop.time()
            left = self._allowance_ns = allowance_left(
                self._allowance_ns,
                self.budget_ns,
                self.window_s,
                now - self._checked_at,
                used - self._used_ns,
            )
            self._used_ns, self._checked_at = used, now
        if left <= 0:
            self.on_spent(used / 1e9)
            return
        self._slack_s = left / 1e9 / self.cpus
        self.arm()


def _child_setup(
    preexec: Callable[[], None] | None, keep: Sequence[int] = ()
) -> Callable[[], None]:
    """The child's last step before exec: every fd past stdio but those the sandbox hands bwrap
    by number (`keep`: a seccomp filter, a sync pipe) marked close-on-exec, so the plugin holds
    its pipes once, on 0, 1 and 2, and nothing else of the gateway's; then the sandbox's own
    step.

    uvloop (the gateway's event loop under uvicorn) does not implement `close_fds`: it left the
    child's ends of its stdio open, inheritable, at their first numbers (a plugin that closed
    fd 1 still held its stdout there, so the gateway never saw EOF and answered E_TIMEOUT after
    `request_ms` where `gpp discover`, stdlib loop, said E_EOF at once), and every fd the
    gateway inherited without close-on-exec from whatever started it (a shell's `exec
    3</srv`, a CI runner's, a supervisor's) reached every plugin, inside its sandbox: a folder
    of the host there let it open whatever its uid may read outside its view, a file root
    opened let it read or write that file (round 9; only sockets were marked then). Marked, not
    closed: uvloop runs this before libuv moves the stdio fds onto 0-2 (a dup2 clears the mark
    on the copy). The stdlib's Popen closes the same fds itself (`close_fds`, `pass_fds`).
    """

    def setup() -> None:
        # first: the sandbox's step may switch to a uid that can no longer list /proc/self/fd
        for name in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):  # the listing's own fd, gone by now
                if int(name) > 2 and int(name) not in keep:
                    os.set_inheritable(int(name), False)
        if preexec is not None:
            preexec()

    return setup


@dataclass
class PluginProcess:
    """A started plugin: the OS process, its sandbox plan, its HOME, as a ProcessSession holds
    it; `reap` undoes everything `start_plugin` did.

    With a session cgroup, `run` and `pause` thaw and freeze it around the plugin's turns (a
    frozen plugin uses no CPU at all) and arm its CPU budget while it may run."""

    proc: asyncio.subprocess.Process
    plan: SpawnPlan | None
    home: str
    reaped: bool = False
    budget: CpuBudget | None = None
    killed_for: str | None = None
    """Why the gateway killed the plugin on its own (its CPU budget), for the diagnostic."""
    _freezing: asyncio.TimerHandle | None = None

    @property
    def group(self) -> SessionGroup | None:
        return self.plan.cgroup if self.plan is not None else None

    def run(self) -> None:
        """Let the plugin run: thawed (done when this returns) before the caller writes."""
        if self._freezing is not None:
            self._freezing.cancel()
            self._freezing = None
        if (group := self.group) is not None:
            group.thaw()
        if self.budget is not None:
            self.budget.arm()

    def pause(self) -> None:
        """The plugin owes nothing: freeze it `FREEZE_AFTER_S` from now unless it is given a
        turn again by then (the freeze itself is not awaited)."""
        if self.group is not None and self.group.can_freeze and self._freezing is None:
            self._freezing = asyncio.get_running_loop().call_later(FREEZE_AFTER_S, self._freeze)

    def _freeze(self) -> None:
        self._freezing = None
        if self.reaped or (group := self.group) is None:
            return
        if self.budget is not None:
            self.budget.disarm()  # a frozen group uses no CPU: nothing to check
        group.freeze()

    def spend(self, used_s: float) -> None:
        """The plugin used up its CPU budget: kill it; its request ends in E_EOF saying so."""
        assert self.budget is not None
        budget = f"cpu_seconds = {self.budget.budget_ns / 1e9:g}"
        if self.budget.window_s is not None:
            budget += f" in any {self.budget.window_s:g} s"
        charged_s = self.budget.charged_ns / 1e9
        used = f"the plugin's cgroup used {used_s - charged_s:.2f} CPU-seconds"
        if charged_s:
            used += f" and the gateway {charged_s:.2f} reading its output"
        self.killed_for = f"CPU budget spent: {used}, {budget}; killed"
        kill_group(self.proc)
        if (group := self.group) is not None:
            group.thaw()

    def end_reason(self) -> str | None:
        """What ended the plugin besides itself: the CPU budget, or its cgroup's OOM killer."""
        if self.killed_for is not None:
            return self.killed_for
        group = self.group
        kills = group.oom_kills() if group is not None else 0
        if kills:
            return f"the memory limit of its cgroup (memory_mb) OOM-killed {kills} of its processes"
        return None

    @property
    def mechanisms(self) -> dict[str, str]:
        return self.plan.mechanisms if self.plan is not None else {}

    def status(self, raw: int | None) -> int | None:
        """The plugin's own exit status (the sandbox's init reports signals as 128+N)."""
        return self.plan.status(raw) if self.plan is not None else raw

    @property
    def returncode(self) -> int | None:
        return self.status(self.proc.returncode)

    def not_started_hint(self, status: int | None) -> str:
        """What to say when a sandboxed plugin exits 126 or 127 before `hello`: the shell
        inside the sandbox could not find (127) or not execute (126) what the command runs."""
        resolved = self.mechanisms.get("executable")
        if resolved is None or status not in NOT_STARTED:
            return ""
        return (
            f"; inside the sandbox, {resolved.split(' → ')[-1].split(' (')[0]} (or what it runs) "
            f"{NOT_STARTED[status]} (the command resolved as: {resolved}; the view: "
            f"{self.mechanisms.get('view', 'none')}); what it runs, and the interpreter its #! "
            "line names, must be in the view: add the folder to the plugin's sandbox.view in "
            "the registry, or name an interpreter the sandbox can see by its full path"
        )

    async def reap(self, kill: bool = True) -> int | None:
        """Kill the group (unless it already exited and `kill` is False), wait, clean up.
        Idempotent: later calls only return the status."""
        if self.reaped:
            return self.returncode
        self.reaped = True
        if self._freezing is not None:
            self._freezing.cancel()
        if self.budget is not None:
            self.budget.disarm()
        group = self.group
        if kill or self.proc.returncode is None:
            kill_group(self.proc)
            if group is not None:
                group.kill()
        if group is not None:
            group.thaw()  # a frozen v1 group's processes die of SIGKILL only once thawed
        # Nothing more is read from stdout: it is closed first (a stdout its reader stopped
        # reading, after a refused oversized line, is paused with the EOF unseen; `gpp discover`
        # once hung there, when asyncio's own pipes held `wait()` back), and every pipe if the
        # exit is still not reported (a descendant holding one).
        _close_pipes(self.proc, 1)
        raw = await wait_exit(self.proc, REAP_S)
        if raw is None:
            _close_pipes(self.proc, 0, 1, 2)
            raw = await wait_exit(self.proc, REAP_S)
        status = self.status(raw)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        shutil.rmtree(self.home, ignore_errors=True)
        if self.plan is not None:
            await self.plan.release()
        return status


OFF_LOOP_BYTES = 256 * 1024
"""A line or body at least this long is parsed in a worker thread, not on the event loop: parsing
a multi-megabyte result on the loop holds every other plugin and client for as long
(docs/performance.md). (The stdlib parser holds the GIL while in C, but the Python-level checks
around it let the loop run.)"""
REAP_S = 5.0
"""How long a killed plugin's exit may take to be reported, per attempt (see `reap`)."""


def _close_pipes(proc: asyncio.subprocess.Process, *fds: int) -> None:
    """Close the gateway's ends of the process's pipes `fds` (its readers see EOF)."""
    pipes = _PIPES.get(proc)  # every plugin process is `spawn`'s, its stdio `StdioPipes`
    for fd in fds:
        if pipes is not None and (pipe := pipes.transports.get(fd)) is not None:
            pipe.close()


class ProcessOptions(TypedDict, total=False):
    """How a session starts its plugin, beside the command: the keywords every session takes.

    `cwd` is the plugin's repository, `env` what it gets beyond PATH, LANG and a fresh HOME,
    `on_stderr` hears each stderr line, `sandbox` None runs it unsandboxed (tests, `--no-sandbox`).
    """

    cwd: str | None
    env: Mapping[str, str] | None
    on_stderr: Callable[[str], None] | None
    sandbox: SandboxPolicy | None


class ProcessSession:
    """What a session with one plugin process does the same way whatever protocol it speaks:
    spawn the plugin (sandboxed, scrubbed environment, fresh HOME), drain its stderr into a
    bounded ring, tell whether it still runs, and kill, reap and clean up after it.

    `gpp.host.session.PluginSession` (GPP/3) and `gpp.host.jsonrpc.JsonRpcSession` build their protocol
    on it; what they run alongside the plugin (readers, watchdogs) goes in `_tasks`, which
    `_reap` waits for, boundedly, once the process group is gone.
    """

    cpu_window_s: float | None = None
    """None: `cpu_seconds` is the session's for its whole life; else per this many seconds."""

    def __init__(
        self, command: Sequence[str], plugin_id: str, **options: Unpack[ProcessOptions]
    ) -> None:
        self.command = list(command)
        self.plugin_id = plugin_id
        self.cwd = options.get("cwd")
        self.env = dict(options.get("env") or {})
        self.sandbox = options.get("sandbox")
        self.pid: int | None = None
        """The child's pid, kept after it exits."""
        self.returncode: int | None = None
        self.stderr = StderrRing()
        self.closed = False
        self._on_stderr = options.get("on_stderr")
        self._process: PluginProcess | None = None
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def alive(self) -> bool:
        """Started, not closed, and the process has not exited (e.g. died while idle)."""
        return not self.closed and self._process is not None and self._proc.returncode is None

    @property
    def sandbox_mechanisms(self) -> dict[str, str]:
        """The isolation in effect, by concern (empty before the spawn)."""
        return self._process.mechanisms if self._process is not None else {}

    @property
    def _proc(self) -> asyncio.subprocess.Process:
        assert self._process is not None, "session not started"
        return self._process.proc

    def _running(self) -> None:
        """The plugin is owed a turn: thaw it (before the frame is written)."""
        if self._process is not None:
            self._process.run()

    def _idle(self) -> None:
        """The plugin owes nothing until the next request: freeze it."""
        if self._process is not None:
            self._process.pause()

    def _charge(self, seconds: float) -> None:
        """Count gateway time spent on this plugin's output against its CPU budget (if any)."""
        if self._process is not None and self._process.budget is not None:
            self._process.budget.charge(seconds)

    def _end_reason(self) -> str | None:
        """Why the gateway or the kernel ended the plugin (CPU budget, OOM kill), if they did."""
        return self._process.end_reason() if self._process is not None else None

    def _exit_status(self) -> int | None:
        """The plugin's own exit status so far (None: running, or never started)."""
        return self._process.returncode if self._process is not None else None

    async def _spawn(self) -> None:
        """Start the plugin and its stderr drain; a plugin that cannot start closes the session
        and raises E_EOF saying why, as does a session closed while its spawn was planned (its
        process is killed at once: round 8 found it left running for the gateway's life)."""
        if self._process is not None:
            raise RuntimeError("session already started")
        try:
            process = await start_plugin(
                self.command,
                cwd=self.cwd,
                env=self.env,
                sandbox=self.sandbox,
                cpu_window_s=self.cpu_window_s,
            )
        except codes.ProtocolError:
            self.closed = True
            raise
        if self.closed:  # closed while it was planned (a reload retired its pool): no orphan
            await process.reap(True)
            raise codes.UnexpectedEOFError(
                "plugin session was closed while it started",
                frame=1,
                expected="a running plugin",
                got=" ".join(self.command),
            )
        self._process = process
        self.pid = self._proc.pid
        assert self._proc.stderr is not None
        self._tasks.append(
            asyncio.create_task(self.stderr.drain(self._proc.stderr, self._on_stderr))
        )

    async def _reap(self, kill: bool = True) -> None:
        """Close the session: kill the group (unless it exited and `kill` is False), reap it,
        then let the session's tasks end, at most a second each (stderr ends with the process
        group; the bound covers a leaked descendant holding the pipe). Idempotent."""
        self.closed = True
        if self._process is not None:
            self.returncode = await self._process.reap(kill)
        current = asyncio.current_task()
        for task in self._tasks:
            if task is not current and not task.done():
                done, _ = await asyncio.wait({task}, timeout=1.0)
                if not done:
                    task.cancel()
        if self._process is not None:  # stderr too, now that its drain has ended
            _close_pipes(self._proc, 0, 1, 2)


async def start_plugin(
    command: Sequence[str],
    *,
    cwd: str | None,
    env: Mapping[str, str] | None,
    sandbox: SandboxPolicy | None,
    cpu_window_s: float | None = None,
) -> PluginProcess:
    """Spawn a plugin with a fresh HOME, or raise E_EOF saying why it could not start."""
    _sweep_stale_homes()
    home = tempfile.mkdtemp(prefix=f"{HOME_PREFIX}{os.getpid()}-")
    try:
        proc, spawn_plan = await spawn(
            command, cwd=cwd, env=scrubbed_env(env, home), sandbox=sandbox, home=home
        )
    except (OSError, SandboxUnavailable) as exc:
        shutil.rmtree(home, ignore_errors=True)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise codes.UnexpectedEOFError(
            f"plugin could not be started: {reason}",
            frame=1,
            expected="a running plugin",
            got=" ".join(command),
        ) from None
    process = PluginProcess(proc, spawn_plan, home)
    group = spawn_plan.cgroup if spawn_plan is not None else None
    if group is not None and sandbox is not None and sandbox.cpu_seconds:
        process.budget = CpuBudget(group, sandbox.cpu_seconds, process.spend, cpu_window_s)
        process.budget.arm()
    return process


HOME_PREFIX = "gpp-home-"


@functools.cache
def _sweep_stale_homes() -> None:
    """Remove plugin HOMEs left by gateways that died without cleaning up (SIGKILL): only
    folders of the gateway's own uid, which `mkdtemp` made; anyone may make such a name in the
    temporary folder, and root removing their tree (a million files, on the event loop) would
    be theirs to decide."""
    for home in Path(tempfile.gettempdir()).glob(f"{HOME_PREFIX}*-*"):
        creator = home.name.removeprefix(HOME_PREFIX).split("-")[0]
        with contextlib.suppress(OSError):
            st = home.lstat()
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                continue
            if creator.isdigit() and not Path(f"/proc/{creator}").exists():
                shutil.rmtree(home, ignore_errors=True)


def kill_group(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL the plugin's process group; a group already gone is not an error.

    The plugin leads its group (it starts a new session and, as a session leader, cannot leave
    it), so the group signal reaches it too. Not `proc.kill()` as well: Popen polls with
    waitpid before signalling, and a plugin that died in between is reaped there, under asyncio's
    child watcher, which then logs "Unknown child process pid" and reports status 255.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


async def wait_exit(proc: asyncio.subprocess.Process, timeout: float) -> int | None:
    """The exit status if the process ends within `timeout` seconds, else None."""
    try:
        return await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        return None


@runtime_checkable
class CountsSkippedLines(Protocol):
    """A line sink that wants to know how many lines a flood skipped unread (to count them)."""

    def __call__(self, line: str) -> None: ...

    def lines_skipped(self, count: int) -> None: ...


class StderrRing:
    """The last lines a plugin wrote to stderr, bounded in count and bytes.

    Drained continuously by `drain`, so a plugin that writes megabytes never blocks on a full
    pipe, and a crash still says why in the diagnostic.
    """

    def __init__(self, max_lines: int = 200, max_line_bytes: int = 4096) -> None:
        self.lines: deque[str] = deque(maxlen=max_lines)
        self.max_line_bytes = max_line_bytes
        self.total_bytes = 0

    async def drain(
        self, stream: asyncio.StreamReader, on_line: Callable[[str], None] | None = None
    ) -> None:
        partial = b""
        while chunk := await stream.read(65536):
            self.total_bytes += len(chunk)
            *complete, partial = (partial + chunk).split(b"\n")
            kept = complete[-self.lines.maxlen :] if self.lines.maxlen else complete
            if len(kept) < len(complete) and isinstance(on_line, CountsSkippedLines):
                on_line.lines_skipped(len(complete) - len(kept))
            for raw in kept:
                self._add(raw, on_line)
            if len(partial) > self.max_line_bytes:
                self._add(partial, on_line)
                partial = b""
            if len(chunk) == 65536:  # more may be buffered: `read` would not suspend
                await asyncio.sleep(0)
        if partial:
            self._add(partial, on_line)

    def _add(self, raw: bytes, on_line: Callable[[str], None] | None) -> None:
        line = raw[: self.max_line_bytes].decode("utf-8", "replace").rstrip("\r")
        self.lines.append(line)
        if on_line is not None:
            on_line(line)

    def tail(self, max_lines: int = 20, max_bytes: int = 4096) -> str:
        """The last lines, at most `max_lines` and `max_bytes`, oldest first."""
        picked: list[str] = []
        size = 0
        for line in reversed(self.lines):
            size += len(line.encode()) + 1
            if len(picked) >= max_lines or size > max_bytes:
                break
            picked.append(line)
        return "\n".join(reversed(picked))
