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
the problem file sets as module-level integers are cut by value to the
first cut of CPU_CUTS at which the reference runs (the interpreter runs
each program instance in numpy), the outputs are compared with
KernelBench's tolerance CPU_TOL, and nothing is timed.  A failure the
CPU path causes is a skip, never the candidate's failure: a reference
that runs at no cut (sizes), a reference or candidate that needs a GPU
(gpu-only, cuda-only), a known limit of Triton's interpreter that the
worker cannot work around (interpreter-limit); the limits it can work
around (bf16 arithmetic, int masks, @triton.autotune, libdevice) are
fixed in the worker before the candidate loads (interp_fixes()).
While the candidate's code runs, tensors say is_cuda and .cuda() keeps a
tensor where it is, so that wrapper code written for the GPU reaches its
kernels.

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
output path by the checker (ADR 0048): the worker records what forward
did (ATen ops, Triton launches), and the checker replays REPLAYED trials
it draws after the run, the kernels (their source, proved to be Triton
by Triton's frontend) run by a launcher process on its copies,
once as recorded (which must give the candidate's output) and once with
every value a Triton store wrote randomized (whose output must not be
right); else the candidate fails as api/no-triton-kernel.  The
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
# The cuts of the problem's module-level sizes on the CPU, tried in turn
# until the reference runs: (the cap of a size, the cap of a batch,
# channel or feature count).  A value with several roles takes the
# larger cap.
CPU_CUTS = ((8, 2), (16, 4), (32, 8), (64, 16))
BATCH_WORDS = ("batch", "channel", "feature")
# Sizes that are an operator's parameter, never cut: a kernel of 11 cut to
# 8 is another problem.
KEEP_WORDS = ("kernel", "stride", "pad", "dilation", "group", "window",
              "pool")
# What the CUDA runtime, torch and Triton say where there is no GPU: a
# candidate that hits one of these cannot run on the CPU.
CUDA_ONLY = ("Found no NVIDIA driver", "NVIDIA driver", "No CUDA GPUs are available",
             "Torch not compiled with CUDA", "CUDA driver",
             "no CUDA-capable device", "Cannot access accelerator device",
             "CUDA error", "cudaGetDeviceCount", "Expected all tensors to be"
             " on the same device", "CUDA_HOME", "nvcc")
# Exceptions of the reference that no size can cause: the task's at once,
# without trying a larger cut.
SIZE_FREE = ("NameError", "AttributeError", "ImportError",
             "ModuleNotFoundError", "SyntaxError", "IndentationError",
             "TypeError", "NotImplementedError", "KeyError")
NONCE = ""
MARK_FD = 1     # a copy of stdout taken before the candidate runs
REPLY_MAX = 1 << 34     # the most bytes a worker's reply may take
REPLAYED = 2            # trials the checker replays (ADR 0048)
CUT = {}                # the checker's: the sizes cut on the CPU path
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
    """A marker line for the judge (eval stage only).  On the CPU path a
    verdict's marker names the sizes the problem was cut to (CUT)."""
    fields = clean(dict(fields))
    if CUT and event in ("skip", "error", "fail") and "sizes" not in fields:
        fields["sizes"] = dict(CUT)
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


def code_text(src):
    """src without its comments (tokenize), so that a word in a comment
    is not read as code; src itself when it does not tokenize."""
    import io
    import tokenize
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(src).readline)
                if t.type != tokenize.COMMENT]
        return tokenize.untokenize(toks)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return src


# What in a candidate's text makes it need a GPU, as the checker reads
# it: a device named "cuda", a CUDA API of torch beyond what the CPU
# path stands in for (synchronize, is_available), CUDA C++ or CuPy.
CUDA_SOURCE = re.compile(
    r"""["']cuda(:\d+)?["']|torch\.cuda\.(?!synchronize\b|is_available\b)"""
    r"""[A-Za-z_]|\bcupy\b|numba\.cuda|cpp_extension|load_inline""")
# Triton's own GPU queries (the driver's device properties, its
# benchmarker), which say "0 active drivers" without one.
DRIVER_SOURCE = re.compile(r"\bdriver\.active\b|\bdo_bench(_cudagraph)?\(")
# The same for the task's reference, which runs without the shim: also
# .cuda() and .to("cuda").
REF_CUDA_SOURCE = re.compile(CUDA_SOURCE.pattern + r"|\.cuda\(")
# A test of a tensor's device that the shim cannot answer as a GPU would
# (it answers is_cuda): the device's type, a comparison of devices,
# is_cpu, get_device().
DEVICE_TEST = re.compile(
    r"""\.device\.type\b|\.device\s*[!=]=|[!=]=\s*[\w.]+\.device\b|"""
    r"""\bis_cpu\b|\.get_device\(\s*\)|\bstr\(\s*[\w.]+\.device\s*\)""")
# Known limits of Triton's interpreter that the worker does not work
# around (docs/envs/triton.md, "Interpreter limits"): the limit's name,
# the exception it raises (its exact text, as type: message, possibly
# wrapped in InterpreterError) and what the candidate's code must call.
# The limits it works around (interp_fixes()) are not here: their
# message comes only from a candidate that undid the fix, and must not
# skip it.
INTERP_LIMITS = (
    ("inline-asm", re.compile(r"NotImplementedError.*inline_asm not"
                              r" supported in interpreter mode"),
     re.compile(r"\binline_asm(_elementwise)?\s*\(")),
)
# A libdevice function LIBDEVICE lacks (interp_fixes()): the symbol.
LIBDEVICE_GAP = re.compile(r"NotImplementedError.*extern function __nv_(\w+)"
                           r" has no interpreter implementation")


def interp_limit(code, type_name, message):
    """The known interpreter limit (name, why) that an exception of
    type_name saying message is, when code (comment-free) uses what
    hits it; else None."""
    text = "%s: %s" % (type_name, message)
    why = "Triton's interpreter cannot run it (interpreter limit %s): " + \
        text.splitlines()[0][:300]
    for name, says, uses in INTERP_LIMITS:
        if says.search(text) and uses.search(code):
            return name, why % name
    # A function the table lacks, which the code calls by its name: a
    # candidate that raises the message itself gains nothing it could
    # not get by calling the function.
    m = LIBDEVICE_GAP.search(text)
    if m and libdevice_name(m.group(1)) is None:
        base = re.sub(r"f$", "", m.group(1))
        if re.search(r"\b(%s|%s)\s*\(" % (re.escape(m.group(1)),
                                         re.escape(base)), code) and \
                re.search(r"\blibdevice\b", code):
            return "libdevice", why % "libdevice"
    return None


def device_check(src, line):
    """The text of the candidate's line when it (an assert or a raise)
    or one of the two before it tests the device in a way the CPU path
    cannot pass, else None."""
    lines = src.splitlines()
    if not 1 <= line <= len(lines):
        return None
    here = lines[line - 1].strip()
    if not re.match(r"(assert|raise)\b", here):
        return None
    window = code_text("\n".join(l.strip() for l in
                                 lines[max(0, line - 3):line]) + "\n")
    return here[:200] if DEVICE_TEST.search(window) else None


def device_branch(src):
    """(line, text) of the first test of the device in the candidate's
    code that the CPU path cannot pass, or None."""
    code = code_text(src)
    for i, l in enumerate(code.splitlines()):
        if DEVICE_TEST.search(l) or "torch.cuda.is_available()" in l:
            return i + 1, l.strip()[:200]
    return None


def source_needs_gpu(src, type_name, message, line):
    """(subcategory, reason) when the checker skips a candidate whose
    worker failed with type_name: message on the candidate's line, or
    None.  Its own reading of the source must find what needs a GPU (or
    hits a known limit of the interpreter): the worker's report alone
    never makes a skip (ADR 0036)."""
    code = code_text(src)
    why = cuda_only(type_name, message)
    if why is not None and CUDA_SOURCE.search(code):
        return "cuda-only", "the candidate cannot run without a GPU: " + why
    if "0 active drivers" in message and DRIVER_SOURCE.search(code):
        return "cuda-only", "the candidate cannot run without a GPU: it" \
            " asks Triton's driver: %s: %s" % (
                type_name, message.splitlines()[0][:200])
    lim = interp_limit(code, type_name, message)
    if lim is not None:
        return "interpreter-limit", lim[1]
    test = device_check(src, line)
    if test is not None:
        return "cuda-only", "the candidate cannot run without a GPU: it" \
            " requires a CUDA device (line %d: %s): %s" % (
                line, test, ("%s: %s" % (type_name, message))
                .splitlines()[0][:200])
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
    src = code_text(src)
    for needle, why in (("load_inline", "a CUDA C++ extension"
                         " (torch.utils.cpp_extension.load_inline)"),
                        ("cpp_extension", "a CUDA C++ extension"
                         " (torch.utils.cpp_extension)"),
                        ("import cupy", "CuPy"),
                        ("numba.cuda", "numba.cuda")):
        if needle in src:
            return "the candidate uses %s, which needs a GPU" % why
    return None


def size_ints(v):
    """The integers of a module-level size: an int, or a tuple or list
    of ints (input_shape = (32768,)); [] for anything else."""
    if type(v) is int:
        return [v]
    if isinstance(v, (tuple, list)) and v and all(type(x) is int for x in v):
        return list(v)
    return []


def shrink_sizes(mod, cap, batch_cap):
    """Cut the problem's module-level integer sizes (and the integers of
    its tuples and lists of sizes) to cap, and those named for batches,
    channels or features to batch_cap: the interpreter runs one program
    instance at a time, and a 5-d pooling at 8 in every dimension takes
    minutes.  The cut is by value, so sizes equal before stay equal
    (HingeLoss broadcasts input_shape against batch_size); a value with
    several roles takes the larger cap (batch_size = height = width =
    128 is a spatial size too, and a 3x3 convolution needs more than 2),
    and an operator's parameter (kernel_size, stride, padding, groups:
    KEEP_WORDS) is never cut, nor a value it shares.
    Returns what changed: name -> [old, new]."""
    keep = {}
    for name, v in vars(mod).items():
        if name.startswith("_"):
            continue
        low = name.lower()
        c = math.inf if any(w in low for w in KEEP_WORDS) else \
            batch_cap if any(w in low for w in BATCH_WORDS) else cap
        for x in size_ints(v):
            keep[x] = max(keep.get(x, 0), c)
    to = {x: c for x, c in keep.items() if x > c}
    changed = {}
    for name, v in list(vars(mod).items()):
        if name.startswith("_") or not size_ints(v):
            continue
        if type(v) is int:
            new = to.get(v, v)
        else:
            new = type(v)(to.get(x, x) for x in v)
        if new != v:
            setattr(mod, name, new)
            changed[name] = [v, new]
    return changed


def apply_sizes(mod, sizes):
    """Set the sizes the checker chose (name -> [old, new]) in the
    worker's copy of the problem: the same cut, not one of its own."""
    for name, (old, new) in sizes.items():
        cur = getattr(mod, name, None)
        if size_ints(cur) != size_ints(old) or \
                len(size_ints(new)) != len(size_ints(cur)):
            raise ValueError("the problem's %s is %r, not %r" % (
                name, cur, old))
        setattr(mod, name, new if type(cur) is int else type(cur)(new))


def sizes_text(sizes):
    """"batch_size 128->8, height 128->8": the cut, for the evidence."""
    return ", ".join("%s %s->%s" % (k, v[0], v[1])
                     for k, v in sorted(sizes.items()))


def checker_start():
    """A checker's first steps (eval, tbeval): undumpable, the run's
    secret read, the toolchain probed; EXIT_SKIP after the skip marker
    when torch, Triton or what the path needs is missing, else None."""
    undumpable()
    read_nonce()
    missing, _ = probe()
    if missing:
        emit("skip", sub=missing[0][0],
             reason=", ".join(w for _, w in missing))
        return EXIT_SKIP
    return None


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


