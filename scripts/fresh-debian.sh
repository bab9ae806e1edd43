#!/usr/bin/env bash
# Runs scripts/test.sh, then the README's `pip install .` and walk, on a truly fresh Debian 12: a bookworm root made by `debootstrap --variant=minbase`
# from Debian's mirror, a clean clone of this repository's HEAD (committed files only) in it, and
# setup + build + every test inside by chroot. Needs root, and network for Debian's and PyPI's packages.
#
#   scripts/fresh-debian.sh [--root DIR] [--from-rootfs DIR] [--ccache DIR] [-- TEST_SH_OPTIONS]
#     --root DIR         where to make the root (default /var/tmp/gkebuild-fresh/rootfs; emptied first)
#     --from-rootfs DIR  copy (cp -a) an existing minbase bookworm root instead of running debootstrap;
#                        it saves the download, but then the root is only as fresh as that copy
#     --reuse            use the root an earlier run left (its packages stay; the clone is made anew), e.g.
#                        to see a setup.sh fix through without the download; the report says so
#     --again            --reuse, and the earlier clone too, moved to this HEAD with its build kept: test.sh
#                        again on an incremental build (to see fixes through; the report says so)
#     --ccache DIR       bind-mount a host ccache folder as the root's (a fresh machine has none: the build
#                        from nothing takes about an hour on 2 cores); hits need the same compiler package
# The root stays afterwards for a look (mounts undone); the next run with the same --root empties it.
#
# CUDA is not Debian's: it comes with the machine (NVIDIA's installer, /usr/local/cuda), so the host's
# /usr/local/cuda is bind-mounted read-only into the root and put on PATH, as a GPU machine has it. Without
# it the CUDA targets and their tests are left out by CMake (check_language(CUDA)).
# The tests run with CI=true: a tool setup.sh should install but did not fails its tests instead of skipping.
# Peers setup cannot install (tests/peers/external_peers.txt) are named at the end, as test.sh names them.
set -euo pipefail
# All of it inside main, read whole before it runs: an edit or checkout during the long run changes nothing.
main() {
repo=$(cd "$(dirname "$0")/.." && pwd)
root=/var/tmp/gkebuild-fresh/rootfs
from_rootfs="" ccache_dir="" reuse="" rerun=""
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
while (($#)); do
  case "$1" in
    --root) root=$2; shift 2 ;;
    --from-rootfs) from_rootfs=$2; shift 2 ;;
    --ccache) ccache_dir=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --again) reuse=1 rerun=1; shift ;;
    --) shift; break ;;
    *) echo "fresh-debian: unknown option $1" >&2; exit 2 ;;
  esac
