"""kb_harness.py - the KernelBench harness of assay's triton env.

The env (src/envs/triton.c) writes this file into the work directory and
runs it inside the sandbox with /usr/bin/python3 -I, in two stages:

  kb_harness.py check
      Says what it found (python, torch, triton, a GPU) and exits 77 with
      the reason when torch, triton or a GPU is missing.  No candidate
      code runs in this stage.

  kb_harness.py eval REFERENCE CANDIDATE [--trials N] [--correct-trials N]
                [--atol X] [--rtol X] [--seed N]
      KernelBench's evaluation (ScalingIntelligence/KernelBench,
      src/eval.py: eval_kernel_against_ref): build the task's Model and
      the candidate's ModelNew from get_init_inputs() under the same
      seed, compare their outputs on N random inputs from get_inputs()
      with torch.allclose, then time both over the trials with CUDA
      events (3 warm-up runs first).

Without a GPU (no /dev/nvidiactl in the sandbox, or torch finds no CUDA
device) but with torch and triton, eval checks correctness on the CPU:
Triton's interpreter runs the candidate's kernels (TRITON_INTERPRET=1,
set before triton is imported), the reference runs on the CPU, the sizes
the problem file sets as module-level integers are cut to CPU_SIZE_CAP,
batch, channel and feature counts to CPU_BATCH_CAP (the interpreter runs
each program instance in numpy), the outputs are
compared with KernelBench's tolerance CPU_TOL, and nothing is timed.
While the candidate's code runs, tensors say is_cuda and .cuda() keeps a
tensor where it is, so that wrapper code written for the GPU reaches its
kernels; an allocation on a "cuda" device, a CUDA-only API or a CUDA C++
extension cannot run here and the run is skipped with that reason.

The judge reads only the marker lines of the eval stage: the run's nonce,
a blank, one JSON object with an "event" key (phase, skip, error, fail,
defect, result).  The nonce comes from the file "nonce", which is read and
removed before any candidate code runs.  The candidate runs in a worker
process ("kb_harness.py worker", a fresh interpreter) that never holds
the nonce and whose stdout is not the marker channel; it sends its
outputs over a pipe and this process compares them (ADR 0020).

Everything in the worker is the candidate's to rewrite, so its reply is
data, never a verdict (ADR 0036): one length-framed torch.save dict,
anything else on the pipe fails the candidate; a reply that is not a full
set of outputs is believed only as a failure; a skip is never the
worker's word (the checker decides cuda-only from its own reading of the
source); and no launch count is taken from it.  Triton is proved on the
output path by POISONED more trials on fresh random seeds at random
places among the correctness trials, in which every value a Triton
kernel stores is NaN (or the bitwise complement) in Triton's
interpreter: when the output of any of them is still right, Triton did
not compute it, and the candidate fails as api/no-triton-kernel.  The
worker's timings on a GPU are its own word: a speedup over 10x is
flagged for review by the env.
"""

import importlib.util
import json
import math
import os
import re
import struct
import sys
import traceback

EXIT_SKIP = 77
CPU_TOL = 1e-2          # KernelBench's atol = rtol on the CPU path
CPU_SIZE_CAP = 8        # module-level sizes of the problem, on the CPU
CPU_BATCH_CAP = 2       # the same for batch, channel and feature counts
BATCH_WORDS = ("batch", "channel", "feature")
# What the CUDA runtime and torch say where there is no GPU: a candidate
# that hits one of these cannot run on the CPU.
CUDA_ONLY = ("Found no NVIDIA driver", "NVIDIA driver", "No CUDA GPUs are available",
             "Torch not compiled with CUDA", "CUDA driver",
             "no CUDA-capable device", "Cannot access accelerator device",
             "CUDA error", "cudaGetDeviceCount", "Expected all tensors to be"
             " on the same device", "CUDA_HOME", "nvcc")
NONCE = ""
MARK_FD = 1     # a copy of stdout taken before the candidate runs
REPLY_MAX = 1 << 34     # the most bytes a worker's reply may take
POISONED = 3            # trials with Triton's stores poisoned (ADR 0036)
POISON = [False]        # the worker's: poison this trial's stores
STORED = []             # the worker's: addresses stored by this launch
TAINT = {}              # the worker's: storages Triton wrote, this trial
CAND_NAME = "kb_candidate"
REF_NAME = "kb_reference"


def say(text):
    sys.stdout.write("assay-triton: %s\n" % text)
    sys.stdout.flush()