def load_reference(ref_path, tl, name=REF_NAME, cut=None, sizes=None):
    """The task's module and what changed in it: its sizes cut by cut
    (size cap, batch cap), or set to sizes (the checker's choice, in the
    worker), or neither (the GPU path)."""
    ref = load(name, ref_path)
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(ref, name):
            raise AttributeError("the reference defines no %s" % name)
    if sizes:
        apply_sizes(ref, sizes)
        return ref, dict(sizes)
    return ref, shrink_sizes(ref, cut[0], cut[1]) if cut else {}


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
    if checker_start() is not None:
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
    isclose = torch.isclose
    n = opts["--correct-trials"]

    # The task's own files: a failure here is the task's, not the
    # candidate's, and on the CPU path it may be the path's (a skip).
    emit("phase", phase="reference")
    seeds = trial_seeds(tl, opts)
    # The Triton check (ADR 0048): REPLAYED trials, drawn after the
    # reference ran (os.urandom), replayed from the worker's trace in
    # this process.  Where there is a GPU, the trace is made by a worker
    # of its own on the CPU path.
    chosen = replay_choice(n)
    check_tl = tl if cpu else Tools(torch, True)
    check_sizes = None
    check_outs = None
    ref_stats = None
    try:
        if cpu:
            ref, sizes, ref_model, check_outs = cut_reference(
                ref_path, tl, opts, seeds, REF_NAME)
            ref_outs = check_outs
            check_sizes = sizes
            CUT.update(sizes)
            if sizes:
                say("on the CPU: sizes cut: %s" % sizes_text(sizes))
        else:
            ref, sizes = load_reference(ref_path, tl)
            ref_model = build_model(ref, tl, opts)
            ref_outs = outputs(tl, ref, ref_model, seeds)
            tl.seed(opts["--seed"])
            ref_stats = tl.timed(ref_model, tl.to_dev(ref.get_inputs()),
                                 opts["--trials"])
    except Exception as e:
        return reference_failed(e, ref_path, cpu)
    if not cpu:
        try:
            _, check_sizes, _, check_outs = cut_reference(
                ref_path, check_tl, opts, seeds, REF_NAME + "_cpu")
        except Exception as e:
            say("the Triton check cannot be made: the reference does not"
                " run on the CPU path: %s: %s" % (type(e).__name__, str(e)
                                                  .splitlines()[0][:200]))

    base = {"seed": opts["--seed"], "trials": opts["--trials"]}
    if cpu:
        cfg = dict(base, cpu=True, seeds=seeds, sizes=check_sizes)
    else:
        cfg = dict(base, cpu=False, seeds=seeds, sizes={})
    phases = ("load", "init", "correctness", "timing")
    # The candidate's phase as its worker goes: a timeout names it.
    emit("phase", phase="load")
    now = [0]

    def progress(p):
        if p in phases[now[0] + 1:] and (p != "timing" or not cpu):
            now[0] = phases.index(p)
            emit("phase", phase=p)

    got, status, bad, replays = run_worker(
        ref_path, cand_path, cfg, progress,
        replayer(chosen, len(seeds)) if cpu else None)
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
        if o.dtype != ref_out.dtype:
            # KernelBench compares the outputs as they are, and
            # torch.allclose of two dtypes raises ("Float did not match
            # Half"): a candidate whose output is fp16 for an fp32
            # reference fails there, so it fails here too.
            emit("fail", phase="correctness", sub="dtype-mismatch",
                 trial=i + 1, message="output dtype %s, want %s" % (
                     str(o.dtype).replace("torch.", ""),
                     str(ref_out.dtype).replace("torch.", "")))
            return 1
    if not cpu and check_outs is not None:
        say("the Triton check on the CPU: the candidate at cut sizes in"
            " Triton's interpreter")
        cfg = dict(base, cpu=True, seeds=seeds, sizes=check_sizes)
        cgot, _, cbad, replays = run_worker(
            ref_path, cand_path, cfg, None, replayer(chosen, len(seeds)))
        couts = cgot.get("outs") if cgot is not None and cbad is None \
            else None
        if not (isinstance(couts, list) and len(couts) == len(seeds)):
            replays = None
            say("the Triton check was not made: the candidate does not run"
                " on the CPU path")
    elif cpu:
        couts = outs
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
            el = first_element(isclose, ref_out, new_cmp, opts)
            if el is not None:
                el["trial"] = i + 1
            first_bad = (i + 1, d, el)
        say("correctness trial %d: %s (max abs diff %.3g)" % (
            i + 1, "match" if ok else "MISMATCH", d))
    where = ""
    if cpu:
        where = " on the CPU (Triton's interpreter%s)" % (
            "; sizes cut: " + sizes_text(sizes) if sizes else "")
    if passed < n:
        emit("fail", phase="correctness", sub="mismatch",
             correct_trials=passed, trials=n, trial=first_bad[0],
             max_abs_diff=first_bad[1], element=first_bad[2],
             message="output differs from the reference in %d of %d"
             " trials (trial %d: max abs diff %.3g, atol = rtol = %g)%s" % (
                 n - passed, n, first_bad[0], first_bad[1], opts["--atol"],
                 where))
        return 1
    # Right answers only: a wrong one is a mismatch whether or not
    # Triton computed it.
    changed = None
    if replays is not None or cpu:
        verdict = triton_replayed(chosen, replays, couts, check_outs, opts) \
            if replays is not None else ("the checker made no replay", 0,
                                         False)
        changed = verdict[1]
        if verdict[0] is not None:
            # A candidate that tests the device and, off a GPU, computes
            # without Triton: the CPU path cannot tell (on a GPU it runs).
            test = device_branch(src) if cpu and verdict[2] else None
            if test is not None:
                emit("skip", sub="cuda-only", phase="correctness",
                     cand_line=test[0], reason="the candidate cannot run"
                     " without a GPU: it tests the device (line %d: %s)"
                     " and, on the CPU, %s" % (test[0], test[1],
                                               verdict[0]))
                return EXIT_SKIP
            emit("fail", phase="correctness", sub="no-triton-kernel",
                 trials=len(chosen), message="no Triton kernel computes"
                 " the output: %s (the task asks for forward to run Triton"
                 " kernels)" % verdict[0])
            return 1
    if cpu:
        # No GPU: no timing to report, and none is made up.
        say("correct%s in %d of %d trials; timing skipped: no GPU" % (
            where, passed, n))
        emit("result", device="cpu", correct_trials=passed, trials=n,
             max_abs_diff=max_diff, atol=opts["--atol"],
             rtol=opts["--rtol"], sizes=sizes, triton_changed=changed,
             triton_replayed=len(chosen), where=where.strip(),
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
         triton_replayed=len(chosen), torch=torch.__version__)
    return 0


def first_element(isclose, ref, got, opts):
    """The first element (in row-major order) where got is not close to
    ref as torch.allclose(ref, got) judges: |ref - got| <= atol + rtol *
    |got|, NaN never close.  Computed here, by the checker, from the
    worker's output tensor: the run's counterexample (docs/envs/
    triton.md).  None when every element is close, or for a dtype whose
    values are no float (complex): the verdict never waits on it."""
    try:
        return element_of(isclose, ref, got, opts)
    except (TypeError, ValueError, RuntimeError):
        return None


def element_of(isclose, ref, got, opts):
    close = isclose(ref, got, atol=opts["--atol"], rtol=opts["--rtol"])
    bad = (~close).flatten()
    count = int(bad.sum().item())
    if count == 0:
        return None
    flat = int(bad.nonzero()[0].item())
    index, rest = [], flat
    for dim in reversed(tuple(ref.shape)):
        index.append(rest % dim)
        rest //= dim
    index.reverse()
    r = float(ref.flatten()[flat].item())
    c = float(got.flatten()[flat].item())
    return {"index": index, "flat": flat, "reference": r, "candidate": c,
            "abs_diff": abs(r - c), "atol": opts["--atol"],
            "rtol": opts["--rtol"],
            "tolerance": opts["--atol"] + opts["--rtol"] * abs(c),
            "mismatches": count, "elements": int(ref.numel()),
            "dtype": str(ref.dtype).replace("torch.", "")}


def trial_seeds(tl, opts):
    """The correctness trials' seeds, drawn from the seed as KernelBench
    draws them."""
    import torch
    tl.seed(opts["--seed"])
    return [int(torch.randint(0, 2 ** 32 - 1, (1,)).item())
            for _ in range(opts["--correct-trials"])]


def build_model(ref, tl, opts):
    """The task's Model from get_init_inputs() under the seed."""
    import torch
    init_inputs = tl.to_dev(ref.get_init_inputs())
    with torch.no_grad():
        tl.seed(opts["--seed"])
        return ref.Model(*tl.clone(init_inputs)).to(tl.dev)


class CutsFailed(Exception):
    """The reference runs at no cut of its sizes: each cut tried (name
    -> [old, new]) and the exception it gave at the last."""

    def __init__(self, tried, exc):
        super().__init__("%s: %s" % (type(exc).__name__, exc))
        self.tried = tried
        self.exc = exc


def cut_reference(ref_path, tl, opts, seeds, name):
    """On the CPU path: the task's module, the sizes cut, its Model and
    its outputs on seeds, at the first cut of CPU_CUTS at which the
    reference builds and gives outputs with elements (a cut can leave a
    convolution's image smaller than its kernel).  Raises the reference's
    own exception when nothing was cut or no size can have caused it
    (SIZE_FREE, or a GPU it needs), CutsFailed when no cut runs."""
    tried = []
    last = None
    for cut in CPU_CUTS:
        ref, sizes = load_reference(ref_path, tl, name, cut)
        if tried and sizes == tried[-1]:
            continue
        try:
            model = build_model(ref, tl, opts)
            outs = outputs(tl, ref, model, seeds)
            for o in outs:
                if isinstance(o, tl.torch.Tensor) and o.numel() == 0:
                    raise ValueError("the reference's output has no"
                                     " elements (shape %s)" % (
                                         list(o.shape),))
            if tried:
                say("on the CPU: the reference runs at the cut %s" %
                    sizes_text(sizes))
            return ref, sizes, model, outs
        except Exception as e:
            if not sizes or type(e).__name__ in SIZE_FREE or \
                    cuda_only(type(e).__name__, str(e)) is not None or \
                    "not implemented for" in str(e):
                raise
            say("on the CPU: the reference fails at the cut %s: %s: %s" % (
                sizes_text(sizes), type(e).__name__,
                str(e).splitlines()[0][:200] if str(e) else ""))
            tried.append(sizes)
            last = e
    raise CutsFailed(tried, last)


def reference_failed(e, ref_path, cpu):
    """The marker for a task whose reference failed: skipped when the
    failure is the CPU path's (sizes that no cut makes valid, a GPU the
    reference needs, an operator torch has only for the GPU), else
    task-defect."""
    if isinstance(e, CutsFailed):
        traceback.print_exception(type(e.exc), e.exc, e.exc.__traceback__)
        emit("skip", sub="sizes", phase="reference",
             sizes_tried=e.tried, reason="the task's reference fails at"
             " every cut of its sizes on the CPU (%d cuts, the largest: %s):"
             " %s" % (len(e.tried), sizes_text(e.tried[-1]),
                      str(e).splitlines()[0][:300]))
        return EXIT_SKIP
    traceback.print_exc()
    text = ("%s: %s" % (type(e).__name__, e)).splitlines()[0][:300]
    if cpu and ((cuda_only(type(e).__name__, str(e)) is not None and
                 REF_CUDA_SOURCE.search(code_text(read_source(ref_path))))
                or "not implemented for" in str(e)):
        emit("skip", sub="gpu-only", phase="reference",
             reason="the task's reference cannot run without a GPU: %s"
             % text)
        return EXIT_SKIP
    emit("defect", message="%s: %s" % (type(e).__name__, e))
    return 1


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


def replay_choice(n):
    """The trials the checker replays: REPLAYED of n, drawn with
    os.urandom (nothing the candidate can predict)."""
    import random
    return sorted(random.SystemRandom().sample(range(n), min(REPLAYED, n)))


def replayer(chosen, trials):
    """What run_worker does with a worker's full reply on the CPU path:
    replay the chosen trials' traces, the kernels run by a launcher
    (start_launcher()), with a random generator of the checker's for the
    stores.  Returns, per chosen trial, (recorded output, randomized
    output or None, None) or (None, None, why the trace does not
    replay)."""
    def serve(got):
        logs = got.get("logs")
        if not (isinstance(logs, list) and len(logs) == trials):
            return [(None, None, "the worker sent no trace of its"
                     " trials")] * len(chosen)
        return replay_records([logs[i] for i in chosen], "forward")
    return serve


def replay_records(records, what):
    """Replay each of records (a trace's events, or ("unrecorded", why))
    with replay(), the kernels run by one launcher (start_launcher())
    started at the first launch, the stores randomized by a generator of
    the checker's seeded from os.urandom.  Returns, per record, (output
    as recorded, randomized output or None, None) or (None, None, why
    it does not replay); what names the recorded code in that text
    ("forward", "the program")."""
    import torch
    gen = torch.Generator()
    gen.manual_seed(int.from_bytes(os.urandom(8), "big") >> 1)
    launcher = []

    def kernels(req):
        if not launcher:
            launcher.append(start_launcher())
        return launcher[0][0](req)
    got_back = []
    for ev in records:
        if isinstance(ev, tuple) and len(ev) == 2 and ev[0] == "unrecorded":
            got_back.append((None, None, "%s did what the trace cannot"
                             " record: %s" % (what, str(ev[1])[:300])))
            continue
        try:
            got_back.append(replay(ev, kernels, gen) + (None,))
        except Exception as e:
            got_back.append((None, None, "%s%s" % (
                "" if isinstance(e, ValueError) else
                type(e).__name__ + ": ", str(e)[:300])))
    if launcher:
        launcher[0][1]()
    return got_back


def triton_replayed(chosen, replays, outs, ref_outs, opts):
    """The checker's verdict on the replays (replayer()) of the chosen
    trials: (why no Triton kernel computes the output, or None; how many
    randomized replays came out wrong; whether each replay gave the
    candidate's output).  A replay must give the output the candidate
    sent (else its trace is not what ran) and, with Triton's stores
    randomized, an output that is not right (else Triton did not compute
    it)."""
    import torch
    changed = 0
    atol, rtol = opts["--atol"], opts["--rtol"]

    def close(a, b):
        return type(a) is torch.Tensor and type(b) is torch.Tensor and \
            tuple(a.shape) == tuple(b.shape) and a.dtype == b.dtype and \
            bool(torch.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True))
    for i, (rec, rnd, err) in zip(chosen, replays):
        if err is not None:
            return ("the checker cannot replay what forward recorded in"
                    " trial %d: %s" % (i + 1, err), changed, False)
        if not close(rec, outs[i]):
            return ("the checker's replay of what forward recorded in trial"
                    " %d (its PyTorch operations, its Triton kernels run by"
                    " the checker's launcher) does not give its output" %
                    (i + 1), changed, False)
        right = rnd is None or close(rnd, ref_outs[i].to(rnd.dtype)
                                     if type(rnd) is torch.Tensor else None)
        changed += not right
    say("replayed with Triton's stores randomized, outputs not right: %d of"
        " %d" % (changed, len(chosen)))
    if changed < len(chosen):
        return ("replayed by the checker with every value its Triton kernels"
                " store randomized, %d of %d outputs are still right" % (
                    len(chosen) - changed, len(chosen)), changed, True)
    return None, changed, True


