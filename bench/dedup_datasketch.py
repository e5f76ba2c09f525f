"""dedup_datasketch.py - the anchor of bench/dedup.sh: the same dedup done
with datasketch (MinHash, MinHashLSH), the established implementation.

Reads `assay export --format raw` JSONL from stdin; for each candidate,
normalises its code (comments and whitespace out: // and /* */ for the
C-like languages, # for python and asm; tokens are words and single
marks, as assay's lexer for languages without a grammar), hashes it for
exact copies, and puts one sample of each exact group into MinHashLSH
(64 permutations, shingles of 5 tokens, Jaccard threshold 0.8), then
queries each for its near copies and joins them.  Prints the figures
in assay dedup's words.
"""
import hashlib
import json
import re
import sys

from datasketch import MinHash, MinHashLSH

PERM, SHINGLE, THRESHOLD = 64, 5, 0.8
TOKEN = re.compile(r"[A-Za-z0-9_$\x80-\uffff]+|\S")


def normalise(code, lang):
    if lang in ("python", "asm"):
        code = re.sub(r"#[^\n]*", " ", code)
    if lang != "python":
        code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
        code = re.sub(r"//[^\n]*", " ", code)
    return TOKEN.findall(code)


def main():
    ids, groups = [], {}
    for line in sys.stdin:
        row = json.loads(line)
        c = row.get("candidate")
        if not c:
            continue
        toks = normalise(c["code"], c.get("lang"))
        key = hashlib.sha256(" ".join(toks).encode()).digest()[:8]
        i = len(ids)
        ids.append(c["id"])
        if key in groups:
            groups[key].append(i)
        else:
            groups[key] = [i, toks]
    parent = list(range(len(ids)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b):
        a, b = find(a), find(b)
        if a != b:
            parent[max(a, b)] = min(a, b)

    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=PERM)
    sigs = {}
    for members in groups.values():
        first, toks = members[0], members[1]
        for j in members[2:]:
            union(first, j)
        m = MinHash(num_perm=PERM)
        sh = [" ".join(toks[k:k + SHINGLE]).encode()
              for k in range(max(1, len(toks) - SHINGLE + 1))]
        m.update_batch(sh)
        sigs[first] = m
        lsh.insert(first, m)
    for first, m in sigs.items():
        for other in lsh.query(m):
            if other != first and m.jaccard(sigs[other]) >= THRESHOLD:
                union(first, other)
    sizes = {}
    for i in range(len(ids)):
        r = find(i)
        sizes[r] = sizes.get(r, 0) + 1
    clusters = sum(1 for n in sizes.values() if n > 1)
    dropped = sum(n - 1 for n in sizes.values() if n > 1)
    print("compared %d samples: %d clusters; %d duplicates to drop"
          % (len(ids), clusters, dropped))


if __name__ == "__main__":
    main()