def clean(v):
    """v with NaN and infinities as strings: JSON has no such numbers."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    return v


def emit(event, **fields):
    """A marker line for the judge (eval stage only)."""
    fields = clean(dict(fields))
    fields["event"] = event
    line = json.dumps(fields, sort_keys=True, default=str)
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:
            pass
    # Straight to the saved descriptor: a candidate that replaces
    # sys.stdout cannot swallow or reword the marker.
    os.write(MARK_FD, ("%s %s\n" % (NONCE, line)).encode())


def probe():
    """What is missing: a list of (subcategory, words), and the facts.

    "no-gpu" is missing only when torch or triton is too: with both, the
    CPU path runs (cpu_mode())."""
    missing = []
    facts = ["python %s at %s" % (sys.version.split()[0], sys.executable)]
    torch = None
    try:
        import torch
        facts.append("torch %s" % torch.__version__)
    except Exception as e:  # ImportError, or a broken install
        torch = None
        missing.append(("no-torch", "torch not installed"))
        facts.append("torch: %s: %s" % (type(e).__name__, e))
    gpu = None
    if torch is not None:
        try:
            if torch.cuda.is_available() and torch.cuda.device_count() > 0:
                gpu = torch.cuda.get_device_name(0)
        except Exception as e:
            facts.append("GPU: %s: %s" % (type(e).__name__, e))
    elif os.path.exists("/dev/nvidiactl"):
        gpu = "an NVIDIA device node (torch missing, not checked)"
    if gpu is None:
        # No GPU: Triton's kernels run in its interpreter.  Set before
        # triton is imported, which reads it then.
        os.environ["TRITON_INTERPRET"] = "1"
    try:
        import triton
        facts.append("triton %s" % triton.__version__)
    except Exception as e:
        missing.append(("no-triton", "triton not installed"))
        facts.append("triton: %s: %s" % (type(e).__name__, e))
    if gpu is None:
        if missing:
            missing.append(("no-gpu", "no GPU"))
        facts.append("GPU: none (torch.cuda.is_available() is false or no"
                     " /dev/nvidia* in the sandbox)")
    else:
        facts.append("GPU %s" % gpu)
    return missing, facts


def cpu_mode():
    """True when there is no GPU: eval checks correctness on the CPU."""
    import torch
    try:
        return not (torch.cuda.is_available() and
                    torch.cuda.device_count() > 0)
    except Exception:
        return True


def cmd_check():
    missing, facts = probe()
    for f in facts:
        say(f)
    if missing:
        say("skipped %s: %s" % (missing[0][0],
                                 ", ".join(w for _, w in missing)))
        return EXIT_SKIP
    if cpu_mode():
        say("no GPU: correctness on the CPU, Triton's kernels in its"
            " interpreter (TRITON_INTERPRET=1); timing skipped")
    say("ok")
    return 0


class GpuShim:
    """While the candidate's code runs on the CPU path: tensors say
    is_cuda, .cuda() keeps a tensor where it is, torch.cuda.synchronize()
    does nothing.  Wrapper code written for the GPU (assert x.is_cuda,
    x.cuda()) then reaches its Triton kernels, which the interpreter runs
    on CPU tensors; an allocation on a "cuda" device still fails, and the
    run is skipped."""

    def __init__(self, torch):
        self.torch = torch
        self.saved = None

    def __enter__(self):
        t = self.torch
        self.saved = (t.Tensor.__dict__.get("is_cuda"),
                      t.Tensor.__dict__.get("cuda"), t.cuda.synchronize)
        t.Tensor.is_cuda = property(lambda self: True)
        t.Tensor.cuda = lambda self, *a, **k: self
        t.cuda.synchronize = lambda *a, **k: None
        return self

    def __exit__(self, *exc):
        t = self.torch
        is_cuda, cuda, sync = self.saved
        for name, v in (("is_cuda", is_cuda), ("cuda", cuda)):
            if v is None:
                try:
                    delattr(t.Tensor, name)
                except AttributeError:
                    pass
            else:
                setattr(t.Tensor, name, v)
        t.cuda.synchronize = sync
        return False


def cuda_only(type_name, message):
    """Why an exception of type_name saying message means that the
    candidate cannot run on the CPU, or None.  The worker's report of its
    exception is its own word: the checker believes it only where its own
    reading of the source agrees (source_needs_gpu())."""
    text = "%s: %s" % (type_name, message)
    for needle in CUDA_ONLY:
        if needle in text:
            return text.splitlines()[0][:300]
    return None


def interp_gap(exc):
    """True when exc is a NotImplementedError raised inside Triton's
    interpreter (worker side; the checker checks the source too)."""
    if not isinstance(exc, NotImplementedError):
        return False
    for fr in traceback.extract_tb(exc.__traceback__):
        if "triton" in fr.filename and "interpreter" in fr.filename:
            return True
    return False


# What in a candidate's text makes it need a GPU, as the checker reads
# it: a device named "cuda", a CUDA API of torch beyond what the CPU
# path stands in for (synchronize, is_available), CUDA C++ or CuPy.
CUDA_SOURCE = re.compile(
    r"""["']cuda(:\d+)?["']|torch\.cuda\.(?!synchronize\b|is_available\b)"""
    r"""[A-Za-z_]|\bcupy\b|numba\.cuda|cpp_extension|load_inline""")
# What Triton's interpreter does not have (NotImplementedError there).
INTERP_SOURCE = re.compile(r"inline_asm|libdevice|extern_elementwise")


def source_needs_gpu(src, type_name, message, gap):
    """The reason the checker skips a candidate whose worker failed with
    type_name: message (gap: inside Triton's interpreter), or None: its
    own reading of the source must find what needs a GPU."""
    why = cuda_only(type_name, message)
    if why is not None and CUDA_SOURCE.search(src):
        return why
    if gap and type_name == "NotImplementedError" and \
            INTERP_SOURCE.search(src):
        return "Triton's interpreter cannot run it: %s" % (
            "%s: %s" % (type_name, message)).splitlines()[0][:300]
    return None


