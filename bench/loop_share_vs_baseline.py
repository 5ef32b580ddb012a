"""Another plugin's discover latency under a flood of valid notifications, this checkout
against a baseline checkout, in interleaved rounds (a load change on the shared machine hits
both alike).

    git -C . archive main | tar -x -C /tmp/baseline
    python bench/loop_share_vs_baseline.py /tmp/baseline [ROUNDS]

Both gateways serve `bench/loop_share.py`'s registry, each from its own checkout. Each round,
for each gateway in turn (the order alternates): the reference detector's /discover p50 for a
second idle, then while `notify-flood` answers one call with 300,000 `$/progress`
notifications nobody streams; their ratio. Prints each round and the median ratios; asserts
nothing (issue 33 asks for at most 2).
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.cost_vs_baseline import gateway as checkout_gateway  # noqa: E402
from bench.loop_share import CONFIG, NOTIFICATIONS  # noqa: E402
from bench.serving import cpu_seconds, probe_while, workdir  # noqa: E402


@contextlib.contextmanager
def gateway(repo: Path, folder: Path) -> Iterator[tuple[int, str]]:
    """(pid, base URL) of a gateway run from `repo` with `bench/loop_share.py`'s registry."""
    with checkout_gateway(repo, folder, CONFIG) as (pid, port):
        yield pid, f"http://127.0.0.1:{port}"


def flood(url: str) -> None:
    body = {"jsonrpc": "2.0", "method": "flood", "params": {"count": NOTIFICATIONS}, "id": 1}
    with httpx.Client(base_url=url, timeout=600) as other:
        other.post("/plugins/notify-flood/rpc", json=body)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    baseline = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    ratios: dict[str, list[float]] = {"baseline": [], "this": []}
    with (
        workdir() as folder,
        gateway(baseline, folder) as base,
        gateway(REPO, folder) as this,
    ):
        order = [("baseline", base), ("this", this)]
        for number in range(rounds):
            for name, (pid, url) in order if number % 2 == 0 else order[::-1]:
                with httpx.Client(base_url=url, timeout=600) as http:
                    for _ in range(20):  # warm up
                        http.post("/plugins/reference-detector/discover", json={"paths": ["api"]})
                    idle = statistics.median(probe_while(http, 1.0))
                    cpu, started = cpu_seconds(pid), time.monotonic()
                    during = statistics.median(probe_while(http, lambda url=url: flood(url)))
                ratios[name].append(during / idle)
                print(
                    f"round {number} {name:8} idle p50 {idle:.2f} ms, during {during:.2f} ms, "
                    f"ratio {during / idle:.2f}; flood {time.monotonic() - started:.1f} s, "
                    f"gateway CPU {cpu_seconds(pid) - cpu:.1f} s (probes included)",
                    flush=True,
                )
    for name, values in ratios.items():
        print(
            f"{name:8} median ratio {statistics.median(values):.2f} "
            f"(rounds: {', '.join(f'{v:.2f}' for v in values)})"
        )


if __name__ == "__main__":
    main()
