"""build.py - write cadquery.jsonl from the scripts in this directory.

Three cad tasks of benchmark cad-cq (docs/envs/cad.md, "CadQuery tasks"):
bracket and flange give their reference as a CadQuery script
(reference.py, run by the cad env), plate as STEP made from its
reference.py here.  Each task has the candidates model-a (the same solid
built another way), model-b (built on the wrong workplane: rotated),
model-c (a CadQuery API error) and model-d (the answer in a markdown
fence); bracket also model-f (prose before the script), plate model-e
(a face, not a solid).

Run with the project venv's Python, which has CadQuery:
    build/venv/bin/python3 examples/3d/cadquery/build.py
"""
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cadquery.jsonl")

TASKS = {
    "bracket": ("An L-bracket in millimetres: a base 60 x 30 x 5 on the XY"
                " plane with one corner at the origin (x 0..60, y 0..30,"
                " z 0..5), an upright 5 x 30 x 40 at x = 0 (x 0..5, z up"
                " to 40), and a hole of diameter 8 through the base along"
                " Z at x = 40, y = 15.", "script"),
    "flange": ("A flanged cylinder along +Z from the origin, millimetres:"
               " a flange of diameter 60 from z = 0 to 8, a body of"
               " diameter 30 up to z = 40, a bore of diameter 16 through"
               " it along the axis, and four bolt holes of diameter 6"
               " through the flange on a pitch circle of diameter 45, at"
               " 0, 90, 180 and 270 degrees from +X.", "script"),
    "plate": ("A plate 80 x 50 x 6 mm centred on the origin in X and Y,"
              " from z = 0 to 6, with six through holes of diameter 6 along"
              " Z on a 3 x 2 grid centred on the plate, 25 mm apart in x"
              " and 20 mm apart in y.", "step"),
}
INTERFACE = ("A CadQuery script that leaves one solid, in millimetres, in"
             " the variable `result`.")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def step_of(script):
    """The STEP text of a script's `result`, its date fixed."""
    import cadquery as cq
    ns = {}
    exec(compile(script, "reference.py", "exec"), ns)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "reference.step")
        cq.exporters.export(ns["result"], path, exportType="STEP")
        text = read(path)
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", "2025-01-01T00:00:00",
                  text)


def main():
    rows = []
    for name, (spec, kind) in TASKS.items():
        ref = read(os.path.join(HERE, name, "reference.py"))
        files = ({"reference.py": ref} if kind == "script" else
                 {"reference.step": step_of(ref)})
        rows.append({"task": {
            "id": "cad-cq/" + name, "domain": "3d", "benchmark": "cad-cq",
            "env": "cad", "env_params": {"iou_min": 0.9}, "spec": spec,
            "interface": INTERFACE, "files": files, "reference": ref}})
        for f in sorted(os.listdir(os.path.join(HERE, name))):
            if not f.startswith("model-"):
                continue
            rows.append({"task": "cad-cq/" + name, "candidate": {
                "origin": f.split(".")[0], "kind": "direct",
                "lang": "python", "code": read(os.path.join(HERE, name, f))}})
    with open(OUT, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print("build.py: %d rows in %s" % (len(rows), os.path.normpath(OUT)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