def read_source(cand_path):
    """The candidate's text, as the checker reads it (never run here)."""
    try:
        with open(cand_path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def cpu_skip_source(src):
    """Why the candidate's source cannot run on the CPU, before it runs."""
    for needle, why in (("load_inline", "a CUDA C++ extension"
                         " (torch.utils.cpp_extension.load_inline)"),
                        ("cpp_extension", "a CUDA C++ extension"
                         " (torch.utils.cpp_extension)"),
                        ("import cupy", "CuPy"),
                        ("numba.cuda", "numba.cuda")):
        if needle in src:
            return "the candidate uses %s, which needs a GPU" % why
    return None


def shrink_sizes(mod, cap, batch_cap):
    """Cut the problem's module-level integer sizes (and the integers of
    its tuples and lists of sizes, input_shape = (32768,)) to cap, and
    those named for batches, channels or features to batch_cap: the
    interpreter runs one program instance at a time, and a 5-d pooling
    at 8 in every dimension takes minutes.  Sizes equal before stay equal
    (HingeLoss broadcasts input_shape against batch_size): the cut is by
    value, the smaller cap winning.  Returns what changed."""
    def ints(v):
        if type(v) is int:
            return [v]
        if isinstance(v, (tuple, list)) and v and \
                all(type(x) is int for x in v):
            return list(v)
        return []

    to = {}
    for name, v in vars(mod).items():
        if name.startswith("_"):
            continue
        c = batch_cap if any(w in name.lower() for w in BATCH_WORDS) \
            else cap
        for x in ints(v):
            if x > c:
                to[x] = min(to.get(x, c), c)
    changed = {}
    for name, v in list(vars(mod).items()):
        if name.startswith("_") or not ints(v):
            continue
        if type(v) is int:
            new = to.get(v, v)
        else:
            new = type(v)(to.get(x, x) for x in v)
        if new != v:
            setattr(mod, name, new)
            changed[name] = [v, new]
    return changed


def read_nonce():
    global NONCE, MARK_FD
    MARK_FD = os.dup(1)
    try:
        with open("nonce") as f:
            NONCE = f.read().strip()
    except OSError as e:
        say("no nonce: %s" % e)     # then no marker is believed
        return
    try:
        os.unlink("nonce")
    except OSError as e:
        say("cannot remove the nonce file: %s" % e)


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, os.path.abspath(path))
    mod = importlib.util.module_from_spec(spec)
    # Triton reads the source of @triton.jit functions through their
    # module: it must be a real, registered module of a real file.
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def cand_line(exc, cand_path):
    """The candidate's line closest to where exc was raised, or 0."""
    want = os.path.abspath(cand_path)
    if isinstance(exc, SyntaxError) and exc.filename is not None and \
            os.path.abspath(exc.filename) == want:
        return exc.lineno or 0
    line = 0
    for fr in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(fr.filename) == want:
            line = fr.lineno
    return line


def report_error(phase, exc, cand_path):
    traceback.print_exc()
    sys.stderr.flush()
    msg = str(exc)
    emit("error", phase=phase, type=type(exc).__name__,
         module=type(exc).__module__, message=msg[:4000],
         cand_line=cand_line(exc, cand_path))


def stats(times):
    n = len(times)
    mean = sum(times) / n
    var = sum((t - mean) ** 2 for t in times) / (n - 1) if n > 1 else 0.0
    return {"mean": mean, "std": math.sqrt(var), "min": min(times),
            "max": max(times), "num_trials": n}


def parse_opts(argv):
    """(reference, candidate, options) of eval's arguments, or None."""
    opts = {"--trials": 100, "--correct-trials": 5, "--atol": 1e-4,
            "--rtol": 1e-4, "--cpu-atol": CPU_TOL, "--cpu-rtol": CPU_TOL,
            "--seed": 42}
    if len(argv) < 2:
        say("usage: eval REFERENCE CANDIDATE [options]")
        return None
    rest = argv[2:]
    while rest:
        if len(rest) < 2 or rest[0] not in opts:
            say("bad option %s" % rest[0])
            return None
        kind = type(opts[rest[0]])
        opts[rest[0]] = kind(rest[1])
        rest = rest[2:]
    return argv[0], argv[1], opts


class Tools:
    """What both processes of eval use: the device, seeding, copies."""

    def __init__(self, torch, cpu):
        self.torch = torch
        self.cpu = cpu
        self.dev = torch.device("cpu" if cpu else "cuda:0")
        self.manual_seed = torch.manual_seed
        self.cuda_seed = torch.cuda.manual_seed
        self.sync = torch.cuda.synchronize if not cpu else \
            (lambda *a, **k: None)

    def shim(self):
        import contextlib
        return GpuShim(self.torch) if self.cpu else contextlib.nullcontext()

    def seed(self, s):
        self.manual_seed(s)
        if not self.cpu:
            self.cuda_seed(s)

    def to_dev(self, xs):
        if self.cpu:
            return list(xs)
        return [x.cuda(device=self.dev) if isinstance(x, self.torch.Tensor)
                else x for x in xs]

    def clone(self, xs):
        return [x.clone() if isinstance(x, self.torch.Tensor) else x
                for x in xs]

    def timed(self, model, inputs, trials):
        Event = self.torch.cuda.Event
        with self.torch.no_grad():
            for _ in range(3):
                model(*inputs)
                self.sync(self.dev)
            times = []
            for _ in range(trials):
                start = Event(enable_timing=True)
                end = Event(enable_timing=True)
                start.record()
                model(*inputs)
                end.record()
                self.sync(self.dev)
                times.append(start.elapsed_time(end))
        return stats(times)


