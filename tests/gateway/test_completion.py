"""app.completion: the script made from the argument parser, run by bash itself as a shell would."""

from __future__ import annotations

import subprocess

from test_first_hour import gpp


def complete(words: str) -> list[str]:
    """What bash offers after `words` (the last word being completed), with gpp's script."""
    script = gpp("completion", "bash").stdout
    probe = (
        f"{script}\nCOMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); "
        "_gpp; printf '%s\\n' \"${COMPREPLY[@]}\""
    )
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_bash_completion_offers_commands_flags_and_choices() -> None:
    assert complete("gpp st") == ["status"]
    assert complete("gpp serve --plu") == ["--plugin"]
    assert complete("gpp completion z") == ["zsh"]
    assert gpp("completion", "zsh").stdout.startswith("autoload -U +X bashcompinit")
