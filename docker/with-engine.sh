#!/usr/bin/env bash
# Runs a command with a Docker engine reachable: the one already running, or a dockerd started
# here and stopped when the command ends. That dockerd makes no bridge and writes no iptables
# rules: containers get only the network modes compose.yaml names (none, another container's).
# GPP_REQUIRE_DOCKER tells tests/product/test_container.py to fail, never skip, if the engine goes away.
set -euo pipefail
export GPP_REQUIRE_DOCKER=1

if docker info >/dev/null 2>&1; then
    exec "$@"
fi
if [ "$(id -u)" != 0 ]; then
    echo "no Docker engine is running, and starting one needs root" >&2
    exit 1
fi

state=$(mktemp -d /tmp/gate-forge-dockerd.XXXXXX)
dockerd --bridge=none --iptables=false --ip6tables=false >"$state/dockerd.log" 2>&1 &
dockerd_pid=$!
stop_dockerd() {
    kill -TERM "$dockerd_pid" 2>/dev/null || true
    for _ in $(seq 150); do  # 30 s for it to stop its containers and its containerd
        kill -0 "$dockerd_pid" 2>/dev/null || break
        sleep 0.2
    done
    if kill -0 "$dockerd_pid" 2>/dev/null; then
        pkill -KILL -P "$dockerd_pid" || true  # its containerd, which it did not get to stop
        kill -KILL "$dockerd_pid" 2>/dev/null || true
    fi
    wait "$dockerd_pid" 2>/dev/null || true
    # dockerd binds the host's network namespace here and leaves the mount behind when it stops
    if mountpoint -q /run/docker/netns/default; then umount /run/docker/netns/default; fi
    rm -rf "$state"
}
trap stop_dockerd EXIT
trap 'exit 1' HUP INT TERM  # a signal, too, stops the engine started here

for _ in $(seq 120); do  # 60 s to answer
    docker info >/dev/null 2>&1 && break
    if ! kill -0 "$dockerd_pid" 2>/dev/null; then break; fi
    sleep 0.5
done
if ! docker info >/dev/null 2>&1; then
    echo "dockerd did not start; its last lines:" >&2
    tail -20 "$state/dockerd.log" >&2
    exit 1
fi
"$@"