def load_reference(ref_path, tl, name=REF_NAME):
    """The task's module, its sizes cut on the CPU, and what changed."""
    ref = load(name, ref_path)
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(ref, name):
            raise AttributeError("the reference defines no %s" % name)
    sizes = shrink_sizes(ref, CPU_SIZE_CAP, CPU_BATCH_CAP) if tl.cpu else {}
    return ref, sizes


def undumpable():
    """PR_SET_DUMPABLE 0: a process of the same user in the sandbox
    cannot open this one's /proc/PID/mem, fd/ or environ (ADR 0020)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(4, 0, 0, 0, 0) != 0:    # PR_SET_DUMPABLE
            say("prctl(PR_SET_DUMPABLE): errno %d" % ctypes.get_errno())
    except Exception as e:
        say("cannot make the checker undumpable: %s" % e)


def cmd_eval(argv):
    """The checker: holds the secret, runs the reference, never runs
    candidate code.  The candidate runs in a worker process (cmd_worker)
    that sends its outputs back; the checker compares them with its own
    and prints the marker lines."""
    parsed = parse_opts(argv)
    if parsed is None:
        return 2
    ref_path, cand_path, opts = parsed
    undumpable()
    read_nonce()
    missing, facts = probe()
    if missing:
        emit("skip", sub=missing[0][0],
             reason=", ".join(w for _, w in missing))
        return EXIT_SKIP

    import subprocess
    import torch
    cpu = cpu_mode()
    src = read_source(cand_path)
    if cpu:
        why = cpu_skip_source(src)
        if why is not None:
            emit("skip", sub="cuda-only", reason=why)
            return EXIT_SKIP
        opts["--atol"] = opts["--cpu-atol"]
        opts["--rtol"] = opts["--cpu-rtol"]
    tl = Tools(torch, cpu)
    allclose = torch.allclose
    n = opts["--correct-trials"]

    # The task's own files: a failure here is the task's, not the
    # candidate's.
    emit("phase", phase="reference")
    try:
        ref, sizes, ref_model, trial_seeds = reference(ref_path, tl, opts)
        if sizes:
            say("on the CPU: sizes cut: %s" % ", ".join(
                "%s %s->%s" % (k, v[0], v[1])
                for k, v in sorted(sizes.items())))
        # The Triton check (ADR 0036): POISONED more trials on inputs of
        # fresh random seeds, at random places among the trials, in which
        # every value a Triton kernel stores is poisoned.  Where there is
        # a GPU, they are made by a worker of their own on the CPU path.
        check_tl = tl if cpu else Tools(torch, True)
        if cpu:
            check = (ref, ref_model)
        else:
            cref, _, cmodel, _ = reference(ref_path, check_tl, opts,
                                           REF_NAME + "_cpu")
            check = (cref, cmodel)
        plan = poison_plan(trial_seeds)
        ref_outs = outputs(tl, ref, ref_model, trial_seeds)
        check_outs = outputs(check_tl, check[0], check[1],
                             [s for s, _ in plan])
        ref_stats = None
        if not cpu:
            tl.seed(opts["--seed"])
            ref_stats = tl.timed(ref_model, tl.to_dev(ref.get_inputs()),
                                 opts["--trials"])
    except Exception as e:
        traceback.print_exc()
        emit("defect", message="%s: %s" % (type(e).__name__, e))
        return 1

    base = {"seed": opts["--seed"], "trials": opts["--trials"]}
    if cpu:
        cfg = dict(base, cpu=True, seeds=[s for s, _ in plan],
                   poison=[p for _, p in plan])
    else:
        cfg = dict(base, cpu=False, seeds=trial_seeds, poison=[])
    phases = ("load", "init", "correctness", "timing")
    got, status, bad = run_worker(ref_path, cand_path, cfg)
    reached = phase_of(got)
    for p in phases:
        emit("phase", phase=p)
        if p == reached:
            break
    if bad is not None:
        emit("fail", phase=reached, sub="bad-reply", message=bad)
        return 1
    outs = got.get("outs") if got is not None else None
    if not (isinstance(outs, list) and len(outs) == len(cfg["seeds"])):
        return worker_failed(got, status, src, cpu)
    checked = None
    if cpu:
        checked = outs
        outs = [o for o, (_, p) in zip(outs, plan) if not p]
    for i, ref_out in enumerate(ref_outs):
        o = outs[i]
        if type(o) is not torch.Tensor:
            emit("fail", phase="correctness", sub="not-a-tensor",
                 trial=i + 1, message="ModelNew returned %s, not a tensor"
                 % type(o).__name__)
            return 1
        if tuple(o.shape) != tuple(ref_out.shape):
            emit("fail", phase="correctness", sub="shape-mismatch",
                 trial=i + 1, message="output shape %s, want %s" % (
                     list(o.shape), list(ref_out.shape)))
            return 1
    if not cpu:
        say("the Triton check on the CPU: the candidate at cut sizes in"
            " Triton's interpreter")
        cfg = dict(base, cpu=True, seeds=[s for s, _ in plan],
                   poison=[p for _, p in plan])
        cgot, _, cbad = run_worker(ref_path, cand_path, cfg)
        checked = cgot.get("outs") if cgot is not None and cbad is None \
            else None
        if not (isinstance(checked, list) and len(checked) == len(plan)):
            checked = None
            say("the Triton check was not made: the candidate does not run"
                " on the CPU path")
    changed = None
    traced = None
    if checked is not None:
        changed = triton_changed(plan, checked, check_outs, opts,
                                 check_tl.dev)
        traced = triton_traced(plan, (got if cpu else cgot)
                               .get("tainted"))
    if changed is not None and changed < POISONED:
        emit("fail", phase="correctness", sub="no-triton-kernel",
             trials=POISONED, message="no Triton kernel computes the"
             " output: with every value its Triton kernels store poisoned,"
             " %d of %d outputs are still right (the task asks for"
             " forward to run Triton kernels)" % (POISONED - changed,
                                                  POISONED))
        return 1
    passed = 0
    first_bad = None
    max_diff = 0.0
    for i, ref_out in enumerate(ref_outs):
        new_cmp = outs[i].to(device=tl.dev, dtype=ref_out.dtype)
        diff = (new_cmp - ref_out).abs()
        d = float(diff.max().item()) if diff.numel() else 0.0
        ok = bool(allclose(ref_out, new_cmp, atol=opts["--atol"],
                           rtol=opts["--rtol"]))
        if math.isnan(d) or d > max_diff:
            max_diff = d
        if ok:
            passed += 1
        elif first_bad is None:
            first_bad = (i + 1, d)
        say("correctness trial %d: %s (max abs diff %.3g)" % (
            i + 1, "match" if ok else "MISMATCH", d))
    where = ""
    if cpu:
        where = " on the CPU (Triton's interpreter%s)" % (
            "; sizes cut: " + ", ".join("%s %s->%s" % (k, v[0], v[1])
                                        for k, v in sorted(sizes.items()))
            if sizes else "")
    if passed < n:
        emit("fail", phase="correctness", sub="mismatch",
             correct_trials=passed, trials=n, trial=first_bad[0],
             max_abs_diff=first_bad[1],
             message="output differs from the reference in %d of %d"
             " trials (trial %d: max abs diff %.3g, atol = rtol = %g)%s" % (
                 n - passed, n, first_bad[0], first_bad[1], opts["--atol"],
                 where))
        return 1
    # Right answers only, as with the poison: a wrong one is a mismatch
    # whether or not Triton computed it.
    if traced is not None and traced[0] < traced[1]:
        emit("fail", phase="correctness", sub="no-triton-kernel",
             trials=traced[1], message="no Triton kernel computes the"
             " output: in %d of %d trials the output is neither stored by"
             " a Triton kernel nor computed by PyTorch from what one stored"
             " (the task asks for forward to run Triton kernels)" % (
                 traced[1] - traced[0], traced[1]))
        return 1
    if cpu:
        # No GPU: no timing to report, and none is made up.
        say("correct%s in %d of %d trials; timing skipped: no GPU" % (
            where, passed, n))
        emit("result", device="cpu", correct_trials=passed, trials=n,
             max_abs_diff=max_diff, atol=opts["--atol"],
             rtol=opts["--rtol"], sizes=sizes, triton_changed=changed,
             triton_poisoned=POISONED, where=where.strip(),
             timing="skipped: no GPU",
             torch=torch.__version__)
        return 0
    new_stats = got.get("stats")
    if not isinstance(new_stats, dict) or not isinstance(
            new_stats.get("mean"), float):
        say("the worker sent no timing")
        return 1
    # The candidate's times are measured in its own process: reported,
    # and a speedup over 10x is flagged for review by the env.
    speedup = ref_stats["mean"] / new_stats["mean"] \
        if new_stats["mean"] > 0 else float("inf")
    hw = torch.cuda.get_device_name(tl.dev)
    say("%.4f ms against %.4f ms for the reference: speedup %.2fx on %s" % (
        new_stats["mean"], ref_stats["mean"], speedup, hw))
    emit("result", correct_trials=passed, trials=n, max_abs_diff=max_diff,
         runtime_ms=new_stats["mean"], ref_runtime_ms=ref_stats["mean"],
         speedup=speedup, runtime_stats=new_stats,
         ref_runtime_stats=ref_stats, hardware=hw, triton_changed=changed,
         triton_poisoned=POISONED, torch=torch.__version__)
    return 0


def reference(ref_path, tl, opts, name=REF_NAME):
    """The task's module (sizes cut on the CPU), what was cut, its Model
    built under the seed, and the correctness trials' seeds drawn from
    it as KernelBench draws them."""
    import torch
    ref, sizes = load_reference(ref_path, tl, name)
    init_inputs = tl.to_dev(ref.get_init_inputs())
    with torch.no_grad():
        tl.seed(opts["--seed"])
        model = ref.Model(*tl.clone(init_inputs)).to(tl.dev)
    tl.seed(opts["--seed"])
    seeds = [int(torch.randint(0, 2 ** 32 - 1, (1,)).item())
             for _ in range(opts["--correct-trials"])]
    return ref, sizes, model, seeds


def outputs(tl, ref, model, seeds):
    """model's outputs on ref.get_inputs() under each of seeds."""
    import torch
    outs = []
    for s in seeds:
        tl.seed(s)
        inputs = tl.to_dev(ref.get_inputs())
        with torch.no_grad():
            outs.append(model(*inputs))
        tl.sync(tl.dev)
    return outs


