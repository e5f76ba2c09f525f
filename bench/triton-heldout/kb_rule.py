#!/usr/bin/env python3
"""kb_rule.py - KernelBench's correctness rule, run on the CPU in Triton's
interpreter, independently of assay's harness (share/envs/triton/
kb_harness.py is neither imported nor read).

Follows ScalingIntelligence/KernelBench src/eval.py
(eval_kernel_against_ref, run_and_check_correctness):

  - the reference Model and the candidate ModelNew are each built from
    get_init_inputs() right after set_seed(42);
  - the trial seeds are torch.manual_seed(42) then one
    torch.randint(0, 2**32 - 1, (1,)) per trial (5 trials);
  - per trial: set_seed(trial seed), inputs = get_inputs(), set_seed,
    reference output, set_seed, candidate output on the same inputs;
  - a shape difference fails at once, otherwise
    torch.allclose(ref, new, atol=1e-2, rtol=1e-2) counts the trial;
  - any exception of the candidate (loading, building, running,
    comparing) fails it; it passes when every trial matches.

What the CPU run changes, and says so in its output:

  - TRITON_INTERPRET=1 is set before triton is imported;
  - the problem's module-level integer sizes are cut, either to the ones
    given with --sizes (the ones assay used for the row) or, without
    them, by the rule docs/envs/triton.md documents (by value: over 8 to
    8, names with batch/channel/feature to 2);
  - while the candidate runs, Tensor.is_cuda answers True, Tensor.cuda()
    returns the tensor and torch.cuda.synchronize() does nothing, so
    that wrapper code written for a GPU reaches its kernels (KernelBench
    itself moves everything with .cuda()); a device named "cuda" is not
    rewritten;
  - @triton.autotune: the interpreter has no benchmarker, so the rule
    runs the trials once per config (each autotuner given that one
    config, the way Triton runs a single-config autotuner), and keeps
    Triton's own check that a launch does not pass an autotuned
    meta-parameter; configs that disagree make the row config-dependent.

Outcomes: pass, fail, or cannot-judge with a reason when the CPU run
cannot stand for the GPU: needs-cuda (torch's missing-driver errors, a
GPU-only API), interpreter-limit (NotImplementedError and the known
interpreter errors), reference-fails (the task's own Model fails at the
sizes; "reference runs at N" when it runs at larger ones), timeout,
config-dependent.

  kb_rule.py --problem P.py --kernel K.py [--sizes JSON] [--trials 5]
             [--seed 42] [--atol 0.01] [--rtol 0.01] [--timeout 300]

Prints one JSON object on its last line of stdout; exit status 0 unless
the arguments are wrong (2).
"""
import argparse
import importlib.util
import json
import os
import re
import signal
import sys
import traceback

os.environ["TRITON_INTERPRET"] = "1"    # before triton is first imported

BATCH_WORDS = ("batch", "channel", "feature")
SIZE_CAP, BATCH_CAP = 8, 2
# Cuts by name tried, in turn, when the reference fails at the given sizes:
# (cap, batch/channel/feature cap).
LARGER_CUTS = ((8, 2), (16, 2), (32, 2), (8, 8), (16, 16), (32, 32))
MAX_CONFIGS = 16

# Errors that say the CPU path, not the candidate, stopped the run.
NEEDS_CUDA = re.compile(
    r"NVIDIA driver|Torch not compiled with CUDA|"
    r"No CUDA GPUs are available|CUDA driver initialization failed|"
    r"cudaGetDeviceCount|no CUDA-capable device|0 active drivers|"
    r"CUDA error|Cannot access accelerator device")
INTERP_LIMIT = re.compile(
    r"mask has unsupported dtype|not supported in interpreter|"
    r"interpreter does not support|unsupported in the interpreter")


class RuleTimeout(Exception):
    pass


def emit(outcome, reason="", detail="", **extra):
    row = {"outcome": outcome, "reason": reason, "detail": detail[:2000]}
    row.update(extra)
    sys.stdout.flush()
    print(json.dumps(row, sort_keys=True, default=str))
    sys.stdout.flush()
    os._exit(0)     # candidate threads or atexit hooks must not change it


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod     # Triton reads a kernel's source by module
    spec.loader.exec_module(mod)
    return mod


