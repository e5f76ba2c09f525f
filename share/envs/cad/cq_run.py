"""cq_run.py - run a CadQuery script and export its solid as STEP.

The cad env of assay (src/envs/cad.c, docs/envs/cad.md) runs this inside
its sandbox, after a probe stage has found that cadquery imports:

    /usr/bin/python3 -I cq_run.py candidate.py candidate.step

The script's result is the last object it passed to show_object(), else
its variable `result`, else its last Workplane or Shape variable.  It is
exported with cadquery.exporters.export (an Assembly through its compound).

Exit status: 0 exported; 77 cadquery does not import (the script has not
run); 1 the script raised (the traceback is printed, its
last line names the exception); 2 the script is not valid Python; 3 the
script made no result; 4 the result could not be exported.  Lines of our own
start with "cq_run:".
"""
import sys
import traceback

try:
    import cadquery as cq
except Exception as e:  # before the script runs: it cannot fake this
    print("skipped: cadquery does not import (%s: %s)"
          % (type(e).__name__, e))
    sys.exit(77)


def pick(ns, shown):
    """The object the script means as its answer, or None."""
    if shown:
        return shown[-1]
    if ns.get("result") is not None:
        return ns["result"]
    kinds = (cq.Workplane, cq.Shape, cq.Assembly)
    last = None
    for value in ns.values():
        if isinstance(value, kinds):
            last = value
    return last


def main():
    if len(sys.argv) != 3:
        print("cq_run: usage: cq_run.py SCRIPT OUT.step")
        return 1
    script, out = sys.argv[1], sys.argv[2]
    with open(script, encoding="utf-8", errors="replace") as f:
        source = f.read()
    try:
        code = compile(source, script, "exec")
    except SyntaxError:
        traceback.print_exc(limit=0)
        return 2
    shown = []

    def show_object(obj, *args, **kwargs):
        shown.append(obj)

    ns = {"__name__": "__main__", "__file__": script,
          "show_object": show_object, "debug": lambda *a, **k: None}
    # From here on the script's code runs: a 77 of its own (os._exit)
    # after this line is not a skip (src/envs/cad.c).
    print("cq_run: running %s" % script)
    try:
        exec(code, ns)
    except SystemExit as e:
        # sys.exit() in a script ends the script, not the judgement.
        if e.code not in (None, 0):
            print("cq_run: the script exited with status %s" % (e.code,))
            return 1
    except BaseException:
        traceback.print_exc()
        return 1
    obj = pick(ns, shown)
    if obj is None:
        print("cq_run: the script made no result (assign `result` or call"
              " show_object())")
        return 3
    try:
        if isinstance(obj, cq.Assembly):
            obj = obj.toCompound()
        cq.exporters.export(obj, out, exportType="STEP")
    except BaseException:
        traceback.print_exc()
        print("cq_run: cannot export the result as STEP")
        return 4
    print("cq_run: exported %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
