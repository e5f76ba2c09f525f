#!/usr/bin/env python3
"""driver.py - the triton env against an independent run of KernelBench's
rule, on a held-out set of public model kernels.

  driver.py HELDOUT --assay BUILD/assay --python VENV/bin/python3
            [--out DIR] [--jobs 2] [--only REGEX] [--timeout 300]
            [--skip-verify] [--db DB]

HELDOUT holds manifest.jsonl (one row per kernel: id, kernel, origin,
task, problem_file, source, recorded), problems/levelN/*.py and the
kernels the rows name (docs/benchmarks.md, "Triton on held-out model
kernels", says where they came from).

Steps, all in a scratch directory (--out, else a new temporary one):
 1. the problems a selected row needs are copied to kb/levelN/ and
    imported (assay's KernelBench importer), the kernels as assay JSONL
    rows of those tasks (origin = the model; the source's recorded GPU
    verdict as a recorded result, never trusted by assay);
 2. assay verify --jobs N over them;
 3. per row, kb_rule.py (beside this file) at the sizes assay used for
    the row (its metrics, else its log line "sizes cut: ..."; without
    either, the documented cut), under a timeout of its own;
 4. each row classed by what the two sides said, the table printed and
    heldout.tsv written.

Only the Python standard library; assay and the rule run as
subprocesses.
"""
import argparse
import ast
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RULE = os.path.join(HERE, "kb_rule.py")
SIZES_LINE = re.compile(r"sizes cut: (.*)")
SIZE_ITEM = re.compile(r"(\w+) (\([^)]*\)|\[[^\]]*\]|-?\d+)->"
                       r"(\([^)]*\)|\[[^\]]*\]|-?\d+)")


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def load_manifest(root, only):
    rows = []
    with open(os.path.join(root, "manifest.jsonl")) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except ValueError as e:
                sys.exit("%s/manifest.jsonl:%d: %s" % (root, n, e))
            for k in ("id", "kernel", "task", "problem_file", "origin"):
                if k not in r:
                    sys.exit("%s/manifest.jsonl:%d: no \"%s\"" % (root, n, k))
            if only and not re.search(only, r["id"]):
                continue
            rows.append(r)
    return rows


def build_db(root, rows, scratch, assay, db):
    kb = os.path.join(scratch, "kb")
    for r in rows:
        dst = os.path.join(kb, os.path.relpath(r["problem_file"], "problems"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if not os.path.exists(dst):
            shutil.copyfile(os.path.join(root, r["problem_file"]), dst)
    cands = os.path.join(scratch, "candidates.jsonl")
    with open(cands, "w") as out:
        for r in rows:
            with open(os.path.join(root, r["kernel"])) as f:
                code = f.read()
            row = {"task": r["task"],
                   "candidate": {"origin": r["origin"], "kind": "direct",
                                 "lang": "python", "code": code,
                                 "source": source_of(r),
                                 "heldout_id": r["id"]}}
            rec = r.get("recorded") or {}
            if rec.get("verdict") in ("pass", "fail"):
                row["recorded"] = [{"verdict": rec["verdict"],
                                    "stage": "correctness",
                                    "log": rec.get("detail", "")}]
            out.write(json.dumps(row) + "\n")
    # --keep-going: a problem assay refuses (a task id part over 64 bytes)
    # leaves its rows unverified, each counted as such, not the whole set.
    for path in (kb, cands):
        p = run([assay, "--db", db, "import", "--keep-going", path])
        with open(os.path.join(scratch, "import.log"), "a") as f:
            f.write("$ assay import --keep-going %s\n%s%s" % (
                path, p.stdout, p.stderr))
        if p.returncode not in (0, 1):
            sys.exit("assay import %s: %s" % (path, p.stderr.strip()))


def source_of(r):
    src = r.get("source", {})
    return "%s:%s@%s" % (src.get("repo", "?"), src.get("path", "?"),
                         src.get("commit", "?")[:12])


def assay_rows(assay, db, rows):
    """heldout id -> the candidate's list row and its last run, matched by
    the source each row's candidate was imported with."""
    by_source = {source_of(r): r["id"] for r in rows}
    p = run([assay, "--db", db, "list", "--json", "--where", "env=triton"])
    if p.returncode != 0:
        sys.exit("assay list: %s" % p.stderr.strip())
    out = {}
    for line in p.stdout.splitlines():
        lr = json.loads(line)
        hid = by_source.get(lr.get("source"))
        if hid is None:
            continue
        s = run([assay, "--db", db, "show", "--json", lr["id"]])
        if s.returncode != 0:
            sys.exit("assay show %s: %s" % (lr["id"], s.stderr.strip()))
        runs = json.loads(s.stdout).get("runs") or []
        out[hid] = {"list": lr, "run": runs[-1] if runs else None}
    return out


def used_sizes(run_):
    """The sizes assay used, as {name: [old, new]}, or None."""
    if not run_:
        return None
    m = (run_.get("metrics") or {}).get("sizes")
    if isinstance(m, dict) and m:
        return m
    for line in (run_.get("log") or "").splitlines():
        s = SIZES_LINE.search(line)
        if not s:
            continue
        got = {}
        for name, old, new in SIZE_ITEM.findall(s.group(1)):
            got[name] = [ast.literal_eval(old), ast.literal_eval(new)]
        if got:
            return got
    return None


def rule_row(py, root, r, sizes, timeout):
    cmd = [py, RULE, "--problem", os.path.join(root, r["problem_file"]),
           "--kernel", os.path.join(root, r["kernel"]),
           "--timeout", str(timeout)]
    if sizes:
        cmd += ["--sizes", json.dumps(sizes)]
    env = dict(os.environ, TRITON_INTERPRET="1")
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout + 60, env=env,
                           cwd=tempfile.mkdtemp(prefix="kb-rule-"))
    except subprocess.TimeoutExpired:
        return {"outcome": "cannot-judge", "reason": "timeout",
                "detail": "no answer in %d s" % (timeout + 60)}
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                break
    tail = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"outcome": "cannot-judge", "reason": "rule-crashed",
            "detail": "status %d: %s" % (p.returncode, tail[:300])}