def int_values(v):
    if type(v) is int:
        return [v]
    if isinstance(v, (tuple, list)) and v and all(type(x) is int for x in v):
        return list(v)
    return []


def documented_cut(mod, cap, batch_cap):
    """docs/envs/triton.md's cut, written here from its text: sizes over
    cap to cap, those named for batches, channels or features to
    batch_cap, by value (equal sizes stay equal), the smaller cap winning.
    Returns {name: new value}."""
    to = {}
    for name, v in vars(mod).items():
        if name.startswith("_"):
            continue
        c = batch_cap if any(w in name.lower() for w in BATCH_WORDS) else cap
        for x in int_values(v):
            if x > c:
                to[x] = min(to.get(x, c), c)
    new = {}
    for name, v in vars(mod).items():
        if name.startswith("_") or not int_values(v):
            continue
        if type(v) is int:
            n = to.get(v, v)
        else:
            n = type(v)(to.get(x, x) for x in v)
        if n != v:
            new[name] = n
    return new


def by_name_cut(mod, cap, batch_cap):
    """A cut by name, each size on its own (no value sharing): used only
    to ask whether the reference runs at some small size at all."""
    new = {}
    for name, v in vars(mod).items():
        if name.startswith("_") or not int_values(v):
            continue
        c = batch_cap if any(w in name.lower() for w in BATCH_WORDS) else cap
        if type(v) is int:
            n = min(v, c) if v > 0 else v
        else:
            n = type(v)(min(x, c) if x > 0 else x for x in v)
        if n != v:
            new[name] = n
    return new


def apply_sizes(mod, sizes):
    for name, v in sizes.items():
        if not hasattr(mod, name):
            raise KeyError("the problem has no size named %s" % name)
        cur = getattr(mod, name)
        setattr(mod, name, type(cur)(v) if isinstance(cur, (tuple, list))
                else v)


def given_sizes(text):
    """--sizes, in the form of assay's metrics: {"name": [old, new]}, new
    an integer or a list (a tuple of sizes).  Returns {name: new}."""
    raw = json.loads(text)
    out = {}
    for k, v in raw.items():
        if not (isinstance(v, list) and len(v) == 2):
            raise ValueError("--sizes: %s is not [old, new]" % k)
        out[k] = v[1]
    return out


class CudaAlias:
    """is_cuda, Tensor.cuda and torch.cuda.synchronize answer as on a GPU
    while the candidate runs; nothing else."""

    def __init__(self, torch):
        self.torch = torch
        self.saved = None

    def __enter__(self):
        t = self.torch
        self.saved = (t.Tensor.is_cuda, t.Tensor.cuda, t.cuda.synchronize)
        t.Tensor.is_cuda = property(lambda self: True)
        t.Tensor.cuda = lambda self, *a, **k: self
        t.cuda.synchronize = lambda *a, **k: None
        return self

    def __exit__(self, *exc):
        t = self.torch
        t.Tensor.is_cuda, t.Tensor.cuda, t.cuda.synchronize = self.saved
        return False


class OneConfig:
    """Each autotuner runs config number FORCE (or its last) without the
    benchmarker; a launch that passes one of that config's meta-parameters
    fails as Triton's autotuner fails it."""

    def __init__(self):
        from triton.runtime import autotuner
        self.at = autotuner
        self.force = 0
        self.most = 0
        self.orig = autotuner.Autotuner.run
        rule = self

        def run(tuner, *args, **kwargs):
            cfgs = list(tuner.configs)
            rule.most = max(rule.most, len(cfgs))
            cfg = cfgs[min(rule.force, len(cfgs) - 1)]
            clash = sorted(set(kwargs) & set(cfg.kwargs))
            if clash:
                raise ValueError(
                    "Conflicting meta-parameters: %s. Make sure that you"
                    " don't re-define auto-tuned symbols." % ", ".join(clash))
            tuner.configs = [cfg]
            try:
                return rule.orig(tuner, *args, **kwargs)
            finally:
                tuner.configs = cfgs

        autotuner.Autotuner.run = run