def run_worker(ref_path, cand_path, cfg, progress, serve=None):
    """Run the candidate in a worker and read its reply: (the dict or
    None, exit status, why the reply is not one the worker writes or
    None, what serve gave or None).  Its configuration goes through its
    stdin, not its command line; its stdout goes to our stderr (not the
    marker channel); the reply comes on a pipe of its own, one frame: an
    8-byte big-endian length and that many bytes of torch.save, loaded
    with weights_only.  A second pipe carries the phases the worker
    enters (a line each), given to progress (when not None) as they
    come: they only name where a timeout struck, never a verdict.  When
    the reply holds the outputs and serve is given, serve(reply) runs in
    a forked child (isolated()) after the worker has ended.  Bytes
    before, after or instead of the one frame are the candidate's own
    writing (bad)."""
    import io
    import selectors
    import subprocess
    import torch
    cin, cout = os.pipe()
    rfd, wfd = os.pipe()
    pfd, pwfd = os.pipe()
    try:
        worker = subprocess.Popen(
            [sys.executable, "-I", "-B", os.path.abspath(__file__),
             "worker", ref_path, cand_path],
            stdin=cin, stdout=2, stderr=2, pass_fds=(wfd, pwfd),
            close_fds=True)
    except OSError as e:
        for fd in (cin, cout, rfd, wfd, pfd, pwfd):
            os.close(fd)
        emit("defect", message="cannot start the worker: %s" % e)
        sys.exit(1)
    for fd in (cin, wfd, pwfd):
        os.close(fd)
    conf = dict(cfg, fd=wfd, progress=pwfd)
    try:
        os.write(cout, (json.dumps(conf) + "\n").encode())
    except OSError:
        pass
    os.close(cout)
    data = bytearray()
    line = b""
    sel = selectors.DefaultSelector()
    sel.register(rfd, selectors.EVENT_READ, "reply")
    sel.register(pfd, selectors.EVENT_READ, "progress")
    reply_open = True

    def whole():
        return len(data) >= 8 and \
            len(data) - 8 >= struct.unpack(">Q", bytes(data[:8]))[0]
    # Until one whole frame is in, or the reply pipe ends.
    while reply_open and not whole():
        for key, _ in sel.select():
            c = os.read(key.fd, 1 << 20)
            if not c:
                sel.unregister(key.fd)
                if key.data == "reply":
                    reply_open = False
                else:
                    os.close(key.fd)
                    pfd = None
            elif key.data == "reply":
                if len(data) <= REPLY_MAX:
                    data += c
            else:
                line = (line + c)[-4096:]
                while b"\n" in line:
                    p, line = line.split(b"\n", 1)
                    if progress is not None:
                        progress(p.decode("ascii", "replace").strip())
    sel.close()
    if pfd is not None:
        os.close(pfd)

    def finish(got, bad, served):
        extra = 0
        while True:
            c = os.read(rfd, 1 << 20)
            if not c:
                break
            extra += len(c)
        os.close(rfd)
        status = worker.wait()
        if extra and bad is None:
            bad = "the candidate's process sent %d bytes on the results" \
                " pipe after the worker's reply (the candidate wrote on" \
                " it)" % extra
        return (None if bad is not None else got), status, bad, \
            (None if bad is not None else served)
    if not data:
        return finish(None, None, None)
    if len(data) < 8:
        return finish(None, "the candidate's process sent %d bytes, not"
                      " a reply the worker writes" % len(data), None)
    size = struct.unpack(">Q", bytes(data[:8]))[0]
    if size != len(data) - 8:
        return finish(None, "the candidate's process sent %d bytes on the"
                      " results pipe, not the one reply the worker writes"
                      " (the candidate wrote on it)" % len(data), None)
    try:
        got = torch.load(io.BytesIO(bytes(data[8:])), weights_only=True)
    except Exception as e:
        return finish(None, "the reply does not read: %s: %s" % (
            type(e).__name__, str(e).splitlines()[0][:200] if str(e)
            else ""), None)
    if not isinstance(got, dict):
        return finish(None, "the reply is a %s, not the worker's"
                      % type(got).__name__, None)
    got, status, bad, _ = finish(got, None, None)
    served = None
    if bad is None and serve is not None and \
            isinstance(got.get("outs"), list):
        served = isolated(lambda: serve(got))
    return got, status, bad, served


def isolated(fn):
    """fn()'s result, computed in a forked child of the checker that
    cannot write a marker line (its stdout and the marker descriptor are
    the log, the nonce is dropped) and sent back as a torch.save frame,
    loaded with weights_only; None when the child gives none.  The replay
    runs ATen ops that the candidate's trace names: a flaw in one of them
    then reaches no verdict but the Triton check's."""
    import io
    import torch
    global NONCE
    r, w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.dup2(2, 1)
            if MARK_FD not in (0, 1, 2):
                os.dup2(2, MARK_FD)
            NONCE = ""
            torch.set_num_threads(1)
            buf = io.BytesIO()
            torch.save(fn(), buf)
            write_frame(w, buf.getvalue())
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(0)
    os.close(w)
    data = read_frame(r)
    os.close(r)
    os.waitpid(pid, 0)
    if data is None:
        return None
    try:
        return torch.load(io.BytesIO(data), weights_only=True)
    except Exception:
        return None


def phase_of(got):
    """The phase a worker's reply names, if it is one of eval's."""
    p = got.get("phase") if got is not None else None
    return p if p in ("load", "init", "correctness", "timing") else "load"


def worker_failed(got, status, src, cpu):
    """The marker for a worker that sent no outputs: its report is its
    own word, believed only where the candidate loses.  A skip is the
    checker's: the worker's exception must say CUDA (or a known limit of
    Triton's interpreter, or fail on a device test) and the checker's
    reading of the source must agree (source_needs_gpu())."""
    ev = got.get("event") if got is not None else None
    if ev == "error":
        tn = str(got.get("type", "Exception"))[:100]
        msg = str(got.get("message", ""))[:4000]
        line = got.get("cand_line") if type(got.get("cand_line")) is int \
            else 0
        why = source_needs_gpu(src, tn, msg, line) if cpu else None
        if why is not None:
            emit("skip", sub=why[0], phase=phase_of(got), cand_line=line,
                 reason=why[1])
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


# --- Triton's interpreter: the limits the worker works around ----------
#
# docs/envs/triton.md, "Interpreter limits"; tests/e2e/157-triton-limits.sh
# runs a tiny kernel for each, without the fix (the limit must still be
# there: when it is not, a Triton upgrade fixed it and the fix goes) and
# with it (the answer must be right).  Each fix acts only on the operand
# types that hit its limit, so other kernels run the interpreter's own
# code; none of them can make a wrong answer right or skip anything.

# libdevice's functions by name (the symbol without __nv_ and the f of
# its fp32 form): numpy's, computed in the operands' type.  Each entry
# takes numpy and math and gives the function.
LIBDEVICE = {
    "sin": lambda np, m: np.sin, "cos": lambda np, m: np.cos,
    "tan": lambda np, m: np.tan, "asin": lambda np, m: np.arcsin,
    "acos": lambda np, m: np.arccos, "atan": lambda np, m: np.arctan,
    "sinh": lambda np, m: np.sinh, "cosh": lambda np, m: np.cosh,
    "tanh": lambda np, m: np.tanh, "asinh": lambda np, m: np.arcsinh,
    "acosh": lambda np, m: np.arccosh, "atanh": lambda np, m: np.arctanh,
    "exp": lambda np, m: np.exp, "exp2": lambda np, m: np.exp2,
    "exp10": lambda np, m: lambda x: np.power(x.dtype.type(10), x),
    "expm1": lambda np, m: np.expm1, "log": lambda np, m: np.log,
    "log2": lambda np, m: np.log2, "log10": lambda np, m: np.log10,
    "log1p": lambda np, m: np.log1p, "sqrt": lambda np, m: np.sqrt,
    "cbrt": lambda np, m: np.cbrt,
    "rsqrt": lambda np, m: lambda x: 1 / np.sqrt(x),
    "rcbrt": lambda np, m: lambda x: 1 / np.cbrt(x),
    "rcp": lambda np, m: lambda x: 1 / x,
    "floor": lambda np, m: np.floor, "ceil": lambda np, m: np.ceil,
    "trunc": lambda np, m: np.trunc,
    "round": lambda np, m: lambda x: np.copysign(
        np.floor(np.abs(x) + 0.5), x),
    "rint": lambda np, m: np.rint, "nearbyint": lambda np, m: np.rint,
    "fabs": lambda np, m: np.abs, "abs": lambda np, m: np.abs,
    "erf": lambda np, m: np.vectorize(m.erf, otypes=[np.float64]),
    "erfc": lambda np, m: np.vectorize(m.erfc, otypes=[np.float64]),
    "lgamma": lambda np, m: np.vectorize(m.lgamma, otypes=[np.float64]),
    "tgamma": lambda np, m: np.vectorize(m.gamma, otypes=[np.float64]),
    "normcdf": lambda np, m: np.vectorize(
        lambda x: 0.5 * m.erfc(-x / m.sqrt(2)), otypes=[np.float64]),
    "sinpi": lambda np, m: lambda x: np.sin(np.pi * x),
    "cospi": lambda np, m: lambda x: np.cos(np.pi * x),
    "pow": lambda np, m: np.power, "powi": lambda np, m: np.power,
    "atan2": lambda np, m: np.arctan2, "hypot": lambda np, m: np.hypot,
    "copysign": lambda np, m: np.copysign, "fmod": lambda np, m: np.fmod,
    "remainder": lambda np, m: lambda x, y: x - np.rint(x / y) * y,
    "fdim": lambda np, m: lambda x, y: np.maximum(x - y, 0),
    "fmax": lambda np, m: np.fmax, "fmin": lambda np, m: np.fmin,
    "nextafter": lambda np, m: np.nextafter, "add": lambda np, m: np.add,
    "sub": lambda np, m: np.subtract, "mul": lambda np, m: np.multiply,
    "div": lambda np, m: np.divide, "dividef": lambda np, m: np.divide,
    "fma": lambda np, m: lambda x, y, z: x * y + z,
    "saturate": lambda np, m: lambda x: np.clip(x, 0, 1),
    "isnan": lambda np, m: np.isnan, "isinf": lambda np, m: np.isinf,
    "isfinite": lambda np, m: np.isfinite,
    "finite": lambda np, m: np.isfinite, "signbit": lambda np, m: np.signbit,
    "ldexp": lambda np, m: np.ldexp, "scalbn": lambda np, m: np.ldexp,
}


def libdevice_name(symbol):
    """The LIBDEVICE name of a libdevice symbol (__nv_tanhf: tanh,
    __nv_fast_expf: exp, __nv_fdiv_rn: div, __nv_isnand: isnan), or
    None when the table has none."""
    n = symbol[5:] if symbol.startswith("__nv_") else symbol
    if n.startswith("fast_"):
        n = n[5:]
    m = re.match(r"([fd])?(add|sub|mul|div|rcp|sqrt|rsqrt)_r[nzdu]$", n)
    if m:
        n = m.group(2)
    n = re.sub(r"^(fmaf?)_r[nzdu]$", "fma", n)
    if n.startswith("f") and n[1:] in ("dividef", "rsqrt_rn"):
        n = n[1:]
    for cand in (n, n[:-1] if n.endswith(("f", "d")) else None,
                 n[:-2] if n.endswith("ll") else None):
        if cand and cand in LIBDEVICE:
            return cand
    return None


def interp_fixes():
    """Work around the limits of Triton's interpreter (3.9) that a right
    kernel hits, in the worker before the candidate loads; returns their
    names.  bf16: arithmetic, comparisons, reductions and tl.dot on
    bfloat16 operands work on the raw 16-bit storage (a 16x16 product is
    2.3e10 off): they are computed in fp32 and rounded back.  mask: a
    mask built as block & scalar comes out int32 and loads and stores
    refuse it ("mask has unsupported dtype"): it is made bool.  autotune:
    the autotuner asks for a driver to benchmark its configs ("0 active
    drivers"): the first config runs, as on a GPU whose benchmark chose
    it.  libdevice: the libdevice functions are not callable in the
    interpreter (a stub, or a missing _semantic) and extern calls are not
    implemented: they call numpy's (LIBDEVICE); a function it lacks
    raises NotImplementedError, which the checker skips as an interpreter
    limit."""
    import math
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as ti
    B = ti.InterpreterBuilder
    TH = ti.TensorHandle
    bf16 = tl.bfloat16
    f32 = tl.float32
    done = []

    def is_bf(h):
        return getattr(h, "dtype", None) == bf16 and \
            h.data.dtype == np.uint16

    def up(b, h):
        return b.cast_impl(h, f32) if is_bf(h) else h

    def down(b, h):
        return b.cast_impl(h, bf16) if h.data.dtype == np.float32 else h

    binary, unary, ternary = B.binary_op, B.unary_op, B.ternary_op
    fma, dot, cast = B.create_fma, B.create_dot, B.cast_impl

    def cast_impl(self, src, dst_type):
        # fp32 -> bf16 truncates where a GPU rounds to nearest even; and
        # only bf16 <-> fp32 converts the values: other casts to or from
        # bf16 (an int, a bool) would copy the number into the storage.
        to, frm = dst_type.scalar, src.dtype.scalar
        if to == bf16 and frm == f32:
            bits = np.ascontiguousarray(src.data, np.float32).view(np.uint32)
            rne = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) &
                                               np.uint32(1))) >> np.uint32(16)
            nan = np.isnan(src.data)
            out = np.where(nan, np.uint32(0x7FC0), rne).astype(np.uint16)
            return TH(out.reshape(np.shape(src.data)), bf16)
        if (to == bf16) == (frm == bf16) or f32 in (to, frm):
            return cast(self, src, dst_type)
        return cast(self, cast(self, src, f32), dst_type)

    def binary_op(self, lhs, rhs, op):
        if not (is_bf(lhs) or is_bf(rhs)):
            return binary(self, lhs, rhs, op)
        r = binary(self, up(self, lhs), up(self, rhs), op)
        if lhs.dtype == bf16 and r.data.dtype == np.float32:
            return down(self, r)
        return TH(r.data, lhs.dtype.scalar)   # a comparison, as before

    def unary_op(self, arg, op):
        if not is_bf(arg):
            return unary(self, arg, op)
        return down(self, unary(self, up(self, arg), op))

    def ternary_op(self, a, b, c, op):
        # np.where picks the stored bits, which is right as it is.
        if op is np.where or not any(is_bf(h) for h in (a, b, c)):
            return ternary(self, a, b, c, op)
        r = ternary(self, up(self, a), up(self, b), up(self, c), op)
        return down(self, r) if c.dtype == bf16 else r

    def create_fma(self, x, y, z):
        if not any(is_bf(h) for h in (x, y, z)):
            return fma(self, x, y, z)
        r = fma(self, up(self, x), up(self, y), up(self, z))
        return down(self, r) if z.dtype == bf16 else r

    def create_dot(self, a, b, d, prec, imprecise):
        if not any(is_bf(h) for h in (a, b, d)):
            return dot(self, a, b, d, prec, imprecise)
        r = dot(self, up(self, a), up(self, b), up(self, d), prec, imprecise)
        return down(self, r) if d.dtype == bf16 else r

    B.binary_op, B.unary_op, B.ternary_op = binary_op, unary_op, ternary_op
    B.cast_impl = cast_impl
    B.create_fma, B.create_dot = create_fma, create_dot

    def bf_tensor(t):
        """A bf16 tl.tensor of the interpreter as fp32."""
        h = ti.interpreter_builder.cast_impl(t.handle, f32)
        return tl.core.tensor(h, tl.block_type(f32, list(t.type.shape))
                              if t.type.is_block() else f32)

    def to_bf(t):
        if not isinstance(t, tl.core.tensor) or t.dtype != f32:
            return t
        h = ti.interpreter_builder.cast_impl(t.handle, bf16)
        return tl.core.tensor(h, tl.block_type(bf16, list(t.type.shape))
                              if t.type.is_block() else bf16)

    def bf_reduce(orig):
        def run(self, input, *args, **kwargs):
            if not (isinstance(input, tl.core.tensor) and is_bf(input.handle)):
                return orig(self, input, *args, **kwargs)
            r = orig(self, bf_tensor(input), *args, **kwargs)
            if isinstance(r, (list, tuple)):
                return type(r)(to_bf(x) for x in r)
            return to_bf(r)
        return run

    ti.ReduceOps.sum = bf_reduce(ti.ReduceOps.sum)
    ti.ReduceOps.min_max = bf_reduce(ti.ReduceOps.min_max)
    ti.ScanOps.cumsum = bf_reduce(ti.ScanOps.cumsum)
    ti.ScanOps.cumprod = bf_reduce(ti.ScanOps.cumprod)
    done.append("bf16")

    def as_bool(m):
        if m is None or m.data.dtype == np.bool_:
            return m
        return TH(m.data.astype(np.bool_), tl.int1)

    load, store, rmw = (B.create_masked_load, B.create_masked_store,
                        B.create_atomic_rmw)
    B.create_masked_load = lambda self, ptrs, mask, other, cp, vol: \
        load(self, ptrs, as_bool(mask), other, cp, vol)
    B.create_masked_store = lambda self, ptrs, value, mask, cp: \
        store(self, ptrs, value, as_bool(mask), cp)
    B.create_atomic_rmw = lambda self, op, ptr, val, mask, sem, scope: \
        rmw(self, op, ptr, val, as_bool(mask), sem, scope)
    done.append("mask")

    from triton.runtime.autotuner import Autotuner

    def no_bench(kernel_call, quantiles=None):
        # Every config the same time: min() keeps the first.
        return [0.0, 0.0, 0.0]

    Autotuner.do_bench = property(lambda self: no_bench)
    done.append("autotune")

    import importlib
    sem = ti.interpreter_semantic
    impls = {}

    def extern(self, lib, path, symbol, args, ret, pure):
        name = libdevice_name(symbol)
        if name is None:
            raise NotImplementedError("extern function %s has no"
                                      " interpreter implementation" % symbol)
        if name not in impls:
            impls[name] = LIBDEVICE[name](np, math)
        out = np.asarray(impls[name](*[a.data for a in args]))
        scalar = getattr(ret, "scalar", ret)
        return TH(out.astype(ti._get_np_dtype(scalar)), scalar)

    B.create_extern_elementwise = extern

    def with_semantic(fn):
        def call(*args, **kwargs):
            kwargs.pop("_semantic", None)
            return fn(*args, _semantic=sem, **kwargs)
        call.__name__ = fn.__name__
        return call

    cuda = importlib.import_module("triton.language.extra.cuda.libdevice")
    try:
        stub = importlib.import_module("triton.language.extra.libdevice")
    except ImportError:
        stub = None
    for name, fn in list(vars(cuda).items()):
        if tl.core.is_builtin(fn):
            call = with_semantic(fn)
            setattr(cuda, name, call)
            # What the compiler's module map does for the generic module.
            if stub is not None and hasattr(stub, name):
                setattr(stub, name, call)
    done.append("libdevice")
    return done


