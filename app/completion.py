"""`gpp completion bash|zsh`: a completion script made from the argument parser itself, so a
new command or flag completes without a second list to keep in step."""

from __future__ import annotations

import argparse
import shlex

BASH = """\
# gpp completion for bash (zsh: autoload -U bashcompinit && bashcompinit first).
# Install: gpp completion bash > ~/.local/share/bash-completion/completions/gpp
_gpp() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} words
    if [ "$COMP_CWORD" -eq 1 ]; then
        words={top}
    else
        case "${{COMP_WORDS[1]}}" in
{cases}
            *) words="" ;;
        esac
    fi
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    if [ ${{#COMPREPLY[@]}} -eq 0 ] && [[ "$cur" != -* ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o filenames -F _gpp gpp
"""
ZSH_PRELUDE = "autoload -U +X bashcompinit && bashcompinit\n"


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for `shell` ("bash" or "zsh")."""
    commands = _subcommands(parser)
    cases = "\n".join(
        f"            {name}) words={shlex.quote(' '.join(_flags(sub)))} ;;"
        for name, sub in commands.items()
    )
    top = shlex.quote(" ".join([*commands, *_flags(parser)]))
    text = BASH.format(top=top, cases=cases)
    return ZSH_PRELUDE + text if shell == "zsh" else text


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps its subparsers nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    """Its flags, and the choices of its positional arguments (`bash`, `zsh`)."""
    words: list[str] = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        words += action.option_strings or [str(choice) for choice in action.choices or ()]
    return words