def env_cause(e, tb_text):
    """The reason the CPU path, not the candidate, raised e, or None."""
    msg = "%s: %s" % (type(e).__name__, e)
    if NEEDS_CUDA.search(msg):
        return "needs-cuda"
    if isinstance(e, NotImplementedError) and "triton" in tb_text:
        return "interpreter-limit"
    if INTERP_LIMIT.search(msg):
        return "interpreter-limit"
    return None


def cand_line(tb, kernel):
    """The innermost line of the candidate's file in the traceback."""
    line = None
    for fr in traceback.extract_tb(tb):
        if os.path.abspath(fr.filename) == kernel:
            line = "%s:%d: %s" % (os.path.basename(kernel), fr.lineno,
                                  (fr.line or "").strip())
    return line


def failure(e, kernel, where):
    tb_text = "".join(traceback.format_exception(type(e), e,
                                                  e.__traceback__))
    cause = env_cause(e, tb_text)
    line = cand_line(e.__traceback__, kernel)
    detail = "%s: %s%s" % (type(e).__name__,
                           str(e).strip().splitlines()[0][:300]
                           if str(e).strip() else "",
                           " (at %s)" % line if line else "")
    return cause, "%s: %s" % (where, detail)


class Done(Exception):
    """The outcome of one judgement."""

    def __init__(self, outcome, reason="", detail="", **extra):
        Exception.__init__(self, outcome)
        self.row = {"outcome": outcome, "reason": reason,
                    "detail": detail[:2000]}
        self.row.update(extra)


def reference_runs(torch, path, sizes, seed):
    """Whether the problem's Model builds and runs once at sizes."""
    ref = load_module(path, "kb_rule_reference_try")
    apply_sizes(ref, sizes)
    with torch.no_grad():
        torch.manual_seed(seed)
        m = ref.Model(*ref.get_init_inputs())
        torch.manual_seed(seed)
        m(*ref.get_inputs())