# --- The Triton check: a trace the worker records, replayed by the checker
#
# ADR 0048.  The worker records, in each trial, what forward did: every
# ATen op (a dispatch mode) and every launch of a Triton kernel (the
# interpreter's GridExecutor), with the tensors they take as references
# to earlier results, or as values where the trace first meets them
# (inputs, parameters: "leaves").  The record is data: the checker
# replays it in a child of its own twice, once as recorded (the kernels
# run by the launcher below, from their source, on the checker's copies
# of their arguments, sent and sent back by value) and once with every
# value the kernels' stores wrote replaced by a random one of the
# checker's.  Nothing in the candidate's
# process decides: a trace that does not give the candidate's output, or
# whose output is still right with Triton's stores randomized, fails.


class Unencodable(Exception):
    """A value the trace cannot carry (a TensorDescriptor, a generator)."""


class Trace:
    """The worker's record of one trial: events, tensors by reference.

    events: ("leaf", ref, value), ("op", name, args, kwargs, out refs),
    ("launch", kernel, grid, args, kwargs), ("out", ref).  Tensors are
    kept alive for the trial, so that their ids are not reused."""

    def __init__(self, torch):
        self.torch = torch
        self.refs = {}
        self.keep = []
        self.events = []
        self.quiet = 0
        self.bad = None

    def ref(self, t, leaf=True):
        r = self.refs.get(id(t))
        if r is None:
            r = len(self.keep)
            self.refs[id(t)] = r
            self.keep.append(t)
            if leaf:
                self.quiet += 1
                try:
                    self.events.append(("leaf", r, t.detach().clone()
                                        .as_subclass(self.torch.Tensor)))
                finally:
                    self.quiet -= 1
        return r

    def drawn(self, ts):
        """ts hold values drawn from a generator (randn, normal_,
        bernoulli, randperm, ...): each is a leaf by value; one already
        in the trace (an in-place draw, out=) gets the value by a copy_
        from a leaf, so that its views and later uses see it."""
        for t in ts:
            r = self.refs.get(id(t))
            if r is None:
                self.ref(t)
                continue
            self.quiet += 1
            try:
                v = t.detach().clone().as_subclass(self.torch.Tensor)
            finally:
                self.quiet -= 1
            self.events.append(("op", "aten::copy_.default",
                                ("l", [("t", r), ("t", self.ref(v))]),
                                ("d", {}), [r]))

    def enc(self, v):
        torch = self.torch
        if isinstance(v, torch.Tensor):
            return ("t", self.ref(v))
        if v is None or type(v) in (bool, int, float, str):
            return ("v", v)
        if isinstance(v, (list, tuple)):
            return ("l" if isinstance(v, list) else "u",
                    [self.enc(x) for x in v])
        if isinstance(v, dict):
            return ("d", {str(k): self.enc(x) for k, x in v.items()})
        if isinstance(v, torch.dtype):
            return ("dtype", str(v).replace("torch.", ""))
        if isinstance(v, torch.device):
            return ("device", v.type)
        if isinstance(v, torch.layout):
            return ("layout", str(v).replace("torch.", ""))
        if isinstance(v, torch.memory_format):
            return ("mf", str(v).replace("torch.", ""))
        if type(v).__module__.startswith("triton.language") and \
                hasattr(v, "name") and type(v).__name__ == "dtype":
            return ("tldtype", v.name)
        if type(v).__module__.startswith("numpy") and hasattr(v, "item"):
            return self.enc(v.item())
        raise Unencodable("a %s" % type(v).__name__)


TRACE = [None]      # the worker's: the trial's Trace while forward runs


