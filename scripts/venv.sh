#!/bin/sh
# venv.sh DIR - make or bring up to date assay's project venv in DIR: the
# Python side of the cad and triton envs (CadQuery, PyTorch, Triton), for
# Debian's own /usr/bin/python3 (Debian 12: Python 3.11), which refuses
# `pip install` into the system (PEP 668).  Run by `make deps`.
#
# Every package comes from PyPI, pinned with its hash in
# scripts/venv-requirements.txt and installed with --require-hashes
# --no-deps: what is not listed is not installed, and a wheel that changed
# is refused.  DIR/.assay-requirements holds the SHA-256 of the list it
# was made from: an unchanged list costs nothing.  A first install
# downloads about 3.2 GB and takes 7 GB of disk (docs/envs/triton.md,
# cad.md); pip's cache (~/.cache/pip) serves later ones.
set -eu

dir=${1:?usage: venv.sh DIR}
req=$(cd "$(dirname "$0")" && pwd)/venv-requirements.txt
stamp="$dir/.assay-requirements"
want=$(sha256sum "$req" | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
    [ -x "$dir/bin/python3" ]; then
	exit 0
fi
if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
	echo "venv: /usr/bin/python3 cannot make a venv (apt-get install" \
	    "python3-venv)" >&2
	exit 1
fi
start=$(date +%s)
if [ ! -x "$dir/bin/python3" ]; then
	echo "deps: making the project venv $dir (/usr/bin/python3 -m venv)"
	/usr/bin/python3 -m venv "$dir"
fi
echo "deps: installing CadQuery, PyTorch and Triton into $dir from PyPI" \
    "(scripts/venv-requirements.txt, pinned by hash; about 3.2 GB to" \
    "download the first time)"
# Only PyPI: a wheel found elsewhere (PIP_FIND_LINKS) would not match
# its hash.
env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    "$dir/bin/python3" -m pip install --quiet --require-hashes --no-deps \
    -r "$req"
echo "$want" >"$stamp"
echo "deps: the project venv is ready ($(du -sh "$dir" | cut -f1)," \
    "$(($(date +%s) - start)) s)"
