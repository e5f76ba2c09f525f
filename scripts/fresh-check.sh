#!/bin/sh
# fresh-check.sh [--keep] [--root DIR] [-- COMMAND...]
#
# The fresh-machine check (issue 21): a clean Debian 12 root made with
# debootstrap, a clone of this checkout's HEAD and a copy of ../shared
# put in it, and `CI=true bash .ci/run` (or COMMAND) run there in a
# bubblewrap of that root, as CI runs it on a new machine.  Nothing installed on this
# machine by hand can hide a missing install step in it: the root starts
# with what a new machine of the project's kind has before `make deps`
# (Debian's minbase, plus make, git, gcc, python3 and ca-certificates),
# and `make test` installs the rest itself.
#
# Run it before submitting any change to scripts/deps.sh, the Makefile's
# set-up or scripts/venv.sh.  It needs root, debootstrap and bubblewrap
# (installed when missing) and the network to Debian's and PyPI's mirrors; it downloads
# everything (about 2 GB of Debian packages and 3.3 GB of wheels) and
# takes about 40 minutes on 2 cores, too slow for CI (README, Tests).
#
#   --root DIR   build the root there (default /var/tmp/assay-fresh-PID);
#                it is removed at the end unless --keep
#   --keep       keep the root (to look into, or to rerun COMMAND in)
#   COMMAND      run instead of .ci/run, in the clone (e.g. `make demo`)
#
# Exit status: that of the command in the root; 2 for bad usage.
set -eu
keep=0
root=/var/tmp/assay-fresh-$$
while [ $# -gt 0 ]; do
	case $1 in
	--keep) keep=1 ;;
	--root) root=$2; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "fresh-check: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
[ "$(id -u)" -eq 0 ] || { echo "fresh-check: needs root (debootstrap, bubblewrap as root)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$src/.." && pwd)/shared
[ -d "$shared" ] || { echo "fresh-check: no $shared beside the checkout" >&2; exit 2; }
mirror=${ASSAY_DEBIAN_MIRROR:-http://deb.debian.org/debian}

for tool in debootstrap bwrap:bubblewrap; do
	command -v "${tool%%:*}" >/dev/null 2>&1 && continue
	echo "fresh-check: installing ${tool#*:}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${tool#*:}" \
	    >/dev/null
done

cleanup() {
	if [ $keep -eq 0 ]; then rm -rf "$root"; else echo "fresh-check: root kept in $root"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s)
if [ ! -x "$root/usr/bin/apt-get" ]; then
	echo "fresh-check: debootstrap bookworm into $root ($mirror)"
	debootstrap --variant=minbase \
	    --include=make,git,gcc,g++,python3,ca-certificates,procps \
	    bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
		tail -n 20 "$root.debootstrap.log" >&2; exit 1; }
	rm -f "$root.debootstrap.log"
	printf '%s\n' 'Types: deb' "URIs: $mirror" \
	    'Suites: bookworm bookworm-updates' 'Components: main' \
	    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
	    >"$root/etc/apt/sources.list.d/debian.sources"
	rm -f "$root/etc/apt/sources.list"
fi
echo "fresh-check: root ready after $(( $(date +%s) - start )) s"

mkdir -p "$root/work"
rm -rf "$root/work/main" "$root/work/shared"
git clone -q "$src" "$root/work/main"
git -C "$root/work/main" log --oneline -1
cp -a "$shared" "$root/work/shared"
chmod -R a-w "$root/work/shared"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# What a new machine of this workplace has besides Debian: its trust
# settings (a CA of its own in the system store, pip's and npm's
# settings naming that store).  Nothing else of this machine goes in.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt \
	    "$root/usr/local/share/ca-certificates/"
	chroot "$root" update-ca-certificates >/dev/null 2>&1 || true
fi
for f in /etc/pip.conf /etc/npmrc; do
	[ -f "$f" ] && cp "$f" "$root$f"
done

mkdir -p "$root/tmp" && chmod 1777 "$root/tmp"

if [ $# -eq 0 ]; then
	set -- bash .ci/run
fi
echo "fresh-check: running '$*' in the clean root"
rc=0
# The environment CI has: no variable of this session's, but those of
# the machine that point tools at its trust store or proxy (paths and
# host names: no blank in them).
envs="HOME=/root LANG=C.UTF-8 CI=true"
envs="$envs PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
envs="$envs TERM=${TERM:-xterm}"
for v in SSL_CERT_FILE SSL_CERT_DIR PIP_CERT REQUESTS_CA_BUNDLE \
    CURL_CA_BUNDLE NODE_EXTRA_CA_CERTS GIT_SSL_CAINFO PIP_DEFAULT_TIMEOUT \
    http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
	eval "val=\${$v-}"
	[ -z "$val" ] || envs="$envs $v=$val"
done
# The root is entered with bubblewrap, not chroot: the kernel refuses a
# new user namespace to a chrooted process, and assay's own sandbox (a
# bubblewrap of its own) needs one.  Root keeps its capabilities, the
# host's /dev (ptys for the UI tests), /sys and /proc (bound whole: a
# /proc with bubblewrap's read-only covers is not "fully visible", and
# the kernel then refuses the /proc of assay's own sandbox).
# shellcheck disable=SC2086
bwrap --bind "$root" / --dev-bind /dev /dev --bind /proc /proc --ro-bind /sys /sys \
    --cap-add ALL --die-with-parent --chdir /work/main \
    /usr/bin/env -i $envs "$@" || rc=$?
echo "fresh-check: exit $rc after $(( $(date +%s) - start )) s in all"
exit $rc