def poison_plan(seeds):
    """The trials of the CPU path: (seed, poisoned) for each correctness
    trial in its order, and POISONED more on fresh random seeds at random
    places among them (os.urandom: nothing the candidate can predict from
    the public seed)."""
    import random
    rng = random.SystemRandom()
    plan = [(s, False) for s in seeds]
    for _ in range(POISONED):
        plan.insert(rng.randrange(len(plan) + 1),
                    (rng.randrange(2 ** 32 - 1), True))
    return plan


def triton_changed(plan, outs, ref_outs, opts, dev):
    """How many of the poisoned trials' outputs are not right (not the
    reference's at the judge's tolerance, or none at all).  Compared
    with the reference, not with another run of the candidate's: a
    candidate that moves its output between runs gains nothing."""
    import torch
    changed = 0
    for (_, poisoned), o, r in zip(plan, outs, ref_outs):
        if not poisoned:
            continue
        right = type(o) is torch.Tensor and tuple(o.shape) == \
            tuple(r.shape) and bool(torch.allclose(
                r, o.to(device=dev, dtype=r.dtype), atol=opts["--atol"],
                rtol=opts["--rtol"]))
        changed += not right
    say("poisoned trials whose output is not right: %d of %d" % (
        changed, POISONED))
    return changed


def triton_traced(plan, tainted):
    """(trials whose output Triton wrote or PyTorch computed from what it
    wrote, trials) over the unpoisoned trials, from the worker's trace;
    None when the worker could not trace.  The worker's word, believed
    where the candidate loses: a trace that says no."""
    if tainted is None:
        say("the Triton trace was not made: the worker could not trace"
            " its stores")
        return None
    if not (isinstance(tainted, list) and len(tainted) == len(plan)):
        return (0, sum(1 for _, p in plan if not p))
    got = [t for t, (_, p) in zip(tainted, plan) if not p]
    yes = sum(1 for t in got if t is True)
    say("trials whose output Triton wrote (or PyTorch computed from what"
        " it wrote): %d of %d" % (yes, len(got)))
    return (yes, len(got))