done
root=$(realpath -m "$root")   # compared with /proc/PID/root on exit
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian: needs root (debootstrap, mount, chroot)" >&2; exit 2; }
case "$root" in /|/usr|/usr/*|/etc|/etc/*|"") echo "fresh-debian: refusing --root $root" >&2; exit 2 ;; esac

mounted=()
# Unmounts in reverse order and ends what still runs inside the root (by pid), on any exit.
cleanup() {
  local status=$? pid i
  trap - EXIT INT TERM
  for pid in /proc/[0-9]*; do
    [ "$(readlink "$pid/root" 2>/dev/null)" = "$root" ] && kill -9 "${pid#/proc/}" 2>/dev/null
  done
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[i]}" 2>/dev/null || umount -R -l "${mounted[i]}" 2>/dev/null || echo "fresh-debian: could not unmount ${mounted[i]}" >&2
  done
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mount_into() {  # mount_into TARGET MOUNT-ARGS...
  local target="$root$1"; shift
  mkdir -p "$target"
  mount "$@" "$target"
  mounted+=("$target")
}

if ! command -v debootstrap >/dev/null && [ -z "$from_rootfs$reuse" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi
if [ -n "$reuse" ]; then
  echo "== reusing $root from an earlier run (not a new root) =="
  [ -n "$rerun" ] || rm -rf "$root/work/gkebuild"
else
  # Never empty a root with anything still mounted in it (a bound /dev is the host's /dev).
  if findmnt -rn -o TARGET | grep -q -e "^$root/" -e "^$root\$"; then
    echo "fresh-debian: something is still mounted under $root (findmnt); unmount it first" >&2; exit 1
  fi
  rm -rf --one-file-system "$root"
  mkdir -p "$(dirname "$root")"
  if [ -n "$from_rootfs" ]; then
    echo "== copying $from_rootfs (not a new debootstrap) =="
    cp -a "$from_rootfs" "$root"
  else
    echo "== debootstrap --variant=minbase bookworm from $mirror =="
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 \
      || { tail -20 "$root.debootstrap.log" >&2; exit 1; }
  fi
fi
grep -q bookworm "$root/etc/os-release" || { echo "fresh-debian: $root is not Debian 12" >&2; exit 1; }
# The machine's network, as a fresh machine on this site has it: its resolver, and the certificate
# authorities it adds (a TLS-inspecting proxy's, in /usr/local/share/ca-certificates), which the
# root's ca-certificates takes in when setup.sh installs it; without them pip cannot reach PyPI there.
cp /etc/resolv.conf "$root/etc/resolv.conf"
# No daemon starts as its package installs (a chroot has no init to stop it; the tests start their own
# registry and proxies on free ports): Debian's policy-rc.d convention.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

if [ -n "$rerun" ]; then
  echo "== the earlier clone moved to $(git -C "$repo" rev-parse --short HEAD) (committed files only; its build kept) =="
  git -C "$root/work/gkebuild" fetch --quiet "$repo" HEAD
else
  echo "== a clean clone of $(git -C "$repo" rev-parse --short HEAD) (committed files only) =="
  git clone --quiet --no-hardlinks "$repo" "$root/work/gkebuild"
fi
git -C "$root/work/gkebuild" checkout --quiet --detach "$(git -C "$repo" rev-parse HEAD)"

# /sys and /dev with what is mounted under them (/sys/fs/cgroup, where runc and crun make cgroups;
# /dev/pts, /dev/shm), as slaves: nothing mounted inside the root reaches the host's.
# The root a mount point of its own: runc and buildah make the container's / a slave mount, which
# fails ("mount /, flags: 0x84000: invalid argument") where / is a plain folder, as in a bare chroot.
mount_into "" --bind "$root"
mount_into /proc -t proc proc
mount_into /sys --rbind /sys --make-rslave
mount_into /dev --rbind /dev --make-rslave
if [ -d /usr/local/cuda/bin ]; then
  mount_into /usr/local/cuda --bind "$(readlink -f /usr/local/cuda)"
  mount -o remount,bind,ro "$root/usr/local/cuda"
fi
if [ -n "$ccache_dir" ]; then mount_into /root/.cache/ccache --bind "$ccache_dir"; fi

in_root() {
  env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI=true \
    GKEBUILD_CUDA_ARCHS="${GKEBUILD_CUDA_ARCHS:-75}" \
    PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    chroot "$root" /bin/bash -c "$1"
}
absent_peers() {
  in_root 'while read -r tool _; do [[ -z $tool || $tool == \#* ]] && continue; tool=${tool%:}
           command -v "$tool" >/dev/null || echo "$tool"; done < /work/gkebuild/tests/peers/external_peers.txt' \
    | paste -sd' '
}

status=0
echo "== scripts/test.sh $* inside the root (CI=true) =="
in_root "cd /work/gkebuild && scripts/test.sh $*" || status=$?
# Then the README's Install section as written, on the machine test.sh set up: a venv, `pip install .`
# (the build backend's own Release build of gkebuild), and the README's walk from that venv's PATH.
echo "== the README's pip install . in a fresh venv, then its walk =="
in_root "cd /work/gkebuild && tests/package/walk_after_install_test.sh '' /work/gkebuild pip-build" || status=$?
echo "== fresh Debian 12: exit $status; peers absent there: $(absent_peers || echo '?') =="
exit "$status"
}
main "$@"
