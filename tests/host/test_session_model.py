"""A model test of the host session: the real PluginSession over real pipes, against a peer that
replays a generated script (tests/fixtures/plugins/scripted_peer.py).

Scripts start from a valid session for the host's plan (start, k discovers of small or ~330 KB
of paths, shutdown) and are then mutated: any catalog frame in any phase, valid or with one bad
field, garbage, an over-long line, a partial frame, a stalled read or write, a closed stdout, an
exit, at any point. The property, for every script:

- the run ends in success or in exactly one ProtocolError of a documented class (request-scoped
  E_PLUGIN_ERROR aside, which leaves the session usable), rendered as two lines;
- no other exception escapes, nothing is left unretrieved on the event loop;
- the plugin is reaped (no process left), and nothing hangs: the watchdogs end every run well
  within a bound;
- the unmutated script succeeds.

GPP_MODEL_EXAMPLES sets the number of scripts (default 40, about half a minute); a long run is
e.g. `GPP_MODEL_EXAMPLES=2000 .venv/bin/pytest tests/host/test_session_model.py`.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from conftest import FIXTURE_PLUGINS, process_gone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpp.core import codes
from gpp.host import PluginSession, Timeouts

PEER = FIXTURE_PLUGINS / "scripted_peer.py"
sys.path.insert(0, str(FIXTURE_PLUGINS))
from scripted_peer import MUTATIONS  # noqa: E402 - the peer's own list, one source of truth

TIMEOUTS = Timeouts(handshake_ms=1500, request_ms=300, shutdown_ms=300)
SLOW_MACHINE_TIMEOUTS = Timeouts(handshake_ms=15_000, request_ms=3000, shutdown_ms=3000)
MAX_LINE_BYTES = 4096
BOUND_S = 20.0
"""Beyond the budgets, no run may take this long: the kill and EOF graces take 3 s at most."""
SMALL_PATHS = (".", "src/a.gfx")
BIG_PATHS = tuple(f"src/module_{n:05}/" + "x" * 80 for n in range(3500))
FRAME_TYPES = (
    "hello",
    "ready",
    "discover",
    "result",
    "error",
    "fatal",
    "shutdown",
    "bye",
    "greeting",
)
Step = list[Any]


def valid_script(discovers: int) -> list[Step]:
    """What a correct plugin does for the host's plan."""
    script: list[Step] = [["send", "hello", ""], ["read"]]
    for _ in range(discovers):
        script += [["read"], ["send", "result", ""]]
    return [*script, ["read"], ["send", "bye", ""], ["exit", 0]]


any_step = st.one_of(
    st.tuples(st.just("send"), st.sampled_from(FRAME_TYPES), st.sampled_from(MUTATIONS)),
    st.tuples(
        st.just("raw"), st.sampled_from(["0a", "7b7d0a", "5b315d0a", "ff0a", "7b2270", "00"])
    ),
    st.tuples(st.just("long"), st.just(MAX_LINE_BYTES + 100)),
    st.sampled_from([("read",), ("drain",), ("deaf",), ("close",)]),
    st.tuples(st.just("exit"), st.sampled_from([0, 1, 3])),
).map(list)
last_step: st.SearchStrategy[Step] = st.sampled_from(
    [["deaf"], ["drain"], ["close"], ["exit", 0], ["exit", 3]]
)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[list[bool], list[Step], bool]:
    """(the host's discovers, big or small; the peer's script; whether it was mutated).

    Edits are weighted toward what breaks sessions: a frame of another type or with one bad
    field where a valid one belongs, and a script cut short by a stall, a close or an exit.
    """
    plan = draw(st.lists(st.booleans(), max_size=2))
    script = valid_script(len(plan))
    edits = draw(st.integers(0, 3))
    for _ in range(edits):
        sends = [i for i, step in enumerate(script) if step[0] == "send"]
        operation = draw(
            st.sampled_from(["retype", "mutate", "cut", "insert", "replace", "delete"])
        )
        if operation in ("retype", "mutate") and sends:
            at = draw(st.sampled_from(sends))
            _, message_type, mutation = script[at]
            if operation == "retype":
                message_type = draw(st.sampled_from(FRAME_TYPES))
            else:
                mutation = draw(st.sampled_from(MUTATIONS))
            script[at] = ["send", message_type, mutation]
            continue
        at = draw(st.integers(0, len(script) - 1))
        if operation == "cut":
            script[at:] = [draw(last_step)]
        elif operation == "insert":
            script.insert(at, draw(any_step))
        elif operation == "replace":
            script[at] = draw(any_step)
        elif len(script) > 1:
            del script[at]
    return plan, script, edits > 0


@dataclass
class Outcome:
    error: BaseException | None
    session: PluginSession
    loop_errors: list[dict[str, Any]]


async def drive(plan: list[bool], script: list[Step], timeouts: Timeouts = TIMEOUTS) -> Outcome:
    loop_errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, ctx: loop_errors.append(ctx))
    session = PluginSession(
        [sys.executable, str(PEER), json.dumps(script)],
        "fixture",
        "1.0.0",
        timeouts=timeouts,
        max_line_bytes=MAX_LINE_BYTES,
    )
    error: BaseException | None = None
    try:
        async with asyncio.timeout(BOUND_S + sum(vars(timeouts).values()) / 1000):
            await session.start()
            for big in plan:
                try:
                    await session.discover(BIG_PATHS if big else SMALL_PATHS)
                except codes.PluginErrorResponse:
                    if session.closed:
                        raise
            await session.shutdown()
    except BaseException as exc:  # every kind, to be judged below
        error = exc
    finally:
        await session.dispose()
    await asyncio.sleep(0)  # let done-callbacks of abandoned tasks run before judging
    return Outcome(error, session, loop_errors)


EXAMPLES = int(os.environ.get("GPP_MODEL_EXAMPLES", "40"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios())
def test_every_script_ends_in_success_or_one_protocol_error(
    scenario: tuple[list[bool], list[Step], bool],
) -> None:
    plan, script, mutated = scenario
    outcome = asyncio.run(drive(plan, script))
    error, session = outcome.error, outcome.session
    if error is not None:
        assert isinstance(error, codes.ProtocolError), f"escaped: {error!r}"
        assert type(error) in codes.ERROR_CLASSES.values(), f"undocumented class {type(error)}"
        assert not isinstance(error, codes.InvalidRequestError)
        assert isinstance(error.frame, int) and error.frame >= 1
        lines = error.diagnostic().split("\n")
        assert len(lines) == 2 and "Traceback" not in error.diagnostic()
        assert lines[0].startswith(f"[plugin-protocol] FAIL {error.code}: frame {error.frame}: ")
    else:
        assert session.returncode == 0
    if not mutated and isinstance(error, codes.WatchdogTimeoutError):
        # the budgets are small for speed: a loaded machine may miss one; ten times as much
        # must then be enough, or the valid session really failed
        error = asyncio.run(drive(plan, script, SLOW_MACHINE_TIMEOUTS)).error
    assert mutated or error is None, f"a valid session failed: {error}"
    assert session.closed
    assert process_gone(session.pid), "the plugin was not reaped"
    assert outcome.loop_errors == [], outcome.loop_errors
