#!/usr/bin/env python3
"""layers.py [BUILD] - the floors of docs/architecture.md, checked in make lint.

1. Include direction, from the sources: a file in src/F/ may include
   "G/x.h" only for a folder G that FLOORS lets F use (its own folder and
   the ones below it).  Every project include names its folder.
2. Call direction and circles, from the objects in BUILD/src (nm): a file
   that uses a symbol defined in another folder must be allowed to include
   that folder, and no two files may use each other's symbols, directly or
   round a longer loop (a circle makes two modules one; split the shared
   part into a module both use, or hand a table down instead of calling up).
Exit 1 with one line per violation.
"""
import collections, glob, os, re, subprocess, sys

# Each folder and the folders it may use, bottom floor first.
FLOORS = {
    'base':     [],
    'model':    ['base'],
    'store':    ['base', 'model'],
    'lang':     ['base', 'model'],
    'exec':     ['base', 'model'],
    'envs':     ['base', 'model', 'lang', 'exec'],
    'verify':   ['base', 'model', 'store', 'lang', 'exec', 'envs'],
    'curate':   ['base', 'model', 'store', 'lang'],
    'decide':   ['base', 'model', 'store'],
    'exchange': ['base', 'model', 'store', 'lang', 'envs', 'curate',
                 'decide'],
    'generate': ['base', 'model', 'store', 'lang', 'exec', 'envs',
                 'verify', 'curate', 'decide', 'exchange'],
    'app':      ['base', 'model', 'store', 'lang', 'exec', 'envs', 'verify',
                 'curate', 'decide', 'exchange', 'generate'],
    'cli':      ['base', 'model', 'store', 'lang', 'exec', 'envs', 'verify',
                 'curate', 'decide', 'exchange', 'generate', 'app'],
    'ui':       ['base', 'model', 'store', 'lang', 'exec', 'envs', 'verify',
                 'curate', 'decide', 'exchange', 'generate', 'app'],
}
TOP = '.'   # src/main.c may use every folder

# Circles that existed when the floors were drawn, each to be broken by
# the change that rebuilds its folder; all are gone (the last, the
# importers and import.c, by exchange/import_util.c and the importer
# table).  A new circle fails; so does one listed here that is gone, so
# that the list only shrinks.
KNOWN_CIRCLES = set()

def allowed(f, g):
    return f == g or f == TOP or g in FLOORS.get(f, [])

bad = []
src_files = sorted(glob.glob('src/*.c') + glob.glob('src/*/*.[ch]') +
                   glob.glob('src/*/*/*.[ch]'))
for path in src_files:
    rel = os.path.relpath(path, 'src')
    folder = rel.split('/')[0] if '/' in rel else TOP
    if folder != TOP and folder not in FLOORS:
        bad.append(f'{path}: folder {folder}/ has no floor in scripts/layers.py')
        continue
    for n, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
        m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        if '/' not in inc:
            if not os.path.exists(os.path.join(os.path.dirname(path), inc)):
                continue
            bad.append(f'{path}:{n}: include "{inc}" without its folder')
            continue
        if inc.startswith('.') or '/./' in inc or '/../' in inc:
            # a relative path would reach round the floors: name the folder
            bad.append(f'{path}:{n}: include "{inc}" by a relative path; write "folder/x.h"')
            continue
        g = inc.split('/')[0]
        if g not in FLOORS:
            continue
        if not allowed(folder, g):
            bad.append(f'{path}:{n}: {folder}/ includes {inc}, a floor it may not use')

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
objs = [o for o in glob.glob(os.path.join(build, 'src', '**', '*.o'),
                             recursive=True)
        if os.path.exists(os.path.join('src',
                          os.path.relpath(o, os.path.join(build, 'src'))[:-2] + '.c'))]
if objs:
    defs, refs = {}, collections.defaultdict(set)
    for o in objs:
        mod = os.path.relpath(o, os.path.join(build, 'src'))[:-2]
        out = subprocess.run(['nm', o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in 'TDBRC':
                defs[p[2]] = mod
            elif len(p) == 2 and p[0] == 'U':
                refs[mod].add(p[1])
    graph = collections.defaultdict(set)
    for mod, syms in refs.items():
        f = mod.split('/')[0] if '/' in mod else TOP
        for s in sorted(syms):
            d = defs.get(s)
            if d is None or d == mod:
                continue
            graph[mod].add(d)
            g = d.split('/')[0] if '/' in d else TOP
            if not allowed(f, g):
                bad.append(f'src/{mod}.c: calls {s} of src/{d}.c, a floor it may not use')
    # Circles: strongly connected components of more than one file.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)
    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        stack.append(v); on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    seen = set()
    for comp in comps:
        key = ' '.join(comp)
        if key in KNOWN_CIRCLES:
            seen.add(key)
            continue
        bad.append('circle: ' + ' <-> '.join(f'src/{c}.c' for c in comp))
    mods = set(refs) | set(defs.values())
    for key in sorted(KNOWN_CIRCLES - seen):
        if all(m in mods for m in key.split()):
                bad.append(f'circle {key} is gone: remove it from KNOWN_CIRCLES')
else:
    print(f'layers: no objects under {build}/src: call direction and circles not checked')

for b in bad:
    print('lint: ' + b)
if not bad:
    print('layers: include and call direction ok, no new circles')
sys.exit(1 if bad else 0)
