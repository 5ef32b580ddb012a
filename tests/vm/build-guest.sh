#!/usr/bin/env bash
# Builds the Debian bookworm guest that tests/product/test_vm_cgroup2.py boots with qemu: the real
# cgroup v2 of a systemd machine (bookworm's default, unified), where this host has only v1.
# From Debian's packages alone (debootstrap); Node is the host's own binary, copied (Debian 12's
# Node 18 lacks what the Node SDK uses). The guest holds the operating system only: the gateway,
# The guest holds the operating system and the user's checkout's .venv with the gateway's locked
# dependencies, installed from WHEELHOUSE (the guest has no network); the checkout, the gateway's
# own wheel and the scenario come on each boot through a read-only 9p share.
#
# Usage: tests/vm/build-guest.sh CACHE_DIR WHEELHOUSE. Prints the folder holding rootfs.img,
# vmlinuz and initrd.img, named by a digest of this script and of the wheelhouse's file names:
# what this same script built from the same wheels is reused, an edit rebuilds (and removes
# the guests older versions built).
set -euo pipefail

cache=$(realpath -m "${1:?usage: build-guest.sh CACHE_DIR WHEELHOUSE}")
wheels=$(realpath "${2:?usage: build-guest.sh CACHE_DIR WHEELHOUSE}")
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# systemd as init with logind and a user bus (user@.service, `systemd-run --user`); the kernel
# (its initramfs has virtio and 9p); bubblewrap and libseccomp2, the sandbox; python3-venv, the
# gateway's venv; make, `make serve`; libstdc++6, Node.
PACKAGES=systemd,systemd-sysv,dbus,dbus-user-session,libpam-systemd,linux-image-amd64,\
bubblewrap,libseccomp2,python3,python3-venv,make,libstdc++6,procps
GUEST_USER=gpp
GUEST_UID=1000

key=$( (sha256sum <"$0"; ls "$wheels") | sha256sum | cut -c1-12)
out=$cache/guest-$key
if [ -e "$out/rootfs.img" ]; then
    echo "$out"
    exit 0
fi
for tool in debootstrap mkfs.ext4 node; do
    command -v $tool >/dev/null || { echo "$tool is missing: make vm-deps" >&2; exit 1; }
done

mkdir -p "$cache"
work=$(mktemp -d "$cache/build.XXXXXX")
rootfs=$work/rootfs
cleanup() {
    # debootstrap mounts /proc and /sys inside the tree: never delete through a live mount
    grep -o " $rootfs/[^ ]*" /proc/mounts | sort -r | xargs -r umount -l || true
    rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM PIPE  # a signal, too, goes through cleanup

echo "debootstrap bookworm into $rootfs" >&2
timeout 1500 debootstrap --variant=minbase --include="$PACKAGES" bookworm "$rootfs" "$MIRROR" >&2
install -m 0755 "$(command -v node)" "$rootfs/usr/local/bin/node"

echo gpp-guest >"$rootfs/etc/hostname"
# a machine id now: a first boot would run systemd-firstboot, which may prompt on the console
chroot "$rootfs" systemd-machine-id-setup >&2
chroot "$rootfs" useradd --create-home --uid $GUEST_UID --shell /bin/bash $GUEST_USER
# what `loginctl enable-linger` writes (logind is not running here): user@1000.service, the
# user's systemd, starts at boot with no login
mkdir -p "$rootfs/var/lib/systemd/linger"
touch "$rootfs/var/lib/systemd/linger/$GUEST_USER"
mkdir -p "$rootfs/mnt/payload" "$rootfs/mnt/results"
# the checkout's .venv, as `make install` makes it, less the gateway itself (each boot's wheel)
# and its dev extras: made here, natively, for an emulated guest (TCG) takes minutes over it
home=/home/$GUEST_USER
cp -r "$wheels" "$rootfs/tmp/wheels"
chmod -R a+rX "$rootfs/tmp/wheels"
as_user() { chroot --userspec=$GUEST_UID:$GUEST_UID "$rootfs" env HOME=$home "$@"; }
as_user mkdir -p $home/gate-forge
as_user python3 -m venv $home/gate-forge/.venv
as_user sh -c "$home/gate-forge/.venv/bin/pip install -q --disable-pip-version-check \
    --no-index --no-deps /tmp/wheels/*.whl" >&2
rm -rf "$rootfs/tmp/wheels"
# The one job of a boot: mount the shares and run the scenario the payload brings, then power off
# whatever it did (its output goes to the serial console and the results share).
cat >"$rootfs/etc/systemd/system/gpp-scenario.service" <<'UNIT'
[Unit]
Description=gate-forge VM scenario (tests/vm/guest-run.sh from the payload share)
After=multi-user.target user@1000.service
SuccessAction=poweroff-force
FailureAction=poweroff-force

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'mount -t 9p -o trans=virtio,version=9p2000.L,ro payload /mnt/payload && mount -t 9p -o trans=virtio,version=9p2000.L results /mnt/results && exec /mnt/payload/tests/vm/guest-run.sh'
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=1200

[Install]
WantedBy=multi-user.target
UNIT
chroot "$rootfs" systemctl enable gpp-scenario.service >&2
# nothing else to wait for at boot
chroot "$rootfs" systemctl mask serial-getty@ttyS0.service getty@tty1.service \
    systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
    fstrim.timer >&2 2>&1 || true
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb

staging=$work/out
mkdir -p "$staging"
cp "$(readlink -f "$rootfs/vmlinuz")" "$staging/vmlinuz"
cp "$(readlink -f "$rootfs/initrd.img")" "$staging/initrd.img"
mkfs.ext4 -q -F -L gpp-guest -d "$rootfs" "$staging/rootfs.img" 3G >&2
# guests older versions of this script built are no longer used
find "$cache" -maxdepth 1 -name 'guest-*' ! -name "$(basename "$out")" -exec rm -rf {} + || true
mv "$staging" "$out"
echo "$out"