# Failures of assay's that come from running on the CPU, not from the
# kernel: autotune's benchmarker asking for a GPU driver in the
# interpreter.
ENV_CAUSE = re.compile(r"0 active drivers")


def evidence_of(a):
    return ((a or {}).get("run") or {}).get("evidence") or ""


def import_refusals(scratch):
    """[(task id prefix, the importer's line)] for the tasks assay's
    importer skipped, from import.log."""
    out = []
    try:
        with open(os.path.join(scratch, "import.log")) as f:
            for line in f:
                m = re.match(r"task id '([^']*)': (.*)", line.strip())
                if m:
                    out.append((m.group(1).rstrip("."), line.strip()))
    except OSError:
        pass
    return out


def assay_side(a):
    """pass | fail | timeout | skipped | task-defect | env-error | none"""
    if a is None or a["run"] is None:
        return "none"
    return a["run"].get("verdict") or "none"


def classify(r, a, rule):
    """(agree: True/False/None, class) for one row."""
    av = assay_side(a)
    sub = (a["run"] or {}).get("subcategory") if a else None
    ro, rr = rule["outcome"], rule.get("reason", "")
    rec = (r.get("recorded") or {}).get("verdict")
    if av == "none":
        return False, "assay: not imported or not verified (rule %s)" % ro
    if ro in ("pass", "fail"):
        if av == ro == "fail" and ENV_CAUSE.search(evidence_of(a)):
            # The same verdict for a cause of the CPU run's, not the
            # kernel's: counted as agreement, but named.
            return True, "agree: fail (assay's cause: the CPU run's)"
        if av == ro:
            return True, "agree: %s" % ro
        if av == "fail" and sub == "no-triton-kernel":
            # ADR 0036: the task asks for Triton kernels on the output
            # path; KernelBench's rule does not check that.
            return False, "assay no-triton-kernel (task's rule) / rule %s" % ro
        if av in ("pass", "fail", "timeout"):
            return False, "assay %s / rule %s" % (av, ro)
        return False, "assay %s (%s) / rule %s" % (av, sub or "-", ro)
    # The rule cannot judge.
    if rr == "reference-fails-at-sizes":
        if av == "task-defect":
            return False, "assay task-defect / reference runs at larger sizes"
        if av == "skipped":
            return True, "agree: cannot judge (sizes)"
        return None, "assay %s / rule: reference fails at these sizes" % av
    if av in ("skipped", "task-defect", "env-error"):
        return True, "agree: cannot judge (%s / %s)" % (sub or av, rr)
    if rec in ("pass", "fail") and av in ("pass", "fail"):
        if av == rec:
            return True, "agree with recorded GPU %s (rule: %s)" % (rec, rr)
        return False, "assay %s / recorded GPU %s (rule: %s)" % (av, rec, rr)
    return None, "assay %s / rule cannot judge (%s), no GPU record" % (av, rr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("heldout")
    ap.add_argument("--assay", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--out")
    ap.add_argument("--db")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--skip-verify", action="store_true")
    a = ap.parse_args()
    root = os.path.abspath(a.heldout)
    rows = load_manifest(root, a.only)
    if not rows:
        sys.exit("no rows selected")
    scratch = os.path.abspath(a.out or tempfile.mkdtemp(prefix="heldout-"))
    os.makedirs(scratch, exist_ok=True)
    db = os.path.abspath(a.db or os.path.join(scratch, "heldout.db"))
    if not a.skip_verify:
        if os.path.exists(db):
            os.unlink(db)
        build_db(root, rows, scratch, a.assay, db)
        p = subprocess.run([a.assay, "--db", db, "verify", "--jobs",
                            str(a.jobs), "--where", "env=triton"],
                           stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)
        with open(os.path.join(scratch, "verify.log"), "w") as f:
            f.write(p.stdout + p.stderr)
        print((p.stdout.strip().splitlines() or [""])[-1])
    got = assay_rows(a.assay, db, rows)
    refused = import_refusals(scratch)
    for r in rows:
        if r["id"] not in got:
            why = [l for p, l in refused if r["task"].startswith(p)]
            got[r["id"]] = {"list": None, "run": {
                "evidence": "not imported: " + (why[0] if why else
                                                "see import.log")}}

    def one(r):
        ar = got.get(r["id"])
        sizes = used_sizes(ar["run"] if ar else None)
        return r, ar, sizes, rule_row(a.python, root, r, sizes, a.timeout)

    results = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for r, ar, sizes, rule in ex.map(one, rows):
            agree, cls = classify(r, ar, rule)
            results.append((r, ar, sizes, rule, agree, cls))

    tsv = os.path.join(scratch, "heldout.tsv")
    cols = ("id", "model", "task", "assay_verdict", "assay_stage",
            "assay_category", "assay_subcategory", "assay_evidence",
            "rule_outcome", "rule_reason", "rule_detail", "rule_configs",
            "sizes", "recorded_gpu", "agree", "class")
    with open(tsv, "w") as f:
        f.write("\t".join(cols) + "\n")
        for r, ar, sizes, rule, agree, cls in results:
            run_ = (ar or {}).get("run") or {}
            vals = (r["id"], r.get("origin", ""), r["task"],
                    run_.get("verdict") or "", run_.get("stage") or "",
                    run_.get("category") or "", run_.get("subcategory") or "",
                    (run_.get("evidence") or "")[:400],
                    rule["outcome"], rule.get("reason", ""),
                    rule.get("detail", "")[:400],
                    str(rule.get("configs", "")),
                    json.dumps(sizes) if sizes else "",
                    (r.get("recorded") or {}).get("verdict", ""),
                    {True: "yes", False: "no", None: "unresolved"}[agree],
                    cls)
            f.write("\t".join(str(v).replace("\t", " ").replace("\n", " ")
                              for v in vals) + "\n")

    n = len(results)
    yes = sum(1 for x in results if x[4] is True)
    no = sum(1 for x in results if x[4] is False)
    unres = n - yes - no
    print("\n%-64s %s" % ("class", "rows"))
    counts = {}
    for x in results:
        counts[x[5]] = counts.get(x[5], 0) + 1
    for cls, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print("%-64s %d" % (cls[:64], c))
    print("\nrows %d: agree %d (%.1f%%), disagree %d, unresolved %d" % (
        n, yes, 100.0 * yes / n, no, unres))
    print("disagreements and unresolved rows:")
    for r, ar, sizes, rule, agree, cls in results:
        if agree is True:
            continue
        run_ = (ar or {}).get("run") or {}
        print("  %s\n    assay: %s %s %s: %s\n    rule:  %s %s: %s" % (
            r["id"], run_.get("verdict"), run_.get("stage"),
            run_.get("subcategory") or run_.get("category") or "",
            (run_.get("evidence") or "")[:200], rule["outcome"],
            rule.get("reason", ""), rule.get("detail", "")[:200]))
    print("\nwrote %s" % tsv)


if __name__ == "__main__":
    main()
