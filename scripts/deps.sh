#!/bin/sh
# deps.sh - install the Debian packages assay needs, only those missing.
# Uses sudo when not root.  npm is installed only when no npm is on PATH
# (a Node.js from elsewhere brings its own, and Debian's npm would clash).
#
# CUDA: the nvcc env needs nvcc.  When none is here (not on PATH, no
# /usr/local/cuda/bin/nvcc: a newer toolkit of NVIDIA's is used first),
# Debian 12's nvidia-cuda-toolkit (CUDA 11.8; 1.6 GB to download, 5.2 GB
# on disk) is installed from the `non-free` component of the same Debian
# mirror, which this enables in /etc/apt/sources.list.d/ when no source
# has it yet, and says so.  ASSAY_NO_CUDA=1 leaves CUDA
# out (the nvcc env's tests then skip).
set -eu

PKGS="build-essential pkg-config git vim-tiny ca-certificates
libncurses-dev libvterm-dev libtree-sitter-dev libgit2-dev libsqlite3-dev
libjansson-dev libssl-dev libcmocka-dev libcurl4-openssl-dev python3
libseccomp-dev
iverilog verilator yosys ccache bubblewrap tmux sqlite3 clang libclang-rt-14-dev
gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm valgrind
libocct-data-exchange-dev libocct-modeling-algorithms-dev
libocct-modeling-data-dev libocct-foundation-dev
sqlite3 jq slurm-wlm munge iproute2 time"

command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
# The project venv (scripts/venv.sh) is made with Debian's python3.
PKGS="$PKGS python3-venv"

# Debian's nvidia-cuda-toolkit (CUDA 11.8) refuses gcc 12 as its host
# compiler and depends on `g++-11 | clang-14 | ...`.  apt takes the first
# alternative already there, and clang (above, for the fuzzers) brings
# clang-14, so the toolkit's own dependency never pulls g++-11 in: name it.
# The nvcc env proves which host compiler works (-ccbin; src/envs/nvcc.c).
# The other alternatives among these packages' dependencies (`apt-cache
# depends`: libc6-dev | libc-dev, debconf | debconf-2.0, the toolkit's
# nvidia-opencl-dev | opencl-dev) are met by the same package on every
# machine and decide no toolchain; a new package whose dependency offers
# a choice that matters is named here the same way.
cuda=""
if [ "${ASSAY_NO_CUDA:-0}" != 1 ]; then
	PKGS="$PKGS g++-11"
	if ! command -v nvcc >/dev/null 2>&1 &&
	    [ ! -x /usr/local/cuda/bin/nvcc ]; then
		cuda="nvidia-cuda-toolkit"
	fi
fi

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && [ -z "$cuda" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "deps: missing packages:$missing" >&2
	echo "deps: not root and no sudo; install them and run make again" >&2
	exit 1
fi
if [ -n "$cuda" ] && ! grep -rqsE '^(Components:|deb ).*non-free( |$)' \
    /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "deps: enabling Debian's non-free component (for" \
	    "nvidia-cuda-toolkit) in /etc/apt/sources.list.d/assay-non-free.sources"
	printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
	    'Suites: bookworm bookworm-updates' 'Components: non-free contrib' \
	    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
	    $SUDO tee /etc/apt/sources.list.d/assay-non-free.sources >/dev/null
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
if [ -n "$missing" ]; then
	echo "deps: installing$missing"
	# shellcheck disable=SC2086
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends $missing
fi
if [ -n "$cuda" ]; then
	echo "deps: installing Debian's CUDA 11.8 toolkit (nvidia-cuda-toolkit," \
	    "non-free; about 1.6 GB to download, 5.2 GB on disk, 3 to 4 minutes)"
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends nvidia-cuda-toolkit >/dev/null
fi
