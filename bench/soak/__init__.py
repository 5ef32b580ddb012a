"""The soak: a real `gpp serve` under hostile plugins, hostile clients and random SIGKILLs.

It finds the next hole before an attacker does. One run starts the gateway on an ephemeral
loopback port with four plugins (the Python and Node reference detectors over a generated
repository, and two registrations of `tests/fixtures/plugins/soak_hostile.py`), drives it with
concurrent clients for a bounded time, then checks what a gateway must never do:

- lost: a request that got neither an HTTP answer nor a connection error its own client caused;
- mixed: an answer that belongs to another request (every request asks for a path unique to it,
  and every plugin's document encodes the paths it was asked about, so this is checked exactly);
- 500s and unhandled exceptions in the gateway's log: a fault must end in its own status code;
- zombies: a child of the gateway in state Z for two samples 5 s or more apart, or at the end;
- orphans: a plugin process (marked by an environment variable only plugins get, or working
  in the run's temporary directory) alive after the gateway exited;
- fd and RSS slopes: least-squares lines through a sample a second, after the warm-up;
- SIGTERM: the gateway exits 0 within grace + shutdown_ms + a margin, and takes its plugins.

Faults are injected by the clients, so each is counted and its outcomes tallied: `fault/…` paths
make the hostile plugin answer late, crash, write garbage, fail the request, flood stderr or stop
reading stdin; clients trickle bodies or vanish mid-request; plugin pids from `GET /plugins/{id}`
are SIGKILLed. `--faults` and `--plugins` choose subsets (a fault whose fix has not landed can be
left out of a run that must pass). Prints one table, writes JSON, exits 1 when an invariant
fails. Traffic goes to 127.0.0.1 only; the load is paced by a clock, and everything is bounded.
"""