def run_worker(ref_path, cand_path, cfg):
    """Run the candidate in a worker and read its reply: (the dict or None, exit status, why the reply is not
    one the worker writes or None).  Its configuration goes through its
    stdin, not its command line; its stdout goes to our stderr (not the
    marker channel); the reply comes on a pipe of its own, one frame: an
    8-byte big-endian length and that many bytes of torch.save, loaded
    with weights_only.  Bytes before, after or instead of one frame are
    the candidate's own writing (bad)."""
    import io
    import subprocess
    import torch
    cin, cout = os.pipe()
    rfd, wfd = os.pipe()
    try:
        worker = subprocess.Popen(
            [sys.executable, "-I", "-B", os.path.abspath(__file__),
             "worker", ref_path, cand_path],
            stdin=cin, stdout=2, stderr=2, pass_fds=(wfd,), close_fds=True)
    except OSError as e:
        os.close(cin)
        os.close(cout)
        os.close(rfd)
        os.close(wfd)
        emit("defect", message="cannot start the worker: %s" % e)
        sys.exit(1)
    os.close(cin)
    os.close(wfd)
    conf = dict(cfg, fd=wfd)
    try:
        os.write(cout, (json.dumps(conf) + "\n").encode())
    except OSError:
        pass
    os.close(cout)
    data = bytearray()
    with os.fdopen(rfd, "rb") as f:
        while len(data) <= REPLY_MAX:
            c = f.read(1 << 20)
            if not c:
                break
            data += c
    status = worker.wait()
    if not data:
        return None, status, None
    if len(data) < 8:
        return None, status, "the candidate's process sent %d bytes, not" \
            " a reply the worker writes" % len(data)
    size = struct.unpack(">Q", bytes(data[:8]))[0]
    if size != len(data) - 8:
        return None, status, "the candidate's process sent %d bytes on" \
            " the results pipe, not the one reply the worker writes (the" \
            " candidate wrote on it)" % len(data)
    try:
        got = torch.load(io.BytesIO(bytes(data[8:])), weights_only=True)
    except Exception as e:
        return None, status, "the reply does not read: %s: %s" % (
            type(e).__name__, str(e).splitlines()[0][:200] if str(e)
            else "")
    if not isinstance(got, dict):
        return None, status, "the reply is a %s, not the worker's" \
            % type(got).__name__
    return got, status, None


def phase_of(got):
    """The phase a worker's reply names, if it is one of eval's."""
    p = got.get("phase") if got is not None else None
    return p if p in ("load", "init", "correctness", "timing") else "load"


