#!/usr/bin/env bash
# Builds the Debian bookworm base image that docker/Dockerfile takes as PYTHON_IMAGE and NODE_IMAGE
# where no container registry is reachable, from Debian's packages (debootstrap) and Node's
# upstream binary (the npm registry's node-linux-<arch> package: Debian 12's Node 18 lacks what
# the Node SDK uses, such as String.prototype.isWellFormed). Prints the image's name on stdout.
#
# The tag is a digest of this script: an image this same script built is reused, an edit rebuilds.
set -euo pipefail

NODE_VERSION=20.18.1  # the Dockerfile's default NODE_IMAGE carries the same release
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# python3-venv: the gateway's venv; libstdc++6: Node; the host's CA bundle replaces the image's,
# so pip trusts what the host trusts (a site's TLS-inspecting proxy included).
PACKAGES=python3,python3-venv,ca-certificates,libstdc++6,tini,bubblewrap

docker info >/dev/null  # fail now, not after the bootstrap, where no engine answers
image=gate-forge/debian-bookworm:$(sha256sum "$0" | cut -c1-12)
if docker image inspect "$image" >/dev/null 2>&1; then
    echo "$image"
    exit 0
fi

for tool in debootstrap npm; do
    command -v $tool >/dev/null || { echo "$tool is missing: make container-deps install" >&2; exit 1; }
done
case $(uname -m) in
    x86_64) node_arch=x64 ;;
    aarch64) node_arch=arm64 ;;
    *) echo "no Node binary package for $(uname -m)" >&2; exit 1 ;;
esac

work=$(mktemp -d /var/tmp/gate-forge-base.XXXXXX)
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
(cd "$work" && timeout 300 npm pack --silent "node-linux-$node_arch@$NODE_VERSION" >/dev/null)
tar -xzf "$work/node-linux-$node_arch-$NODE_VERSION.tgz" -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$rootfs/usr/local/bin/node"
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb

tar -C "$rootfs" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    - "$image" >&2
# bases an older version of this script built are no longer used by anything it builds
docker images --format '{{.Repository}}:{{.Tag}}' gate-forge/debian-bookworm | grep -vxF "$image" \
    | xargs -r docker rmi >&2 || true
echo "$image"
