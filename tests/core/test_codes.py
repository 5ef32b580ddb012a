"""gpp.core.codes: the E_* classes and the one renderer of their two diagnostic lines.

Every surface (stderr of `gpp discover`, the problem documents, the SDKs' messages) prints what
`fail_line` and `offending_line` say, so their exact text is the contract DESIGN.md §6 fixes."""

from __future__ import annotations

import signal

import pytest

from gpp.core import codes


def test_the_fail_line_names_code_frame_subject_and_what_was_expected_and_got() -> None:
    error = codes.SchemaError(
        "has the wrong type",
        frame=2,
        message_type="result",
        field="payload.resources",
        expected="array",
        got="object",
    )
    assert error.fail_line() == (
        "[plugin-protocol] FAIL E_SCHEMA: frame 2: result.payload.resources has the wrong type"
        " — expected array, got object"
    )
    assert str(error) == error.fail_line()


def test_what_is_unknown_is_left_unsaid() -> None:
    error = codes.UnexpectedEOFError("stdout closed before bye")
    assert error.fail_line() == "[plugin-protocol] FAIL E_EOF: stdout closed before bye"
    assert error.offending_line() == "[plugin-protocol] offending frame: (none)"


def test_an_exit_status_is_added_once() -> None:
    killed = codes.ExitStatusError("plugin ended", exit_code=-signal.SIGKILL)
    assert killed.fail_line().endswith("plugin ended (killed by SIGKILL)")
    said = codes.ExitStatusError("plugin ended", got="exit code 3", exit_code=3)
    assert said.fail_line().count("exit code 3") == 1


def test_the_offending_frame_is_decoded_and_cut_at_the_limit() -> None:
    error = codes.FrameJSONError("is not JSON", offending_frame=b"\xff" + b"x" * 600)
    line = error.offending_line()
    shown = line.removeprefix("[plugin-protocol] offending frame: ")
    assert shown.startswith("\\xff")
    assert len(shown) == codes.OFFENDING_FRAME_LIMIT and shown.endswith("…")
    assert error.diagnostic() == error.fail_line() + "\n" + line


@pytest.mark.parametrize(
    ("returncode", "said"),
    [
        (0, "exit code 0"),
        (3, "exit code 3"),
        (-signal.SIGTERM, "killed by SIGTERM"),
        (-200, "killed by signal 200"),
    ],
)
def test_describe_exit(returncode: int, said: str) -> None:
    assert codes.describe_exit(returncode) == said


def test_every_class_is_found_by_its_code() -> None:
    for code, cls in codes.ERROR_CLASSES.items():
        assert cls.code == code and code.startswith("E_")
        assert issubclass(cls, codes.ProtocolError)
    assert len({cls.title for cls in codes.ERROR_CLASSES.values()}) == len(codes.ERROR_CLASSES)
