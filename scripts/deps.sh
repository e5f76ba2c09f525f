#!/bin/sh
# deps.sh - install the Debian packages assay needs, only those missing.
# Uses sudo when not root.  npm is installed only when no npm is on PATH
# (a Node.js from elsewhere brings its own, and Debian's npm would clash).
set -eu

PKGS="build-essential pkg-config git vim-tiny ca-certificates
libncurses-dev libvterm-dev libtree-sitter-dev libgit2-dev libsqlite3-dev
libjansson-dev libssl-dev libcmocka-dev libcurl4-openssl-dev python3
libseccomp-dev
iverilog verilator yosys ccache bubblewrap tmux sqlite3 clang libclang-rt-14-dev
gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm valgrind
libocct-data-exchange-dev libocct-modeling-algorithms-dev
libocct-modeling-data-dev libocct-foundation-dev
sqlite3 jq slurm-wlm munge"

command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "deps: missing packages:$missing" >&2
	echo "deps: not root and no sudo; install them and run make again" >&2
	exit 1
fi
echo "deps: installing$missing"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends $missing
