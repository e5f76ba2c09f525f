#!/bin/sh
# venv.sh DIR - make or bring up to date assay's project venv in DIR: the
# Python side of the cad and triton envs (CadQuery, PyTorch, Triton) and
# the trainers' readers the export is tested with (datasets, transformers,
# TRL), for
# Debian's own /usr/bin/python3 (Debian 12: Python 3.11), which refuses
# `pip install` into the system (PEP 668).  Run by `make deps`.
#
# Every package comes from PyPI, pinned with its hash in
# scripts/venv-requirements.txt and installed with --require-hashes
# --no-deps: what is not listed is not installed, and a wheel that changed
# is refused.  A venv's .assay-requirements holds the SHA-256 of the list
# it was made from: an unchanged list costs nothing.  A first install
# downloads about 3.3 GB and takes 6.9 GB of disk and 8 to 11 minutes
# on 2 cores (docs/envs/triton.md, cad.md, docs/formats.md).
#
# As root the venv itself lives in a store shared by every checkout of
# the machine, /var/cache/assay/venv-HASH (HASH: the list's, so a new
# list makes a new venv and the old one stays for checkouts still on
# it), and DIR is a symbolic link to it: seven checkouts cost one venv.
# ASSAY_VENV_STORE names another store; where the store cannot be
# written (not root), or DIR is a venv of its own already, DIR is the
# venv.  The store is world-readable: the sandbox's uid reads it.
set -eu

dir=${1:?usage: venv.sh DIR}
req=$(cd "$(dirname "$0")" && pwd)/venv-requirements.txt
want=$(sha256sum "$req" | cut -d' ' -f1)

# make_venv TARGET: TARGET up to date with the list.
make_venv() {
	target=$1
	stamp="$target/.assay-requirements"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	    [ -x "$target/bin/python3" ]; then
		return 0
	fi
	if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
		echo "venv: /usr/bin/python3 cannot make a venv (apt-get" \
		    "install python3-venv)" >&2
		exit 1
	fi
	start=$(date +%s)
	if [ ! -x "$target/bin/python3" ]; then
		echo "deps: making the project venv $target (/usr/bin/python3" \
		    "-m venv)"
		/usr/bin/python3 -m venv "$target"
	fi
	echo "deps: installing CadQuery, PyTorch, Triton and the trainers'" \
	    "readers into $target from PyPI (scripts/venv-requirements.txt," \
	    "pinned by hash; about 3.3 GB to download the first time)"
	# Only PyPI: a wheel found elsewhere (PIP_FIND_LINKS) would not
	# match its hash.
	env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL \
	    PIP_DISABLE_PIP_VERSION_CHECK=1 \
	    "$target/bin/python3" -m pip install --quiet --require-hashes \
	    --no-deps -r "$req"
	echo "$want" >"$stamp"
	echo "deps: the project venv is ready ($(du -sh "$target" | cut -f1)," \
	    "$(($(date +%s) - start)) s)"
}

store=${ASSAY_VENV_STORE:-/var/cache/assay}
if { [ -L "$dir" ] || [ ! -e "$dir" ]; } &&
    mkdir -p "$store" 2>/dev/null && [ -w "$store" ]; then
	target="$store/venv-$(printf '%.12s' "$want")"
	# One checkout at a time makes it; the others wait, then find it.
	(
		flock 9
		make_venv "$target"
	) 9>"$store/.lock"
	mkdir -p "$(dirname "$dir")"
	if [ "$(readlink "$dir" 2>/dev/null)" != "$target" ]; then
		ln -sfn "$target" "$dir"
		echo "deps: $dir -> $target (the machine's shared project venv)"
	fi
	exit 0
fi
make_venv "$dir"