def trace_mode():
    """The worker's dispatch mode: every ATen op into TRACE[0]."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_flatten

    seeded = getattr(torch.Tag, "nondeterministic_seeded", None)

    class Record(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            tr = TRACE[0]
            if tr is None or tr.quiet or tr.bad is not None:
                return func(*args, **kwargs)
            if seeded is not None and seeded in func.tags:
                # A draw from a generator: what it drew is a leaf, so
                # that the replay draws nothing (a test's inputs).
                out = func(*args, **kwargs)
                tr.drawn([t for t in tree_flatten(out)[0]
                          if isinstance(t, torch.Tensor)])
                return out
            try:
                a, k = tr.enc(list(args)), tr.enc(dict(kwargs))
            except Unencodable as e:
                tr.bad = "%s takes %s" % (func.name(), e)
                return func(*args, **kwargs)
            out = func(*args, **kwargs)
            refs = [tr.ref(t, leaf=False) for t in tree_flatten(out)[0]
                    if isinstance(t, torch.Tensor)]
            tr.events.append(("op", func.name(), a, k, refs))
            return out

    return Record()


STORES = [None]     # the launcher's: [(addresses, size) or None]


def record_stores():
    """While STORES[0] is a list (a launch the checker asked for), every
    store of Triton's interpreter (plain, masked, atomic, through a
    descriptor) appends the addresses it writes and the size of a value
    (None for a descriptor's: its whole argument).  The checker
    randomizes only values that a kernel changed there: a kernel body
    that writes memory by other means (Python in the interpreter) stores
    nothing Triton's."""
    import numpy as np
    from triton.runtime import interpreter as ti

    def at(ptrs, mask, value):
        if STORES[0] is None:
            return
        try:
            a = np.asarray(ptrs.data).reshape(-1)
            if mask is not None:
                a = a[np.broadcast_to(np.asarray(mask.data, dtype=bool),
                                      np.shape(ptrs.data)).reshape(-1)]
            STORES[0].append((a.astype(np.uint64),
                              int(np.asarray(value.data).dtype.itemsize)))
        except Exception:
            STORES[0].append(None)

    B = ti.InterpreterBuilder
    store, rmw, cas = (B.create_masked_store, B.create_atomic_rmw,
                       B.create_atomic_cas)
    B.create_masked_store = lambda self, ptrs, value, mask, cp: (
        at(ptrs, mask, value), store(self, ptrs, value, mask, cp))[1]
    B.create_atomic_rmw = lambda self, op, ptr, val, mask, sem, scope: (
        at(ptr, mask, val), rmw(self, op, ptr, val, mask, sem, scope))[1]
    B.create_atomic_cas = lambda self, ptr, cmp, val, sem, scope: (
        at(ptr, None, val), cas(self, ptr, cmp, val, sem, scope))[1]
    if hasattr(B, "create_descriptor_store"):
        dstore = B.create_descriptor_store

        def rec_dstore(self, desc, value, idx):
            if STORES[0] is not None:
                STORES[0].append(None)
            return dstore(self, desc, value, idx)
        B.create_descriptor_store = rec_dstore


def written_bytes(torch, sts, got):
    """Per storage (a uint8 tensor), which of its bytes the recorded
    stores wrote: a bool tensor each."""
    import numpy as np
    masks = [np.zeros(s.numel(), dtype=bool) for s in sts]
    every = any(g is None for g in got)
    for i, s in enumerate(sts):
        if every:
            masks[i][:] = True
            continue
        lo, n = s.data_ptr(), s.numel()
        for addrs, size in got:
            off = addrs[(addrs >= lo) & (addrs < lo + n)].astype(np.int64) \
                - lo
            for k in range(size):
                masks[i][np.minimum(off + k, n - 1)] = True
    return [torch.from_numpy(m) for m in masks]


def trace_launches():
    """Record each launch of a kernel in Triton's interpreter into
    TRACE[0]: the kernel (its source, kernel_bundle()), its grid as
    computed, its arguments; the interpreter's own copies are not
    recorded."""
    import inspect
    from triton.runtime import interpreter as ti
    call = ti.GridExecutor.__call__

    def launch(self, *args, **kwargs):
        tr = TRACE[0]
        if tr is None or tr.quiet or tr.bad is not None:
            return call(self, *args, **kwargs)
        spec = inspect.getfullargspec(self.fn)
        kwargs = {k: v for k, v in kwargs.items()
                  if k in spec.args or k in spec.kwonlyargs}
        tr.quiet += 1
        try:
            try:
                a, k = tr.enc(list(args)), tr.enc(dict(kwargs))
                orig = [o for o, r in
                        ti.InterpretedFunction.rewritten_fn.items()
                        if r is self.fn]
                if not orig:
                    raise NotTriton("the interpreter runs no kernel it"
                                    " knows")
                bundle = kernel_bundle(orig[0])
            except (Unencodable, NotTriton) as e:
                tr.bad = "a launch of %s: %s" % (
                    getattr(self.fn, "__name__", "?"), e)
                return call(self, *args, **kwargs)
            grid = self.grid
            seen = []

            def record(meta):
                g = grid(meta) if callable(grid) else grid
                seen.append([int(x) for x in g])
                return g
            self.grid = record
            try:
                r = call(self, *args, **kwargs)
            finally:
                self.grid = grid
            tr.events.append(("launch", bundle, seen[0], a, k))
            return r
        finally:
            tr.quiet -= 1
    ti.GridExecutor.__call__ = launch


def launch_arg(torch, sts, v):
    """A launch's tensor argument ("ts", storage, dtype, size, stride,
    offset) as a tensor over sts[storage]."""
    _, i, dt, size, stride, off = v
    t = torch.empty(0, dtype=dtype_of(torch, dt))
    t.set_(sts[i].untyped_storage(), off, tuple(size), tuple(stride))
    return t


def dtype_of(torch, name):
    dt = getattr(torch, str(name), None)
    if not isinstance(dt, torch.dtype):
        raise ValueError("not a dtype: %r" % (name,))
    return dt


def decode(v, tensor):
    """A value of the trace as the replay uses it; tensor(v) for the
    tensor forms ("t", ref) and ("ts", …)."""
    import torch
    kind = v[0]
    if kind in ("t", "ts"):
        return tensor(v)
    if kind == "v":
        return v[1]
    if kind == "l":
        return [decode(x, tensor) for x in v[1]]
    if kind == "u":
        return tuple(decode(x, tensor) for x in v[1])
    if kind == "d":
        return {k: decode(x, tensor) for k, x in v[1].items()}
    if kind == "dtype":
        return dtype_of(torch, v[1])
    if kind == "device":
        return torch.device("cpu")
    if kind in ("layout", "mf"):
        x = getattr(torch, str(v[1]), None)
        if not isinstance(x, (torch.layout, torch.memory_format)):
            raise ValueError("not a %s: %r" % (kind, v[1]))
        return x
    if kind == "tldtype":
        import triton.language as tl
        x = getattr(tl, str(v[1]), None)
        if not isinstance(x, tl.dtype):
            raise ValueError("not a Triton dtype: %r" % (v[1],))
        return x
    raise ValueError("not a value of the trace: %r" % (kind,))


def read_frame(fd):
    """One frame (8-byte big-endian length, then the bytes) from fd, or
    None at its end or on a short or oversized frame."""
    head = read_exact(fd, 8)
    if head is None:
        return None
    size = struct.unpack(">Q", head)[0]
    if size > REPLY_MAX:
        return None
    return read_exact(fd, size)


def read_exact(fd, n):
    buf = bytearray()
    while len(buf) < n:
        c = os.read(fd, min(n - len(buf), 1 << 20))
        if not c:
            return None
        buf += c
    return bytes(buf)


def write_frame(fd, data):
    data = struct.pack(">Q", len(data)) + data
    while data:
        data = data[os.write(fd, data):]


# ATen ops the replay never runs: they read or write files, or print.
REPLAY_DENY = re.compile(r"file|print|save|load|_debug|record_stream")


# ATen ops that give memory as it was: zeroed in the replays.
UNINIT = re.compile(r"aten::(new_)?empty(_like|_strided|_permuted)?(\.|$)")


def aten_op(name):
    """The ATen op of a trace's name ("aten::add.Tensor")."""
    import torch
    ns, _, rest = str(name).partition("::")
    op, _, overload = rest.partition(".")
    if ns != "aten" or not re.match(r"^\w+$", op) or \
            REPLAY_DENY.search(op) or (overload and
                                       not re.match(r"^\w+$", overload)):
        raise ValueError("not an ATen op the replay runs: %r" % (name,))
    fn = getattr(getattr(torch.ops.aten, op), overload or "default")
    seeded = getattr(torch.Tag, "nondeterministic_seeded", None)
    if seeded is not None and seeded in fn.tags:
        # The trace holds what a draw gave as a leaf (Trace.drawn()): a
        # record that draws would draw one value as recorded and another
        # randomized, a difference no Triton store made.
        raise ValueError("%s draws from a generator: a record holds"
                         " draws as leaves" % (name,))
    return fn


def perturbed(torch, v, gen):
    """v with each value replaced by another, drawn from gen: far from
    v (floats), its complement (integers), its negation (bools)."""
    if v.dtype == torch.bool:
        return ~v
    if v.is_floating_point() or v.is_complex():
        d = v.to(torch.complex128 if v.is_complex() else torch.float64)
        r = torch.rand(v.shape, generator=gen, dtype=torch.float64) + 1.0
        s = torch.randint(0, 2, v.shape, generator=gen,
                          dtype=torch.float64) * 2 - 1
        return (d + (1 + d.abs()) * r * s).to(v.dtype)
    return torch.bitwise_not(v)


INT_OF = {1: "uint8", 2: "int16", 4: "int32", 8: "int64", 16: None}


def changed_mask(torch, before, after):
    """Where after's values differ from before's, bit for bit (both
    contiguous, one dtype)."""
    it = INT_OF.get(before.element_size())
    if it is None:
        return before.ne(after)
    dt = getattr(torch, it)
    return before.view(dt).ne(after.view(dt))


def stored_at(torch, wrote, size, shape, stride, offset):
    """Which elements of an argument (element size, shape, stride,
    offset in elements) lie on bytes a store wrote (wrote: a bool per
    byte of its storage), in the argument's contiguous order."""
    whole = wrote.numel() // size
    if whole == 0:
        return torch.zeros(shape, dtype=torch.bool)
    elem = wrote[:whole * size].view(whole, size).any(1)
    return torch.as_strided(elem, shape, stride, offset).contiguous()


def replay(events, kernels, gen):
    """Replay a trial's trace in the checker: (the output as recorded,
    the output with every value a Triton kernel stored randomized, or
    None where that replay raised) after every event.  The output is
    what the "out" event names: a tensor's ref, or a structure of refs
    and values as Trace.enc() writes it (a TritonBench program's value,
    cmd_tbrun), decoded the same way.  kernels(request)
    runs one launch in the launcher and returns its reply.  Raises
    ValueError when the trace does not replay."""
    import torch
    from torch.utils._pytree import tree_flatten
    n, p = {}, {}
    broken = [False]
    out = None

    def get(state):
        def t(v):
            if v[1] not in state:
                raise ValueError("tensor %r is used before the trace"
                                 " makes it" % (v[1],))
            return state[v[1]]
        return t

    def on_p(f):
        if broken[0]:
            return
        try:
            f()
        except Exception:
            broken[0] = True

    if not isinstance(events, (list, tuple)):
        raise ValueError("no trace")
    with torch.no_grad():
        for ev in events:
            kind = ev[0] if isinstance(ev, (list, tuple)) and ev else None
            if kind == "leaf":
                if not isinstance(ev[2], torch.Tensor):
                    raise ValueError("a leaf that is not a tensor")
                n[ev[1]] = ev[2].clone()
                p[ev[1]] = ev[2].clone()
            elif kind == "op":
                _, name, a, k, refs = ev
                fn = aten_op(name)

                def run(state):
                    args = decode(a, get(state))
                    kw = decode(k, get(state))
                    ts = [t for t in tree_flatten(fn(*args, **kw))[0]
                          if isinstance(t, torch.Tensor)]
                    if UNINIT.match(name):
                        # Both replays start alike where the run had
                        # whatever memory held.
                        for t in ts:
                            t.zero_()
                    if len(ts) != len(refs):
                        raise ValueError("%s gives %d tensors, the trace"
                                         " %d" % (name, len(ts), len(refs)))
                    state.update(zip(refs, ts))
                try:
                    run(n)
                except ValueError:
                    raise
                except Exception as e:
                    raise ValueError("%s: %s: %s" % (
                        name, type(e).__name__, str(e)[:200]))
                on_p(lambda: run(p))
            elif kind == "launch":
                launch_replay(ev, n, p, get, on_p, kernels, gen)
            elif kind == "out":
                out = ev[1]
            else:
                raise ValueError("not an event of the trace: %r" % (kind,))
    if isinstance(out, int) and not isinstance(out, bool):
        out = ("t", out)
    if not isinstance(out, (list, tuple)) or not out:
        raise ValueError("the trace names no output")
    got = decode(out, get(n))
    try:
        rnd = None if broken[0] else decode(out, get(p))
    except Exception:
        rnd = None
    return got, rnd


def launch_replay(ev, n, p, get, on_p, kernels, gen):
    """One launch of the replay: the launcher runs the kernel on the
    storages of n's arguments; p gets what the launch changed, and a
    random value instead where a store of Triton's changed it (the
    launcher's record of its stores)."""
    import torch
    _, kernel, grid, a, k = ev
    stores = {}
    sts = []
    views = []
    places = []

    def pack(v):
        t = get(n)(v)
        st = t.untyped_storage()
        if st.data_ptr() not in stores:
            stores[st.data_ptr()] = len(sts)
            u8 = torch.empty(0, dtype=torch.uint8)
            u8.set_(st, 0, (st.nbytes(),), (1,))
            sts.append(u8)
        views.append(v[1])
        places.append((stores[st.data_ptr()], (
            t.element_size(), list(t.shape), list(t.stride()),
            t.storage_offset())))
        return ("ts", stores[st.data_ptr()], str(t.dtype).replace(
            "torch.", ""), list(t.shape), list(t.stride()),
            t.storage_offset())

    def mark(v):
        if v[0] == "t":
            return pack(v)
        if v[0] in ("l", "u"):
            return (v[0], [mark(x) for x in v[1]])
        if v[0] == "d":
            return ("d", {key: mark(x) for key, x in v[1].items()})
        return v
    args, kwargs = mark(a), mark(k)
    before = [n[r].contiguous().clone() for r in views]
    reply = kernels({"kernel": kernel, "grid": list(grid), "args": args,
                     "kwargs": kwargs,
                     "storages": [s.clone() for s in sts]})
    if not isinstance(reply, dict) or "storages" not in reply:
        raise ValueError("the checker's launch of the kernel failed: %s" % (
            str(reply.get("error"))[:300] if isinstance(reply, dict)
            else "no reply"))
    back = reply["storages"]
    if not (isinstance(back, list) and len(back) == len(sts) and
            all(isinstance(b, torch.Tensor) and b.dtype == torch.uint8 and
                b.shape == s.shape for b, s in zip(back, sts))):
        raise ValueError("the launcher sent back other storages")
    wrote = reply.get("written")
    if not (isinstance(wrote, list) and len(wrote) == len(sts) and
            all(isinstance(w, torch.Tensor) and w.dtype == torch.bool and
                w.shape == s.shape for w, s in zip(wrote, sts))):
        # No record of the stores: no value of Triton's to randomize.
        wrote = [torch.zeros(s.shape, dtype=torch.bool) for s in sts]
    for s, b in zip(sts, back):
        s.copy_(b)
    for r, b4, (si, geo) in zip(views, before, places):
        after = n[r].contiguous()
        moved = changed_mask(torch, b4, after)
        if not bool(moved.any()):
            continue
        mask = moved & stored_at(torch, wrote[si], *geo)

        def swap(r=r, after=after, moved=moved, mask=mask):
            # What the launch changed, as it did; what its stores
            # changed, random.
            t = p[r]
            if tuple(t.shape) != tuple(after.shape) or t.dtype != after.dtype:
                raise ValueError("the replays differ")
            c = t.contiguous().clone()
            c[moved] = after[moved]
            c[mask] = perturbed(torch, after[mask], gen)
            t.copy_(c)
        on_p(swap)


# --- The launcher: kernels proved to be Triton, run where no candidate
# code is (ADR 0048).  The worker's record names each launch's kernel by
# its source (and its callees', and the constants and Triton modules it
# reads); the launcher, a fresh interpreter the checker's replay starts,
# refuses a source that is not Triton (Python's parser and a few rules,
# then Triton's own frontend, which lowers it to TTIR for a GPU target),
# runs it in the interpreter on the checker's copies of its arguments and
# records which bytes Triton's stores wrote.


class NotTriton(Exception):
    """A kernel source the launcher does not run."""


def kernel_bundle(fn):
    """What the launcher needs of a kernel (the worker's, from the
    function the interpreter runs): {"name", "funcs": [[name, source]],
    "globals": {name: [kind, value]}}, kind one of jit (a callee's name),
    module (a Triton module's name), const, tldtype.  Raises NotTriton
    when a source cannot be had."""
    import inspect
    import textwrap
    import types
    import triton.language as tl
    funcs, glob, todo, done = [], {}, [fn], set()
    while todo:
        f = todo.pop()
        if f.__name__ in done:
            continue
        done.add(f.__name__)
        try:
            funcs.append([f.__name__, textwrap.dedent(inspect.getsource(f))])
        except (OSError, TypeError) as e:
            raise NotTriton("no source of %s: %s" % (f.__name__, e))
        names, stack = set(), [f.__code__]
        while stack:
            c = stack.pop()
            names.update(c.co_names)
            stack += [k for k in c.co_consts if isinstance(k, types.CodeType)]
        g = getattr(f, "__globals__", {})
        for n in sorted(names):
            if n not in g:
                continue
            v = g[n]
            inner = getattr(v, "fn", None)
            if inner is not None and callable(inner) and \
                    type(v).__name__ in ("InterpretedFunction", "JITFunction"):
                todo.append(inner)
                glob[n] = ["jit", inner.__name__]
            elif isinstance(v, types.ModuleType):
                glob[n] = ["module", v.__name__]
            elif v is None or type(v) in (bool, int, float, str):
                glob[n] = ["const", v]
            elif isinstance(v, tl.constexpr) and (
                    v.value is None or type(v.value) in (bool, int, float)):
                glob[n] = ["const", v.value]
            elif isinstance(v, tl.dtype):
                glob[n] = ["tldtype", v.name]
    return {"name": fn.__name__, "funcs": funcs, "globals": glob}


# Python's builtins a kernel may name (the frontend evaluates some).
KERNEL_BUILTINS = ("range", "min", "max", "len", "int", "float", "bool",
                   "abs", "print", "isinstance", "tuple", "list", "zip",
                   "enumerate", "True", "False", "None", "ValueError",
                   "AssertionError", "RuntimeError", "TypeError")
# Python the launcher refuses in a kernel's source before Triton's frontend
# sees it: what would run at definition or reach outside the language.
KERNEL_BANNED = ("Import", "ImportFrom", "Global", "Nonlocal", "ClassDef",
                 "Lambda", "AsyncFunctionDef", "Await", "Yield",
                 "YieldFrom", "Try", "With", "AsyncWith", "AsyncFor",
                 "NamedExpr", "ListComp", "SetComp", "DictComp",
                 "GeneratorExp", "JoinedStr")
TRITON_MODULE = re.compile(r"^triton(\.language(\.[A-Za-z]\w*)*)?$")


def module_paths(name, text, ns):
    """NotTriton when the function's source reaches, through the
    attributes of a module it names, a module outside triton.language
    (triton.language.core holds builtins, inspect, knobs) or anything
    through a value that is not a module."""
    import ast
    import types
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Attribute):
            continue
        chain, v = [], node
        while isinstance(v, ast.Attribute):
            chain.append(v.attr)
            v = v.value
        if not isinstance(v, ast.Name) or \
                not isinstance(ns.get(v.id), types.ModuleType):
            continue
        obj = ns[v.id]
        for i, attr in enumerate(reversed(chain)):
            if not isinstance(obj, types.ModuleType):
                raise NotTriton("%s reads %s of a %s" % (
                    name, attr, type(obj).__name__))
            obj = getattr(obj, attr, None)
            if isinstance(obj, types.ModuleType) and \
                    not TRITON_MODULE.match(obj.__name__):
                raise NotTriton("%s reaches the module %s" % (
                    name, obj.__name__))


