#!/bin/sh
# One boot's scenario, as root in the guest (gpp-scenario.service, tests/vm/build-guest.sh): the
# checkout the payload share brings is copied into the user's home, where its .venv holds the
# locked dependencies already (the guest has no network: what `make install` would fetch), the
# gateway's wheel from the share is installed into that .venv, then
# tests/vm/guest_scenario.py runs as that user, in the user's systemd session, and writes its
# report to the results share. The guest powers off when this ends, whatever it did.
set -u
user=gpp
uid=$(id -u $user)
home=/home/$user
checkout=$home/gate-forge
results=/mnt/results
say() { echo "guest-run: $*"; }

say "kernel $(uname -r); /sys/fs/cgroup is $(stat -fc %T /sys/fs/cgroup)"
mkdir -p "$checkout"
(cd /mnt/payload && tar -c --exclude=./.wheels .) | tar -x -C "$checkout"
chown -R $user:$user "$checkout"
loginctl enable-linger $user
for _ in $(seq 1 300); do  # the user's systemd (user@UID.service): at most 30 s
    [ -S /run/user/$uid/bus ] && [ "$(systemctl is-active user@$uid.service)" = active ] && break
    sleep 0.1
done
as_user() {
    runuser -u $user -- env -i HOME=$home USER=$user LOGNAME=$user LANG=C.UTF-8 \
        PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR=/run/user/$uid \
        DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$uid/bus "$@"
}
started=$(date +%s)
as_user "$checkout/.venv/bin/pip" install -q --disable-pip-version-check --no-index --no-deps \
    /mnt/payload/.wheels/gate_forge-*.whl \
    || { say "the gateway did not install"; echo 1 >$results/exit; exit 1; }
say "installed in $(($(date +%s) - started)) s"
cd "$checkout" && as_user python3 tests/vm/guest_scenario.py "$home/report.json"
status=$?
say "scenario exited $status"
cp "$home/report.json" "$results/report.json"  # the share is root's
echo $status >$results/exit