def worker_failed(got, status, src, cpu):
    """The marker for a worker that sent no outputs: its report is its
    own word, believed only where the candidate loses.  A skip is the
    checker's: the worker's exception must say CUDA (or Triton's
    interpreter) and the checker's reading of the source must agree."""
    ev = got.get("event") if got is not None else None
    if ev == "error":
        tn = str(got.get("type", "Exception"))[:100]
        msg = str(got.get("message", ""))[:4000]
        line = got.get("cand_line") if type(got.get("cand_line")) is int \
            else 0
        why = source_needs_gpu(src, tn, msg, got.get("gap") is True) \
            if cpu else None
        if why is not None:
            emit("skip", sub="cuda-only", phase=phase_of(got),
                 cand_line=line,
                 reason="the candidate cannot run without a GPU: %s" % why)
            return EXIT_SKIP
        emit("error", phase=phase_of(got), type=tn,
             module=str(got.get("module", ""))[:200], message=msg,
             cand_line=line)
        return 1
    if ev == "fail" and got.get("sub") in ("missing-modelnew",
                                           "not-a-tensor"):
        sub = got.get("sub")
        if sub == "missing-modelnew" and re.search(r"\bModelNew\b", src):
            emit("fail", phase="load", sub="bad-reply", message="the"
                 " candidate's process says it has no ModelNew, which its"
                 " source names")
            return 1
        emit("fail", phase=phase_of(got), sub=sub,
             message=str(got.get("message", ""))[:4000])
        return 1
    if got is not None:
        emit("fail", phase=phase_of(got), sub="bad-reply",
             message="the candidate's process sent a reply the worker never"
             " writes")
        return 1
    say("the candidate's process ended without results (status %d)"
        % status)
    return status if status > 0 else 128 - status if status < 0 else 1


def poison_stores():
    """Make every value a Triton kernel stores in the interpreter (plain,
    masked, atomic, through a descriptor) NaN, or its bitwise complement
    for integers, while POISON[0] is true: an output a kernel computes
    cannot come out right.  Installed in every CPU-path worker, set only
    for the poisoned trials."""
    import numpy as np
    from triton.runtime import interpreter as ti

    def bad(h):
        if not POISON[0]:
            return h
        d = h.data
        if d.dtype.kind == "f":
            v = np.full_like(d, np.nan)
        elif d.dtype == np.uint16 and "bf16" in str(h.dtype):
            v = np.full_like(d, 0x7fc0)
        elif d.dtype.kind == "b":
            v = ~d
        else:
            v = np.invert(d)
        return ti.TensorHandle(v, h.dtype)

    def at(ptrs, mask):
        # The addresses a store writes (the taint's, below).
        try:
            a = np.asarray(ptrs.data).reshape(-1)
            if mask is not None:
                a = a[np.broadcast_to(np.asarray(mask.data, dtype=bool),
                                      np.shape(ptrs.data)).reshape(-1)]
            STORED.append(a.astype(np.uint64))
        except Exception:
            STORED.append(None)     # unknown: every argument counts

    def rec_store(self, ptrs, value, mask, cp):
        at(ptrs, mask)
        return store(self, ptrs, bad(value), mask, cp)

    def rec_rmw(self, op, ptr, val, mask, sem, scope):
        at(ptr, mask)
        return rmw(self, op, ptr, bad(val), mask, sem, scope)

    def rec_cas(self, ptr, cmp, val, sem, scope):
        at(ptr, None)
        return cas(self, ptr, cmp, bad(val), sem, scope)

    B = ti.InterpreterBuilder
    store, rmw, cas = (B.create_masked_store, B.create_atomic_rmw,
                       B.create_atomic_cas)
    B.create_masked_store = rec_store
    B.create_atomic_rmw = rec_rmw
    B.create_atomic_cas = rec_cas
    if hasattr(B, "create_descriptor_store"):
        dstore = B.create_descriptor_store

        def rec_dstore(self, desc, value, idx):
            STORED.append(None)     # a descriptor's base: its argument
            return dstore(self, desc, bad(value), idx)
        B.create_descriptor_store = rec_dstore
    trace_launches(ti, np)


def storage_of(t):
    """t's storage and its first address, or (None, None)."""
    try:
        st = t.untyped_storage()
        return st, st.data_ptr()
    except Exception:
        return None, None


def trace_launches(ti, np):
    """After each launch in the interpreter, every tensor argument whose
    storage holds an address the launch stored to is Triton's (TAINT,
    which keeps the storage alive for the trial, so that its memory
    cannot come back to a tensor Triton never wrote)."""
    import torch
    call = ti.GridExecutor.__call__

    def tensors(v):
        if isinstance(v, torch.Tensor):
            yield v
        elif isinstance(v, (tuple, list)):
            for x in v:
                yield from tensors(x)
        elif hasattr(v, "base") and isinstance(getattr(v, "base"),
                                               torch.Tensor):
            yield v.base    # a TensorDescriptor

    def traced(self, *args, **kwargs):
        del STORED[:]
        try:
            return call(self, *args, **kwargs)
        finally:
            got = list(STORED)
            del STORED[:]
            if got:
                every = any(a is None for a in got)
                addrs = np.concatenate([a for a in got if a is not None]) \
                    if not every else None
                for t in tensors(list(args) + list(kwargs.values())):
                    st, lo = storage_of(t)
                    if st is None:
                        continue
                    hi = lo + st.nbytes()
                    if every or bool(np.any((addrs >= lo) &
                                            (addrs < hi))):
                        TAINT[lo] = st
    ti.GridExecutor.__call__ = traced