def kernel_source(name, src):
    """The text the launcher runs for a function of a bundle: one plain
    def named name, its decorators dropped; NotTriton otherwise."""
    import ast
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        raise NotTriton("%s does not parse: %s" % (name, e))
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef) \
            or tree.body[0].name != name:
        raise NotTriton("the source of %s is not one function" % name)
    fdef = tree.body[0]
    fdef.decorator_list = []
    for node in ast.walk(fdef):
        kind = type(node).__name__
        if kind in KERNEL_BANNED or (isinstance(node, ast.FunctionDef) and
                                     node is not fdef):
            raise NotTriton("%s uses %s, which is not Triton" % (name, kind))
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise NotTriton("%s reads the attribute %s" % (name, node.attr))
        if isinstance(node, ast.Name) and node.id.startswith("__"):
            raise NotTriton("%s names %s" % (name, node.id))
        if isinstance(node, ast.Attribute) and isinstance(node.ctx,
                                                          ast.Store):
            raise NotTriton("%s sets the attribute %s" % (name, node.attr))
    for a in fdef.args.args + fdef.args.kwonlyargs + fdef.args.posonlyargs:
        if a.annotation is not None and any(
                isinstance(x, ast.Call) for x in ast.walk(a.annotation)):
            raise NotTriton("%s has an annotation that calls" % name)
    for d in fdef.args.defaults + fdef.args.kw_defaults:
        if d is not None and not isinstance(d, ast.Constant):
            raise NotTriton("%s has a default that is not a constant" % name)
    return ast.unparse(tree) + "\n"


TORCH_TT = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16",
            "float64": "fp64", "int8": "i8", "int16": "i16", "int32": "i32",
            "int64": "i64", "uint8": "u8", "bool": "i1"}


class Launcher:
    """The launcher's kernels: built from bundles, proved once per bundle
    and argument types by the prover (a child forked before the
    interpreter is set up, whose Triton is as installed), run in Triton's
    interpreter."""

    def __init__(self, prove=None):
        self.built = {}
        self.proved = {}
        self.files = 0
        self.ask = prove

    def build(self, bundle, proof=False):
        import importlib
        import json as js
        import linecache
        import builtins
        import triton.language as tl
        from triton.runtime.jit import JITFunction
        from triton.runtime.interpreter import InterpretedFunction
        key = (js.dumps(bundle, sort_keys=True), proof)
        if key in self.built:
            return self.built[key]
        safe = {n: getattr(builtins, n) for n in KERNEL_BUILTINS}
        run, proof_ns = {"__builtins__": safe}, {"__builtins__": safe}
        jits = {}
        for n, (kind, v) in bundle["globals"].items():
            if kind == "module":
                if not TRITON_MODULE.match(str(v)):
                    raise NotTriton("it reads the module %s" % v)
                run[n] = proof_ns[n] = importlib.import_module(v)
            elif kind == "const":
                if not (v is None or type(v) in (bool, int, float, str)):
                    raise NotTriton("a constant of type %s" % type(v).__name__)
                run[n] = proof_ns[n] = v
            elif kind == "tldtype":
                d = getattr(tl, str(v), None)
                if not isinstance(d, tl.dtype):
                    raise NotTriton("not a Triton dtype: %r" % (v,))
                run[n] = proof_ns[n] = d
            elif kind == "jit":
                jits[n] = str(v)
            else:
                raise NotTriton("a global of kind %r" % (kind,))
        names = [f for f, _ in bundle["funcs"]]
        if bundle["name"] not in names:
            raise NotTriton("the bundle holds no %s" % bundle["name"])
        for fname, src in bundle["funcs"]:
            text = kernel_source(str(fname), str(src))
            module_paths(str(fname), text, run)
            self.files += 1
            path = "<kernel %s %d>" % (fname, self.files)
            linecache.cache[path] = (len(text), None,
                                     text.splitlines(True), path)
            code = compile(text, path, "exec")
            ns = proof_ns if proof else run
            exec(code, ns)
            ns[fname] = (JITFunction if proof else InterpretedFunction)(
                ns[fname])
        ns = proof_ns if proof else run
        for n, f in jits.items():
            if f not in names:
                raise NotTriton("no source of the callee %s" % f)
            ns[n] = ns[f]
        got = ns[bundle["name"]]
        self.built[key] = got
        return got

    @staticmethod
    def kinds(torch, bound):
        """The types of a launch's arguments as the prover needs them:
        a tensor's dtype, a scalar's value."""
        out = {}
        for name, v in bound.items():
            if isinstance(v, torch.Tensor):
                tt = TORCH_TT.get(str(v.dtype).replace("torch.", ""))
                if tt is None:
                    raise NotTriton("a tensor of %s" % v.dtype)
                out[name] = ["*" + tt, None]
            elif v is None or type(v) in (bool, int, float, str):
                out[name] = ["value", v]
            else:
                raise NotTriton("an argument of type %s" % type(v).__name__)
        return out

    def prove(self, bundle, kinds):
        """In the prover: lower the bundle's kernel with Triton's
        frontend for a GPU target at these argument types; NotTriton when
        it refuses."""
        import json as js
        from triton.compiler import ASTSource
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import make_backend
        from triton._C.libtriton import ir
        key = js.dumps([bundle, kinds], sort_keys=True)
        if key in self.proved:
            if self.proved[key] is not None:
                raise NotTriton(self.proved[key])
            return
        jf = self.build(bundle, proof=True)
        sig, ce = {}, {}
        for i, p in enumerate(jf.params):
            kind, v = kinds.get(p.name, ["value", None])
            if p.is_constexpr or kind == "value" and (
                    v is None or type(v) is str):
                sig[p.name] = "constexpr"
                ce[(i,)] = v
            elif kind != "value":
                sig[p.name] = kind
            elif type(v) is bool:
                sig[p.name] = "i1"
            elif type(v) is int:
                sig[p.name] = "i32" if -2 ** 31 <= v < 2 ** 31 else "i64"
            else:
                sig[p.name] = "fp32"
        target = GPUTarget("cuda", 80, 32)
        backend = make_backend(target)
        options = backend.parse_options({})
        ctx = ir.context()
        ir.load_dialects(ctx)
        backend.load_dialects(ctx)
        try:
            ASTSource(fn=jf, signature=sig, constexprs=ce).make_ir(
                target, options, backend.get_codegen_implementation(options),
                backend.get_module_map(), ctx)
            self.proved[key] = None
        except Exception as e:
            lines = str(e).strip().splitlines()
            why = "Triton's frontend refuses %s: %s" % (
                jf.__name__, lines[-1][:300] if lines else type(e).__name__)
            self.proved[key] = why
            raise NotTriton(why)

    def launch(self, torch, m):
        """Run one request: (its storages after, the bytes Triton's
        stores wrote)."""
        import inspect
        run = self.build(m["kernel"])
        sts = [s.clone() for s in m["storages"]]
        args = decode(m["args"], lambda v: launch_arg(torch, sts, v))
        kwargs = decode(m["kwargs"], lambda v: launch_arg(torch, sts, v))
        try:
            bound = inspect.signature(run.fn).bind(*args, **kwargs)
        except TypeError as e:
            raise NotTriton("the launch does not fit %s: %s" % (
                run.__name__, e))
        bound.apply_defaults()
        why = self.ask(m["kernel"], self.kinds(torch, dict(bound.arguments)))
        if why is not None:
            raise NotTriton(why)
        STORES[0] = []
        try:
            run.run(*args, grid=tuple(int(g) for g in m["grid"]),
                    warmup=False, **kwargs)
            got = STORES[0]
        finally:
            STORES[0] = None
        return sts, written_bytes(torch, sts, got)


def cmd_launcher(argv):
    """The launcher's process: requests on the descriptor argv[0], one
    frame each ({"kernel": bundle, "grid", "args", "kwargs",
    "storages"}), answers on argv[1] ({"storages", "written"} or
    {"error"}), until the requests end.  No candidate module is loaded
    here, only kernel sources Triton's frontend accepts."""
    # TRITON_INTERPRET changes the language as triton imports: the prover
    # (forked before triton is imported) has it unset, this process set.
    os.environ.pop("TRITON_INTERPRET", None)
    import io
    import torch
    req, out = int(argv[0]), int(argv[1])
    ask = start_prover(torch)
    os.environ["TRITON_INTERPRET"] = "1"
    interp_fixes()
    record_stores()
    ln = Launcher(ask)
    while True:
        msg = read_frame(req)
        if msg is None:
            return 0
        try:
            m = torch.load(io.BytesIO(msg), weights_only=True)
            sts, wrote = ln.launch(torch, m)
            reply = {"storages": sts, "written": wrote}
        except NotTriton as e:
            reply = {"error": "not Triton: %s" % str(e)[:600]}
        except Exception as e:
            reply = {"error": "%s: %s" % (type(e).__name__, str(e)[:500])}
        buf = io.BytesIO()
        torch.save(reply, buf)
        write_frame(out, buf.getvalue())


def start_prover(torch):
    """Fork the prover: Triton's frontend in a process whose Triton no
    interpreter has patched.  Returns ask(bundle, kinds): None when the
    frontend lowers the kernel, else why not."""
    import io
    rq, wq = os.pipe()
    ra, wa = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(wq)
            os.close(ra)
            ln = Launcher()
            while True:
                msg = read_frame(rq)
                if msg is None:
                    break
                try:
                    bundle, kinds = torch.load(io.BytesIO(msg),
                                               weights_only=True)
                    ln.prove(bundle, kinds)
                    why = None
                except NotTriton as e:
                    why = str(e)
                except Exception as e:
                    why = "%s: %s" % (type(e).__name__, str(e)[:300])
                buf = io.BytesIO()
                torch.save({"why": why}, buf)
                write_frame(wa, buf.getvalue())
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    os.close(rq)
    os.close(wa)

    def ask(bundle, kinds):
        buf = io.BytesIO()
        torch.save([bundle, kinds], buf)
        try:
            write_frame(wq, buf.getvalue())
        except OSError:
            return "the prover ended"
        data = read_frame(ra)
        if data is None:
            return "the prover ended"
        got = torch.load(io.BytesIO(data), weights_only=True)
        return got.get("why") if isinstance(got, dict) else "no answer"
    return ask


def start_launcher():
    """Start the launcher; (send a request and get its answer, stop)."""
    import io
    import subprocess
    import torch
    rq, wq = os.pipe()
    ra, wa = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-I", "-B", os.path.abspath(__file__), "launcher",
         str(rq), str(wa)], stdin=subprocess.DEVNULL, stdout=2, stderr=2,
        pass_fds=(rq, wa), close_fds=True)
    os.close(rq)
    os.close(wa)

    def call(req):
        buf = io.BytesIO()
        torch.save(req, buf)
        try:
            write_frame(wq, buf.getvalue())
        except OSError:
            return None
        data = read_frame(ra)
        if data is None:
            return None
        return torch.load(io.BytesIO(data), weights_only=True)

    def stop():
        os.close(wq)
        os.close(ra)
        proc.wait()
    return call, stop


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
    prog = cfg.get("progress")
    cpu = bool(cfg["cpu"])
    tl = Tools(torch, cpu)
    state = {"phase": "load"}

    def enter(phase):
        """The phase, for the checker's log (names a timeout)."""
        state["phase"] = phase
        try:
            os.write(prog, (phase + "\n").encode())
        except (OSError, TypeError):
            pass

    def send(**fields):
        state.update(fields)
        buf = io.BytesIO()
        torch.save(state, buf)
        write_frame(out, buf.getvalue())
        return 0

    def failed(phase, e):
        traceback.print_exc()
        return send(event="error", phase=phase, type=type(e).__name__,
                    module=type(e).__module__, message=str(e)[:4000],
                    cand_line=cand_line(e, cand_path))

    traced = None
    if cpu:
        # Before the candidate loads: what the interpreter gets wrong is
        # fixed first, and the trace wraps the fixed launches.
        try:
            fixed = interp_fixes()
            say("Triton's interpreter: worked around: %s" % ", ".join(fixed))
        except Exception as e:
            say("cannot work around the interpreter's limits: %s: %s" % (
                type(e).__name__, e))
        try:
            trace_launches()
            traced = trace_mode()
        except Exception as e:
            say("cannot trace Triton's launches: %s" % e)
    try:
        ref, _ = load_reference(ref_path, tl, sizes=cfg.get("sizes") or None)
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
    enter("init")
    try:
        with torch.no_grad(), tl.shim():
            tl.seed(cfg["seed"])
            new_model = model_new(*tl.clone(init_inputs))
            if isinstance(new_model, torch.nn.Module):
                new_model = new_model.to(tl.dev)
        tl.sync(tl.dev)
    except BaseException as e:
        return failed("init", e)
    enter("correctness")
    outs = []
    logs = [] if traced is not None else None
    for s in cfg["seeds"]:
        tl.seed(s)
        inputs = tl.to_dev(ref.get_inputs())
        tr = Trace(torch) if traced is not None else None
        TRACE[0] = tr
        try:
            with torch.no_grad(), tl.shim():
                if traced is not None:
                    with traced:
                        o = new_model(*inputs)
                else:
                    o = new_model(*inputs)
            tl.sync(tl.dev)
        except Exception as e:
            return failed("correctness", e)
        finally:
            TRACE[0] = None
        if not isinstance(o, torch.Tensor):
            return send(event="fail", sub="not-a-tensor", message="ModelNew"
                        " returned %s, not a tensor" % type(o).__name__)
        outs.append(o.detach().cpu().contiguous().clone()
                    .as_subclass(torch.Tensor))
        if tr is not None:
            if tr.bad is None:
                tr.events.append(("out", tr.enc(o)))
                logs.append(tr.events)
            else:
                logs.append(("unrecorded", tr.bad))
    stats_ = None
    if not cpu:
        enter("timing")
        tl.seed(cfg["seed"])
        try:
            stats_ = tl.timed(new_model, tl.to_dev(ref.get_inputs()),
                              cfg["trials"])
        except BaseException as e:
            return failed("timing", e)
    return send(outs=outs, logs=logs, stats=stats_)


# --- TritonBench: the test code appended, stdout compared ------------------

TB_SEP = "#" * 146      # TritonBench's line between the code and its test
TB_OUT_MAX = 1 << 24    # the most bytes of a program's output kept
TB_SEED = 0             # the seed of random, numpy and torch in every run
# torch's factories whose device= the CPU path reads as the CPU.
TB_FACTORIES = (
    "tensor", "as_tensor", "asarray", "from_numpy", "zeros", "ones",
    "empty", "full", "rand", "randn", "randint", "randperm", "arange",
    "linspace", "logspace", "eye", "zeros_like", "ones_like", "empty_like",
    "full_like", "rand_like", "randn_like", "randint_like", "empty_strided",
    "normal", "tril_indices", "triu_indices", "complex", "scalar_tensor")