def judge(torch, a, kernel, sizes, how, tuner, name):
    """Raises Done with the rule's outcome for the kernel at sizes."""
    info = {"sizes": sizes, "sizes_from": how}
    problem = os.path.abspath(a.problem)

    def set_seed(s):
        torch.manual_seed(s)

    ref = load_module(problem, "kb_rule_reference_" + name)
    apply_sizes(ref, sizes)
    # The reference, first and alone: a failure here is not the
    # candidate's.  When it fails, find whether it runs at a cut by name.
    try:
        init_inputs = ref.get_init_inputs()
        with torch.no_grad():
            set_seed(a.seed)
            model = ref.Model(*init_inputs)
        torch.manual_seed(a.seed)
        seeds = [torch.randint(0, 2 ** 32 - 1, (1,)).item()
                 for _ in range(a.trials)]
        ref_out = []
        with torch.no_grad():
            for s in seeds:
                set_seed(s)
                inputs = ref.get_inputs()
                set_seed(s)
                ref_out.append(model(*inputs))
    except RuleTimeout as e:
        raise Done("cannot-judge", "timeout", "reference: %s" % e, **info)
    except Exception as e:
        first = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:300]
                            if str(e) else "")
        if env_cause(e, "") == "needs-cuda":
            raise Done("cannot-judge", "reference-needs-cuda", first, **info)
        for cap, bcap in LARGER_CUTS:
            probe = load_module(problem, "kb_rule_reference_probe")
            cut = by_name_cut(probe, cap, bcap)
            try:
                reference_runs(torch, problem, cut, a.seed)
            except RuleTimeout:
                raise
            except Exception:
                continue
            raise Done("cannot-judge", "reference-fails-at-sizes",
                       "%s; the reference runs at %s" % (
                           first, ", ".join("%s=%s" % kv
                                            for kv in sorted(cut.items()))),
                       larger_sizes=cut, **info)
        raise Done("cannot-judge", "reference-fails", first, **info)

    alias = CudaAlias(torch)
    try:
        with alias:
            cand = load_module(kernel, "kb_rule_candidate_" + name)
    except RuleTimeout as e:
        raise Done("cannot-judge", "timeout", "load: %s" % e, **info)
    except BaseException as e:
        cause, detail = failure(e, kernel, "load")
        if cause:
            raise Done("cannot-judge", cause, detail, **info)
        raise Done("fail", "load", detail, **info)
    ModelNew = getattr(cand, "ModelNew", None)
    if ModelNew is None:
        raise Done("fail", "no-modelnew",
                   "the kernel file defines no ModelNew", **info)

    def run_trials():
        """(passed, problem or None, its detail, max diff) for the
        current config."""
        with alias, torch.no_grad():
            set_seed(a.seed)
            new = ModelNew(*init_inputs)
        passed, worst = 0, 0.0
        for i, s in enumerate(seeds):
            set_seed(s)
            inputs = ref.get_inputs()
            set_seed(s)
            with alias, torch.no_grad():
                out = new(*inputs)
            r = ref_out[i]
            if out.shape != r.shape:
                return passed, "shape-mismatch", (
                    "trial %d: output shape %s, expected %s" % (
                        i, tuple(out.shape), tuple(r.shape))), worst
            if torch.allclose(r, out, atol=a.atol, rtol=a.rtol):
                passed += 1
            else:
                d = (r.float() - out.float()).abs().max().item()
                worst = max(worst, d)
        return passed, None, None, worst

    verdicts = []
    tuner.force, tuner.most = 0, 0
    while True:
        try:
            passed, why, detail, worst = run_trials()
        except RuleTimeout as e:
            raise Done("cannot-judge", "timeout", "run: %s" % e, **info)
        except BaseException as e:
            cause, detail = failure(e, kernel, "run")
            if cause:
                raise Done("cannot-judge", cause, detail, **info)
            passed, why, worst = None, "exception", 0.0
        if why is None:
            verdict = "pass" if passed == a.trials else "fail"
            why = "" if verdict == "pass" else "mismatch"
            detail = "%d of %d trials match (max abs diff %.3g)" % (
                passed, a.trials, worst)
        else:
            verdict = "fail"
        verdicts.append((tuner.force, verdict, why, detail))
        if tuner.most <= 1 or tuner.force + 1 >= min(tuner.most,
                                                      MAX_CONFIGS):
            break
        tuner.force += 1
    info["configs"] = tuner.most
    if len(set(v for _, v, _, _ in verdicts)) > 1:
        raise Done("cannot-judge", "config-dependent", "; ".join(
            "config %d: %s %s" % (i, v, d) for i, v, _, d in verdicts),
            **info)
    _, verdict, why, detail = verdicts[0]
    raise Done(verdict, why, detail, **info)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--problem", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--sizes")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--atol", type=float, default=1e-2)
    ap.add_argument("--rtol", type=float, default=1e-2)
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    kernel = os.path.abspath(a.kernel)

    def on_alarm(signum, frame):
        raise RuleTimeout("ran past %d s" % a.timeout)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(a.timeout)

    import torch
    try:
        import triton  # noqa: F401  (the interpreter, set above)
        tuner = OneConfig()
    except Exception as e:
        emit("cannot-judge", "no-triton", "%s: %s" % (type(e).__name__, e))
    if a.sizes:
        sizes, how = given_sizes(a.sizes), "given"
    else:
        ref = load_module(os.path.abspath(a.problem), "kb_rule_sizes")
        sizes, how = documented_cut(ref, SIZE_CAP, BATCH_CAP), \
            "documented-cut"
    try:
        judge(torch, a, kernel, sizes, how, tuner, "given")
    except Done as d:
        row = d.row
    # Where the reference fails only at these sizes, the kernel is judged
    # at the sizes it runs at too, for the record (the row's outcome
    # stays "cannot judge at these sizes").
    if row.get("reason") == "reference-fails-at-sizes":
        try:
            judge(torch, a, kernel, row["larger_sizes"], "by-name cut",
                  tuner, "larger")
        except Done as d:
            row["at_larger_sizes"] = {k: d.row[k] for k in
                                      ("outcome", "reason", "detail")}
        except RuleTimeout as e:
            row["at_larger_sizes"] = {"outcome": "cannot-judge",
                                      "reason": "timeout", "detail": str(e)}
    emit(row.pop("outcome"), row.pop("reason"), row.pop("detail"), **row)


if __name__ == "__main__":
    main()