def taint_mode():
    """A dispatch mode that carries the taint through PyTorch: an op with
    an input in a storage Triton wrote makes its outputs Triton's too.
    So an output that Triton stored, or that PyTorch computed from what
    Triton stored (a bias added after a Triton matmul, a view, a sum),
    is Triton's; plain PyTorch beside a kernel that ran on something
    else is not (ADR 0036: the poisoned trials cannot tell it when the
    candidate watches a kernel of its own for the poison)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten

    class Taint(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if TAINT:
                ins = [t for t in tree_flatten((args, kwargs))[0]
                       if isinstance(t, torch.Tensor)]
                if any(storage_of(t)[1] in TAINT for t in ins):
                    # Its outputs, which hold what an op writes in place
                    # or through out= (aten returns those arguments).
                    for t in tree_flatten(out)[0]:
                        if isinstance(t, torch.Tensor):
                            st, lo = storage_of(t)
                            if st is not None:
                                TAINT[lo] = st
            return out

    return Taint()


def cmd_worker(argv):
    """The candidate's process: no secret, no marker channel.  Reads its
    configuration from stdin, builds ModelNew as the checker built Model,
    runs it on the inputs of the checker's seeds and writes one frame
    (run_worker()) to the descriptor it names: {"phase", "outs"} or
    {"phase", "event", ...}, and "stats" on a GPU."""
    cfg = json.loads(sys.stdin.readline())
    os.close(0)
    os.open(os.devnull, os.O_RDONLY)
    if cfg["cpu"]:
        # The CPU path, also for the Triton check on a GPU: set before
        # triton is imported, which reads it then.
        os.environ["TRITON_INTERPRET"] = "1"
    import io
    import torch
    ref_path, cand_path, out = argv[0], argv[1], int(cfg["fd"])
    cpu = bool(cfg["cpu"])
    tl = Tools(torch, cpu)
    state = {"phase": "load"}

    def send(**fields):
        state.update(fields)
        buf = io.BytesIO()
        torch.save(state, buf)
        data = buf.getvalue()
        with os.fdopen(out, "wb") as f:
            f.write(struct.pack(">Q", len(data)) + data)
        return 0

    def failed(phase, e):
        traceback.print_exc()
        return send(event="error", phase=phase, type=type(e).__name__,
                    module=type(e).__module__, message=str(e)[:4000],
                    cand_line=cand_line(e, cand_path),
                    gap=interp_gap(e))

    traced = None
    if cpu:
        try:
            poison_stores()
            traced = taint_mode()
        except Exception as e:
            say("cannot poison or trace Triton's stores: %s" % e)
    try:
        ref, _ = load_reference(ref_path, tl)
        init_inputs = tl.to_dev(ref.get_init_inputs())
    except BaseException as e:
        return failed("load", e)
    try:
        with tl.shim():
            cand = load(CAND_NAME, cand_path)
    except BaseException as e:
        return failed("load", e)
    model_new = getattr(cand, "ModelNew", None)
    if model_new is None or not callable(model_new):
        return send(event="fail", sub="missing-modelnew",
                    message="the candidate defines no ModelNew class")
    state["phase"] = "init"
    try:
        with torch.no_grad(), tl.shim():
            tl.seed(cfg["seed"])
            new_model = model_new(*tl.clone(init_inputs))
            if isinstance(new_model, torch.nn.Module):
                new_model = new_model.to(tl.dev)
        tl.sync(tl.dev)
    except BaseException as e:
        return failed("init", e)
    state["phase"] = "correctness"
    outs = []
    tainted = [] if traced is not None else None
    poison = cfg.get("poison") or []
    for i, s in enumerate(cfg["seeds"]):
        tl.seed(s)
        inputs = tl.to_dev(ref.get_inputs())
        POISON[0] = i < len(poison) and poison[i] is True
        TAINT.clear()
        try:
            with torch.no_grad(), tl.shim():
                if traced is not None:
                    with traced:
                        o = new_model(*inputs)
                else:
                    o = new_model(*inputs)
            tl.sync(tl.dev)
        except Exception as e:
            if not POISON[0]:
                return failed("correctness", e)
            o = None    # poisoned values may well make it fail
        finally:
            poisoned, POISON[0] = POISON[0], False
        if tainted is not None:
            # Did Triton write the output, or PyTorch compute it from
            # what Triton wrote?
            tainted.append(isinstance(o, torch.Tensor) and
                           storage_of(o)[1] in TAINT)
        TAINT.clear()
        if poisoned:
            outs.append(o.detach().cpu().contiguous().clone()
                        .as_subclass(torch.Tensor)
                        if isinstance(o, torch.Tensor) else None)
            continue
        if not isinstance(o, torch.Tensor):
            return send(event="fail", sub="not-a-tensor", message="ModelNew"
                        " returned %s, not a tensor" % type(o).__name__)
        outs.append(o.detach().cpu().contiguous().clone()
                    .as_subclass(torch.Tensor))
    stats_ = None
    if not cpu:
        state["phase"] = "timing"
        tl.seed(cfg["seed"])
        try:
            stats_ = tl.timed(new_model, tl.to_dev(ref.get_inputs()),
                              cfg["trials"])
        except BaseException as e:
            return failed("timing", e)
    return send(outs=outs, tainted=tainted, stats=stats_)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        return cmd_check()
    if len(sys.argv) >= 2 and sys.argv[1] == "eval":
        return cmd_eval(sys.argv[2:])
    if len(sys.argv) >= 2 and sys.argv[1] == "worker":
        return cmd_worker(sys.argv[2:])
    say("usage: kb_harness.py check | eval REFERENCE CANDIDATE [options]")
    return 2


if __name__ == "__main__":
    sys.exit(main())