def tb_test_code(test):
    """The test code as every run appends it, and the name whose value
    the checker prints, or None.  TritonBench's tests mostly end in
    `test_results = test_x()` and print nothing, so identical stdout
    would prove nothing: when the test code calls print() nowhere, the
    value of the last top-level NAME assigned from a test_*() call is
    compared as if print(NAME) had been appended, but the checker prints
    it (tb_value_diff()), in full, from the plain data the program sends
    (cmd_tbrun --value), not the program: a print() of the candidate's
    own, or torch's summary of a large tensor (six elements), cannot
    decide.  The test code itself is run unchanged."""
    import ast
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return test, None
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and \
                n.func.id == "print":
            return test, None
    name = None
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], ast.Name) and \
                isinstance(n.value, ast.Call) and \
                isinstance(n.value.func, ast.Name) and \
                n.value.func.id.startswith("test"):
            name = n.targets[0].id
    return test, name


TB_TOL = 1e-4   # print()'s 4 decimals; at least 2 eps of the dtype


def tb_count(v, torch):
    """How many elements of v the comparison reads."""
    if isinstance(v, torch.Tensor):
        return v.numel()
    if isinstance(v, dict):
        return sum(tb_count(x, torch) for x in v.values())
    if isinstance(v, list):
        return sum(tb_count(x, torch) for x in v)
    return 1


def tb_short(v):
    """A short text of the candidate's value v for the log."""
    return repr(v)[:120]


def tb_value_diff(got, want, where, torch):
    """Where the candidate's value got differs from the reference's want
    as print() would show every element of it: None when it does not,
    else one line naming the place and the candidate's part of it, never
    the reference's values (the line goes to the repair request).  Same
    types, dict keys in the same order, lists of the same length; a
    tensor of the same dtype and shape whose every element is the
    reference's within TB_TOL (absolute and relative; 2 eps of a float
    dtype when that is larger, NaN equal to NaN), integers and booleans
    exactly."""
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            return "%s: got %s, want a tensor" % (where, type(got).__name__)
        if got.dtype != want.dtype or tuple(got.shape) != tuple(want.shape):
            return "%s: got a %s tensor of shape %s, want %s of shape %s" % (
                where, got.dtype, tuple(got.shape), want.dtype,
                tuple(want.shape))
        if want.is_floating_point() or want.is_complex():
            tol = TB_TOL
            if want.is_floating_point():
                tol = max(tol, 2 * torch.finfo(want.dtype).eps)
            same = torch.isclose(got, want, rtol=tol, atol=tol,
                                 equal_nan=True)
        else:
            same = got == want
        if bool(same.all()):
            return None
        bad = (~same).nonzero()
        idx = tuple(int(i) for i in bad[0])
        return "%s: %d of %d elements differ, the first at %s: got %s" % (
            where, bad.shape[0], want.numel(), idx,
            tb_short(got[idx].item()))
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return "%s: got %s, want a dict" % (where, type(got).__name__)
        if list(got) != list(want):
            return "%s: got the keys %s, want %s" % (
                where, tb_short(list(got)), tb_short(list(want)))
        for k in want:
            d = tb_value_diff(got[k], want[k], "%s[%r]" % (where, k), torch)
            if d is not None:
                return d
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return "%s: got %s, want a list or tuple of %d" % (
                where, tb_short(got) if not isinstance(got, list) else
                "%d items" % len(got), len(want))
        for i, (x, y) in enumerate(zip(got, want)):
            d = tb_value_diff(x, y, "%s[%d]" % (where, i), torch)
            if d is not None:
                return d
        return None
    if isinstance(want, float) and isinstance(got, float):
        if math.isclose(got, want, rel_tol=TB_TOL, abs_tol=TB_TOL) or \
                (math.isnan(got) and math.isnan(want)):
            return None
        return "%s: got %s" % (where, tb_short(got))
    if type(got) is not type(want) or got != want:
        return "%s: got %s" % (where, tb_short(got))
    return None


def tb_program(code, test):
    """code with the test appended, as TritonBench's 0_call_acc.py
    writes it: the code, a line of 146 '#', the test."""
    return code.rstrip("\n") + "\n" + TB_SEP + "\n" + test


def cuda_to_cpu(torch):
    """On the CPU path, for the reference and the candidate alike: a
    device "cuda" given to torch's factories, Tensor.to() or a module is
    the CPU, and torch.cuda's seeding and synchronising do nothing.
    TritonBench's tests allocate everything on "cuda"."""
    def dev(d):
        if isinstance(d, str) and d.split(":")[0] == "cuda":
            return "cpu"
        if isinstance(d, torch.device) and d.type == "cuda":
            return torch.device("cpu")
        return d

    def wrap(fn):
        def f(*a, **k):
            if "device" in k:
                k["device"] = dev(k["device"])
            return fn(*a, **k)
        f.__name__ = getattr(fn, "__name__", "factory")
        f.__doc__ = getattr(fn, "__doc__", None)
        return f

    for name in TB_FACTORIES:
        if hasattr(torch, name):
            setattr(torch, name, wrap(getattr(torch, name)))
    to = torch.Tensor.to

    def to_cpu(self, *a, **k):
        a = tuple(dev(x) if isinstance(x, (str, torch.device)) else x
                  for x in a)
        if "device" in k:
            k["device"] = dev(k["device"])
        return to(self, *a, **k)
    torch.Tensor.to = to_cpu
    for name in ("manual_seed", "manual_seed_all", "synchronize",
                 "empty_cache", "set_device"):
        setattr(torch.cuda, name, lambda *a, **k: None)


def tb_stdin_line():
    """The one line tb_run writes on stdin (the descriptor of the value
    pipe), read from the descriptor itself (no buffer of sys.stdin keeps
    it), then stdin is /dev/null."""
    got = b""
    while not got.endswith(b"\n") and len(got) < 256:
        c = os.read(0, 256)
        if not c:
            break
        got += c
    os.close(0)
    os.open(os.devnull, os.O_RDONLY)
    return got.decode("ascii", "replace").split()


def tb_setup(cpu, record):
    """Everything cmd_tbrun does before the program runs: the value
    pipe's descriptor from stdin; with cpu, Triton's interpreter with the
    worker's fixes, "cuda" read as the CPU and the GPU shim; with record
    (cpu only), the trace of KernelBench's worker (trace_launches(),
    trace_mode()) installed; the seeds and torch's print options.
    Returns (the descriptor of the value pipe or -1, the dispatch mode
    that records, or None).  Nothing here switches what a kernel stores:
    the Triton check is the checker's replay of the record (ADR 0057),
    so the program's process holds no switch to find."""
    words = tb_stdin_line()
    fd = int(words[0]) if words and words[0].isdigit() else -1
    if cpu:
        os.environ["TRITON_INTERPRET"] = "1"
    import random
    import torch
    traced = None
    if cpu:
        try:
            interp_fixes()
        except Exception as e:
            sys.stderr.write("assay-triton: cannot work around the"
                             " interpreter's limits: %s: %s\n" % (
                                 type(e).__name__, e))
        if record:
            try:
                trace_launches()
                traced = trace_mode()
            except Exception as e:
                sys.stderr.write("assay-triton: cannot trace Triton's"
                                 " launches: %s\n" % e)
        cuda_to_cpu(torch)
        GpuShim(torch).__enter__()
    # Every element printed, on both sides (ADR 0046): torch's summary
    # of a tensor over 1000 elements shows six of them.
    torch.set_printoptions(profile="full")
    random.seed(TB_SEED)
    try:
        import numpy
        numpy.random.seed(TB_SEED)
    except Exception:
        pass
    torch.manual_seed(TB_SEED)
    return fd, traced


