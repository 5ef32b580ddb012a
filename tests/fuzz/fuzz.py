"""Coverage-guided fuzzing of one target with atheris (libFuzzer underneath).

    python tests/fuzz/fuzz.py TARGET [libFuzzer arguments: corpus dirs, -runs=N, -max_total_time=S]

`make fuzz` runs every target for FUZZ_SECONDS each, growing a scratch corpus seeded from the
committed one; the suite's `test_fuzz.py` runs a short pass. A crash leaves its input as
`crash-*` where `-artifact_prefix` says; replay it with `python tests/fuzz/fuzz.py TARGET FILE`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

with atheris.instrument_imports():
    pass
from targets import TARGETS


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: fuzz.py {{{','.join(TARGETS)}}} [libFuzzer arguments]")
    target = TARGETS[sys.argv[1]]
    atheris.Setup([sys.argv[0], *sys.argv[2:]], target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