def tb_plain(v, torch, depth=0):
    """v as plain data for the value pipe: a tensor as a detached,
    contiguous CPU copy of class Tensor; dicts, lists and tuples
    element by element; numbers, strings, bytes and None as they are;
    a NumPy array as a tensor, a NumPy scalar as a number; anything
    else as its repr, cut to 4000 characters."""
    if depth > 32:
        return "<nested too deep>"
    if isinstance(v, torch.Tensor):
        return v.detach().cpu().contiguous().clone().as_subclass(
            torch.Tensor)
    if isinstance(v, dict):
        return {str(k): tb_plain(x, torch, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [tb_plain(x, torch, depth + 1) for x in v]
    if v is None or isinstance(v, (bool, int, float, str, bytes)):
        return v
    if type(v).__module__ == "numpy":
        # An array as a tensor (its repr shows six elements of a large
        # one, as torch's does), a NumPy scalar as a Python number.
        try:
            if hasattr(v, "shape") and v.shape != ():
                return torch.from_numpy(v.copy())
            return v.item()
        except Exception:
            pass
    return repr(v)[:4000]


def tb_refs(tr, v, torch, depth=0):
    """v's structure as tb_plain() sends it, each tensor a reference of
    the trace tr (Trace.enc()'s forms: ("t", ref), ("l", [...]),
    ("d", {...})), anything else its plain value ("v", ...): what the
    record's "out" names, so that the checker's replay rebuilds the
    value the program sent."""
    if depth > 32:
        return ("v", "<nested too deep>")
    if isinstance(v, torch.Tensor):
        return ("t", tr.ref(v))
    if isinstance(v, dict):
        return ("d", {str(k): tb_refs(tr, x, torch, depth + 1)
                      for k, x in v.items()})
    if isinstance(v, (list, tuple)):
        return ("l", [tb_refs(tr, x, torch, depth + 1) for x in v])
    return ("v", tb_plain(v, torch, depth))


def tb_has_tensor(v, torch):
    """Whether the structure v holds a tensor."""
    if isinstance(v, torch.Tensor):
        return True
    if isinstance(v, dict):
        return any(tb_has_tensor(x, torch) for x in v.values())
    if isinstance(v, (list, tuple)):
        return any(tb_has_tensor(x, torch) for x in v)
    return False


def tb_print_hook(torch, shown):
    """Wrap builtins.print so that each call whose arguments hold a
    tensor also appends them to shown: their structure, each tensor a
    copy taken at the call (its copy recorded in the trace when one
    runs, so that later in-place changes do not reach it).  What print
    writes is unchanged; its formatting is not recorded (Trace.quiet).
    The stdout mode's values (ADR 0057)."""
    import builtins
    real = builtins.print

    def snap(v, depth=0):
        if isinstance(v, torch.Tensor):
            return v.detach().clone()
        if depth < 32 and isinstance(v, dict):
            return {k: snap(x, depth + 1) for k, x in v.items()}
        if depth < 32 and isinstance(v, (list, tuple)):
            return [snap(x, depth + 1) for x in v]
        return v

    def hooked(*args, **kwargs):
        if tb_has_tensor(args, torch):
            shown.append(snap(list(args)))
        tr = TRACE[0]
        if tr is not None:
            tr.quiet += 1
        try:
            return real(*args, **kwargs)
        finally:
            if tr is not None:
                tr.quiet -= 1
    builtins.print = hooked


def cmd_tbrun(argv):
    """One program (a reference or a candidate with the test appended),
    run as a script: kb_harness.py tbrun FILE [--cpu] [--record]
    [--value NAME | --printed], and on stdin one line, the descriptor of
    the value pipe.  Every run seeds random, numpy and torch alike, so
    the two sides draw the same inputs, and prints tensors in full.
    With --cpu: Triton's interpreter with the worker's fixes, "cuda"
    read as the CPU, the GPU shim.  With --value NAME, the program's
    global NAME after it ran goes, as plain data (tb_plain()), to the
    value pipe as one frame (an 8-byte big-endian length, a torch.save):
    the checker prints it, not the program (ADR 0046); with --printed,
    the tensors handed to print() (tb_print_hook()) go there instead, a
    list of each call's arguments.  With --record (and --cpu), the whole
    program runs under KernelBench's trace (ADR 0048) and the frame
    carries the record too: every ATen op and Triton launch from here to
    the end, values drawn from a generator as leaves, and an "out" event
    naming the tensors of the value sent (tb_refs()); the checker
    replays it (ADR 0057).  Nothing the frame says is believed but what
    the checker recomputes."""
    import io
    import runpy
    path = argv[0]
    opts = argv[1:]
    cpu = "--cpu" in opts
    name = opts[opts.index("--value") + 1] if "--value" in opts else None
    shown = [] if "--printed" in opts else None
    fd, traced = tb_setup(cpu, "--record" in opts)
    import torch
    if shown is not None:
        tb_print_hook(torch, shown)
    tr = Trace(torch) if traced is not None else None
    sys.argv = [path]
    TRACE[0] = tr
    try:
        if traced is not None:
            with traced:
                g = runpy.run_path(path, run_name="__main__")
        else:
            g = runpy.run_path(path, run_name="__main__")
    finally:
        TRACE[0] = None
    sys.stdout.flush()
    if fd < 0 or (name is None and shown is None):
        return 0
    v = g.get(name) if name is not None else shown
    frame = {"has": name is None or name in g, "value": tb_plain(v, torch)}
    if tr is not None:
        frame["record"] = ("unrecorded", tr.bad) if tr.bad is not None \
            else tr.events + [("out", tb_refs(tr, v, torch))]
    buf = io.BytesIO()
    torch.save(frame, buf)
    write_frame(fd, buf.getvalue())
    os.close(fd)
    return 0


class TbRun:
    """What a program printed: out (stdout bytes), err (stderr text),
    status (exit status), value (the frame the value pipe carried: a
    dict {"has", "value"}, or None when it carried none or not one
    frame)."""

    def __init__(self, out, err, status, value=None):
        self.out, self.err, self.status = out, err, status
        self.value = value


TB_VALUE_MAX = 1 << 32  # the most bytes of a printed value's frame


def tb_value(data):
    """The value frame the pipe carried, loaded with weights_only=True
    (plain tensors and containers, no code), or None."""
    import io
    import torch
    if len(data) < 8:
        return None
    size = struct.unpack(">Q", bytes(data[:8]))[0]
    if size != len(data) - 8:
        return None
    try:
        got = torch.load(io.BytesIO(bytes(data[8:])), weights_only=True)
    except Exception:
        return None
    return got if isinstance(got, dict) and "value" in got else None


def tb_run(text, name, cpu, cache=None, value=None, record=False):
    """Write text as name, run it with cmd_tbrun in a process of its own
    (no nonce, not the marker channel), remove it; its stdout, stderr
    and value pipe read here, stdout and stderr each kept to TB_OUT_MAX
    bytes.  The log gets the size of its stdout and its exit status,
    never what it printed (the reference's output would reach the repair
    request, ADR 0046), and its stderr, the reference's only when it
    failed.  cache: Triton's cache directory for the run (the
    reference's kernels must not stay where the candidate runs).
    value: the name whose value the program sends (tb_plain()), or ""
    for the tensors it hands to print() (--printed); record: the run is
    recorded for the checker's replay (--record)."""
    import selectors
    import subprocess
    with open(name, "w") as f:
        f.write(text)
    args = [sys.executable, "-I", "-B", os.path.abspath(__file__), "tbrun",
            name] + (["--cpu"] if cpu else []) + \
        (["--record"] if record else []) + \
        (["--printed"] if value == "" else
         ["--value", value] if value is not None else [])
    env = dict(os.environ)
    if cache is not None:
        env["TRITON_CACHE_DIR"] = cache
    vfd, vwfd = os.pipe()
    p = subprocess.Popen(args, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         close_fds=True, env=env, pass_fds=(vwfd,))
    os.close(vwfd)
    try:
        p.stdin.write(b"%d\n" % vwfd)
        p.stdin.close()
    except OSError:
        pass
    ofd, efd = p.stdout.fileno(), p.stderr.fileno()
    got = {ofd: bytearray(), efd: bytearray(), vfd: bytearray()}
    cap = {ofd: TB_OUT_MAX, efd: TB_OUT_MAX, vfd: TB_VALUE_MAX + 8}
    sel = selectors.DefaultSelector()
    for fd in got:
        sel.register(fd, selectors.EVENT_READ)
    left = 3
    while left:
        for key, _ in sel.select():
            c = os.read(key.fd, 1 << 20)
            if not c:
                sel.unregister(key.fd)
                left -= 1
            elif len(got[key.fd]) < cap[key.fd]:
                got[key.fd] += c
    sel.close()
    os.close(vfd)
    status = p.wait()
    p.stdout.close()
    p.stderr.close()
    try:
        os.unlink(name)
    except OSError:
        pass
    out = bytes(got[ofd])
    err = bytes(got[efd]).decode("utf-8", "replace")
    reference = name.startswith("tb_reference")
    sys.stderr.write("--- %s: stdout %d bytes (not shown), exit status"
                     " %d\n" % (name, len(out), status))
    if err and (status != 0 or not reference):
        sys.stderr.write("--- %s: stderr\n%s" % (name, err[-20000:]))
    sys.stderr.flush()
    return TbRun(out, err, status,
                 tb_value(got[vfd]) if value is not None else None)


TB_EXC = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*(Error|Exception|Exit|"
                    r"Interrupt|Resources|Warning))(: (.*))?$")


def tb_exception(err, name, ncand):
    """(type, message, line) of the last exception in a run's stderr,
    the line the innermost frame of the program within the candidate's
    first ncand lines (0 when none).  The candidate's own word: believed
    only as the failure it already is."""
    tb = err.rfind("Traceback (most recent call last):")
    text = err[tb:] if tb >= 0 else err
    typ, msg, line = None, "", 0
    frame = re.compile(r'^  File "([^"]*/)?%s", line (\d+)' %
                       re.escape(name))
    for l in text.splitlines():
        m = frame.match(l)
        if m:
            n = int(m.group(2))
            line = n if n <= ncand else line
        m = TB_EXC.match(l)
        if m:
            typ, msg = m.group(1).split(".")[-1], m.group(4) or ""
    if typ is None:
        last = [l for l in err.splitlines() if l.strip()]
        return "Exception", (last[-1] if last else "no message")[:300], line
    return typ, msg, line


def tb_first_diff(a, b):
    """(line number, got) of the first line where stdout a differs from
    the reference's b: the candidate's line cut to 160 characters, never
    the reference's (the line goes to the repair request, and a
    candidate that prints what it was shown would pass, ADR 0046)."""
    la = a.decode("utf-8", "replace").splitlines()
    lb = b.decode("utf-8", "replace").splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<end of output>"
        y = lb[i] if i < len(lb) else "<end of output>"
        if x != y:
            return i + 1, x[:160]
    return 0, ""


def tb_leaf_note(rec):
    """For the evidence of a value the randomized replay left right: how
    many tensors of the value the record holds only as values (leaves:
    made outside ATen, by NumPy, tolist() or Python numbers), when any
    is; else ""."""
    try:
        leaves = {e[1] for e in rec if e[0] == "leaf"}
        outs = []

        def walk(v):
            if v[0] == "t":
                outs.append(v[1])
            elif v[0] == "l":
                for x in v[1]:
                    walk(x)
            elif v[0] == "d":
                for x in v[1].values():
                    walk(x)
        walk(rec[-1][1])
    except Exception:
        return ""
    n = sum(1 for r in outs if r in leaves)
    if not n:
        return ""
    return ("; %d of its %d tensors enter the record as values, not made"
            " by a recorded PyTorch operation or Triton kernel (NumPy,"
            " tolist(), Python numbers)" % (n, len(outs)))


def tb_triton(k, ref, printed, torch):
    """The Triton check of a TritonBench program (ADR 0057): None when a
    Triton kernel computes what the test prints or computes, else why
    not.  k: the candidate's recorded run on the CPU path (tb_run(...,
    record=True)); ref: the reference's run there; printed: the name
    whose value is compared, or None for the tensors handed to print().
    The run's value must be the reference's; the checker replays its
    record in a forked child (isolated(), replay_records()): as
    recorded, the replay must give the value the run sent (else the
    record is not what ran), and with every value its Triton kernels
    store randomized, a value that is not the reference's (else it does
    not depend on what Triton stored); a randomized replay that raises
    counts as still right.  Whoever wrote the record, the checker
    recomputes it: it is believed only as far as the replay goes."""
    where = printed if printed is not None else "print()'s tensors"
    want = ref.value["value"]
    if printed is None and not tb_has_tensor(want, torch):
        return ("the test hands print() no tensor (only Python values):"
                " nothing the checker can replay shows what computed them")
    if k.status != 0:
        return "its recorded run on the CPU path fails (exit status %d)" \
            % k.status
    if k.value is None or not k.value["has"]:
        return ("its recorded run sent no %s as one frame of plain data"
                % ("value of %s" % printed if printed is not None else
                   "list of the tensors it printed"))
    got = k.value["value"]
    if printed is None and not tb_has_tensor(got, torch):
        return ("the program's run handed print() no tensor where the"
                " reference's did (its stdout written otherwise): what it"
                " printed cannot be replayed")
    d = tb_value_diff(got, want, where, torch)
    if d is not None:
        return "the value its recorded run sent is not the reference's: %s" \
            % d
    rec = k.value.get("record")
    if rec is None:
        return "its run sent no record of what it did"
    out = isolated(lambda: replay_records([rec], "the program"))
    if not (isinstance(out, list) and len(out) == 1 and
            isinstance(out[0], (list, tuple)) and len(out[0]) == 3):
        return "the checker's replay of its record gave no result"
    got_rec, got_rnd, err = out[0]
    if err is not None:
        return err if err.startswith("the program did what") else \
            "the checker cannot replay what the program recorded: %s" % err
    d = tb_value_diff(tb_plain(got_rec, torch), got, where, torch)
    if d is not None:
        return ("the checker's replay of what the program recorded (its"
                " PyTorch operations, its Triton kernels run by the"
                " checker's launcher) does not give the value it sent: %s"
                % d)
    if got_rnd is None or tb_value_diff(tb_plain(got_rnd, torch), want,
                                        where, torch) is None:
        return ("replayed by the checker with every value its Triton"
                " kernels store randomized, the value is still the"
                " reference's%s%s" % (" (the replay raised)"
                                      if got_rnd is None else "",
                                      tb_leaf_note(rec)))
    say("replayed with Triton's stores randomized: the value is not the"
        " reference's")
    return None


def cmd_tbeval(argv):
    """TritonBench's execution accuracy (thunlp/TritonBench, EVAL/eval_G
    and eval_T: 0_call_acc.py appends the test code, 1_exe_acc.py
    compares the stdout of the two programs): kb_harness.py tbeval
    REFERENCE TEST CANDIDATE.  The checker (this process, holding the
    nonce, undumpable) reads the reference and removes it from the work
    area, runs the reference with the test appended, then the candidate
    with the same test, each in a process of its own, and compares the
    two stdouts byte for byte itself; the candidate never sees the
    reference's code or output.  Triton is proved on the output path as
    in eval (ADR 0048, 0057): the candidate's run on the CPU path is
    recorded, and the checker replays the record (tb_triton()); a
    value the replay does not give, or that is still the reference's
    with Triton's stores randomized, is no-triton-kernel."""
    import shutil
    import tempfile
    if len(argv) != 3:
        say("usage: kb_harness.py tbeval REFERENCE TEST CANDIDATE")
        return 2
    ref_path, test_path, cand_path = argv
    if checker_start() is not None:
        return EXIT_SKIP
    import torch
    cpu = cpu_mode()
    ref = read_source(ref_path)
    test = read_source(test_path)
    src = read_source(cand_path)
    try:
        os.unlink(ref_path)
    except OSError as e:
        say("cannot remove the reference: %s" % e)
    test, printed = tb_test_code(test)
    if printed is not None:
        say("the test code prints nothing: the value of %s is compared"
            " in full, as print(%s) would show every element, printed"
            " by this checker" % (printed, printed))
    # What each run sends: NAME's value, or ("") the tensors it prints.
    sent = printed if printed is not None else ""
    if cpu:
        why = cpu_skip_source(src)
        if why is not None:
            emit("skip", sub="cuda-only", reason=why)
            return EXIT_SKIP
        say("no GPU: both programs on the CPU (Triton's interpreter,"
            " \"cuda\" read as the CPU)")
    emit("phase", phase="reference")
    cache = tempfile.mkdtemp(prefix="tb-ref-cache-")
    try:
        r = tb_run(tb_program(ref, test), "tb_reference.py", cpu,
                   cache=cache, value=sent)
        r_cpu = r if cpu else tb_run(tb_program(ref, test),
                                     "tb_reference.py", True, cache=cache,
                                     value=sent)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if r.status != 0:
        typ, msg, _ = tb_exception(r.err, "tb_reference.py", 0)
        why = cuda_only(typ, msg)
        if cpu and why is not None and REF_CUDA_SOURCE.search(
                code_text(ref + "\n" + test)):
            emit("skip", sub="gpu-only", phase="reference",
                 reason="the task's reference cannot run without a GPU: "
                 + why)
            return EXIT_SKIP
        emit("defect", sub="reference-fails",
             message="the reference with the test code appended fails"
             " (exit status %d): %s: %s" % (r.status, typ,
                                            msg.splitlines()[0][:300]
                                            if msg else ""))
        return 1
    if printed is not None and (r.value is None or not r.value["has"]):
        emit("defect", sub="reference-silent",
             message="the reference with the test code appended sets no"
             " %s to compare" % printed)
        return 1
    if printed is None and not r.out.strip():
        emit("defect", sub="reference-silent",
             message="the reference with the test code appended prints"
             " nothing: identical stdout would prove nothing")
        return 1
    emit("phase", phase="correctness")
    ncand = len(src.splitlines())
    c = tb_run(tb_program(src, test), "tb_candidate.py", cpu,
               value=sent, record=cpu)
    if c.status != 0:
        typ, msg, line = tb_exception(c.err, "tb_candidate.py", ncand)
        if cpu:
            skip = source_needs_gpu(src, typ, msg, line)
            if skip is not None:
                emit("skip", sub=skip[0], phase="correctness",
                     reason=skip[1], cand_line=line)
                return EXIT_SKIP
        emit("error", phase="correctness", type=typ, message=msg[:4000],
             cand_line=line)
        return 1
    if c.out != r.out:
        n, got = tb_first_diff(c.out, r.out)
        emit("fail", sub="stdout-mismatch", line=n,
             message="stdout differs from the reference's at line %d: got"
             " %r" % (n, got))
        return 1
    if printed is not None:
        d = "%s: not set, or not sent as one frame of plain data" % \
            printed if c.value is None or not c.value["has"] else \
            tb_value_diff(c.value["value"], r.value["value"], printed, torch)
        if d is not None:
            emit("fail", sub="stdout-mismatch", value=printed,
                 message="print(%s) would differ from the reference's: %s"
                 % (printed, d))
            return 1
    checked = r_cpu.status == 0 and r_cpu.value is not None and \
        r_cpu.value["has"]
    replayed = 0
    if checked:
        k = c if cpu else tb_run(tb_program(src, test), "tb_candidate.py",
                                 True, value=sent, record=True)
        why = tb_triton(k, r_cpu, printed, torch)
        if why is not None:
            emit("fail", sub="no-triton-kernel",
                 message="no Triton kernel computes what the test %s: %s"
                 % ("prints" if printed is None else "computes", why))
            return 1
        replayed = 1
    else:
        say("the Triton check is not made: the reference does not run on"
            " the CPU path")
    emit("result", mode="stdout", device="cpu" if cpu else "cuda",
         lines=len(r.out.splitlines()), bytes=len(r.out),
         triton_checked=checked, triton_replayed=replayed,
         printed=printed,
         values=tb_count(r.value["value"], torch)
         if r.value is not None and (
             printed is not None or tb_has_tensor(r.value["value"], torch))
         else 0)
    return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        return cmd_check()
    if len(sys.argv) >= 2 and sys.argv[1] == "eval":
        return cmd_eval(sys.argv[2:])
    if len(sys.argv) >= 2 and sys.argv[1] == "worker":
        return cmd_worker(sys.argv[2:])
    if len(sys.argv) >= 3 and sys.argv[1] == "tbrun":
        return cmd_tbrun(sys.argv[2:])
    if len(sys.argv) >= 2 and sys.argv[1] == "tbeval":
        return cmd_tbeval(sys.argv[2:])
    if len(sys.argv) >= 4 and sys.argv[1] == "launcher":
        return cmd_launcher(sys.argv[2:])
    say("usage: kb_harness.py check | eval REFERENCE CANDIDATE [options] |"
        " tbeval REFERENCE TEST CANDIDATE")
    return 2


if __name__ == "__main__":
    sys.exit(main())
