"""tbcheck.py HARNESS - the rules of kb_harness.py tbeval that no row of
e2e 300 pins alone (ADR 0046's amendment).  Run with the project venv's
python3; exits 1 on the first failure.

  - tb_value_diff() compares every element: one element off in the
    middle of 1024 (torch's summary shows the first and last three)
    differs; NaN equals NaN; float16 gets two of its epsilons; dtype,
    shape, dict keys and their order decide; the message names the
    candidate's value and never the reference's.
  - tb_first_diff() gives the candidate's line only.
  - No poisoned run exists (ADR 0057): the harness has no poison_stores
    and tbrun takes no "poison" word; in a recorded run the program finds
    Triton's own store functions (no wrapper of the harness's), and no
    local or global of any live frame names a poison.
  - The record is the checker's to replay: a recorded run of a Triton
    kernel on random inputs records the draws as leaves (no random op in
    the record), and replay_records() gives, as recorded, the value the
    run sent and, with Triton's stores randomized, another one; the same
    program computing in PyTorch replays to the same value both ways.
  - A record that names a draw as an op (not a leaf) does not replay:
    as recorded and randomized it would draw two values, a difference
    no Triton store made.
  - print()'s tensors (--printed) are copies taken at the call: a tensor
    printed, changed in place and printed again is sent, and replayed,
    as two values.
  - tbeval on a test that prints (stdout mode): a Triton kernel passes;
    plain PyTorch fails no-triton-kernel (before: the poisoned run); so
    does plain PyTorch that writes its output without print() (no tensor
    handed to print(), nothing to replay).
"""
import importlib.util
import math
import os
import subprocess
import sys
import tempfile

import torch

HARNESS = os.path.abspath(sys.argv[1])
spec = importlib.util.spec_from_file_location("kb_harness", HARNESS)
kb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kb)


def check(what, ok):
    if not ok:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


diff = kb.tb_value_diff
torch.manual_seed(0)
ref = torch.rand(1024) + 1.0
mid = ref.clone()
mid[500] = 12345.0     # a value the reference does not hold
check("equal values", diff(ref.clone(), ref, "r", torch) is None)
d = diff(mid, ref, "r", torch)
check("one element off in the middle: %s" % d,
      d is not None and "1 of 1024 elements differ, the first at (500,)" in d
      and "12345" in d)
check("the reference's value is not in the message",
      "%.4f" % ref[500].item() not in d and
      repr(ref[500].item()) not in d)
check("within 1e-4", diff(ref * (1 + 5e-5), ref, "r", torch) is None)
check("past 1e-4", diff(ref * (1 + 1e-3), ref, "r", torch) is not None)
n = torch.tensor([1.0, math.nan])
check("NaN equals NaN", diff(n.clone(), n, "r", torch) is None)
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
check("float16: one epsilon off is equal",
      diff(h * (1 + 9.7e-4), h, "r", torch) is None)
check("dtype decides", diff(ref.double(), ref, "r", torch) is not None)
check("shape decides", diff(ref[:-1], ref, "r", torch) is not None)
check("dict keys' order decides",
      diff({"b": 1, "a": 2}, {"a": 2, "b": 1}, "r", torch) is not None)
d = diff({"a": ref, "b": mid}, {"a": ref, "b": ref}, "r", torch)
check("the place in a dict: %s" % d, d is not None and d.startswith("r['b']"))
check("an int", diff(3, 4, "r", torch) is not None and
      diff(3, 3, "r", torch) is None)
import numpy  # noqa: E402
big = numpy.arange(2000.0)
plain = kb.tb_plain({"a": big, "b": (1, ref)}, torch)
check("a NumPy array is sent as a tensor, every element compared",
      isinstance(plain["a"], torch.Tensor) and plain["a"].numel() == 2000)
big2 = big.copy()
big2[1000] = -1.0
check("an array off in the middle differs",
      diff(kb.tb_plain(big2, torch), plain["a"], "r", torch) is not None)
line, got = kb.tb_first_diff(b"a\nmine\n", b"a\ntheirs\n")
check("first differing line, the candidate's side only",
      (line, got) == (2, "mine"))

PROBE = r"""
import sys
from triton.runtime import interpreter as ti
f = ti.InterpreterBuilder.create_masked_store
print("store", f.__qualname__, sorted(
    getattr(c.cell_contents, "__qualname__", type(c.cell_contents).__name__)
    for c in f.__closure__ or ()))
seen = []
f = sys._getframe()
while f is not None:
    for d in (dict(f.f_locals), dict(f.f_globals)):
        for k, v in d.items():
            v = v if isinstance(v, (str, bool, int)) else ""
            if "poison" in str(k).lower() or "poison" in repr(v).lower():
                seen.append("%s %s" % (f.f_code.co_name, k))
    f = f.f_back
print("poison-names", seen)
"""

PROG = r"""
import torch
import triton
import triton.language as tl


@triton.jit
def sq(x_ptr, o_ptr, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    x = tl.load(x_ptr + i, mask=m)
    tl.store(o_ptr + i, x * x, mask=m)


def square(x):
    o = torch.empty_like(x)
    sq[(triton.cdiv(x.numel(), 64),)](x, o, x.numel(), B=64)
    return o


x = torch.randn(100, device="cuda")
y = torch.empty(50).normal_()
result = {"a": MAKE(x), "b": [MAKE(y) + 1.0, 3]}
"""

PRINTS = r"""
import torch
x = torch.rand(8)
print("x", x)
x.add_(1.0)
print({"x": x})
print("no tensor", 3)
"""


def tbrun(path, *opts):
    """Run tbrun on path; (its stdout, its frame or None)."""
    r, w = os.pipe()
    p = subprocess.Popen([sys.executable, "-I", "-B", HARNESS, "tbrun",
                          path] + list(opts), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         pass_fds=(w,), cwd=os.path.dirname(path))
    os.close(w)
    p.stdin.write(b"%d\n" % w)
    p.stdin.close()
    data = b""
    while True:
        c = os.read(r, 1 << 20)
        if not c:
            break
        data += c
    os.close(r)
    out = p.stdout.read()
    err = p.stderr.read().decode(errors="replace")
    check("tbrun %s ran: %s" % (" ".join(opts), err[-400:]), p.wait() == 0)
    return out, kb.tb_value(data)


check("no poisoned run in the harness",
      not hasattr(kb, "poison_stores") and not hasattr(kb, "POISON"))
with tempfile.TemporaryDirectory() as d:
    prog = os.path.join(d, "probe.py")
    with open(prog, "w") as f:
        f.write(PROBE)
    out, _ = tbrun(prog, "--cpu", "--record", "--value", "seen")
    # The store as the interpreter's fixes (ADR 0038) leave it, the same
    # in every run: Triton's own store inside, no function that poisons.
    check("the program finds the store as interp_fixes leaves it: %r" %
          out.splitlines()[0], out.splitlines()[0] ==
          b"store interp_fixes.<locals>.<lambda> "
          b"['InterpreterBuilder.create_masked_store',"
          b" 'interp_fixes.<locals>.as_bool']")
    check("no live frame names a poison: %r" % out.splitlines()[1],
          out.splitlines()[1] == b"poison-names []")

    got = {}
    for how in ("square", "torch.square"):
        prog = os.path.join(d, "prog.py")
        with open(prog, "w") as f:
            f.write(PROG.replace("MAKE", how))
        _, frame = tbrun(prog, "--cpu", "--record", "--value", "result")
        check("%s: a frame with a record" % how,
              frame is not None and isinstance(frame.get("record"), list))
        rec = frame["record"]
        ops = [e[1] for e in rec if e[0] == "op"]
        check("%s: the draws are leaves, no random op recorded: %s" % (
            how, [o for o in ops if "rand" in o or "normal" in o]),
            not any("rand" in o or "normal" in o for o in ops))
        check("%s: the in-place draw reaches its tensor by a copy_" % how,
              "aten::copy_.default" in ops)
        (a, b, err), = kb.replay_records([rec], "the program")
        check("%s: replays: %s" % (how, err), err is None)
        v = frame["value"]
        check("%s: as recorded, the value sent" % how,
              diff(kb.tb_plain(a, torch), v, "r", torch) is None)
        got[how] = b is not None and \
            diff(kb.tb_plain(b, torch), v, "r", torch) is not None
    check("Triton's square: randomized, another value", got["square"])
    check("PyTorch's square: randomized, the same value",
          not got["torch.square"])

    prog = os.path.join(d, "prints.py")
    with open(prog, "w") as f:
        f.write(PRINTS)
    out, frame = tbrun(prog, "--cpu", "--record", "--printed")
    v = frame["value"]
    check("two print() calls with tensors sent, the third not: %r" % (v,),
          len(v) == 2 and v[0][0] == "x" and
          torch.allclose(v[1][0]["x"], v[0][1] + 1.0))
    check("stdout as print() wrote it", out.count(b"\n") == 3 and
          b"no tensor 3" in out)
    (a, b, err), = kb.replay_records([frame["record"]], "the program")
    check("print()'s copies replay: %s" % err, err is None and diff(
        kb.tb_plain(a, torch), v, "r", torch) is None)

# A record (the candidate's to write) whose output differs between the
# two replays by a draw of the replay's own, not by a Triton store.
forged = [("op", "aten::randn.default", ("l", [("l", [("v", 4)])]),
           ("d", {}), [0]), ("out", ("t", 0))]
(a, b, err), = kb.replay_records([forged], "the program")
check("a draw named as an op does not replay: %s" % err,
      a is None and err is not None and "draws from a generator" in err)

REF = """import torch

def sq(x):
    return torch.sqrt(x)
"""
TEST = """import torch
x = torch.rand(300, device="cuda")
out = {"a": sq(x), "b": sq(x * 4.0)}
print(out)
print("sum", float(out["a"].sum()))
"""
CANDS = {
    "triton": ("pass", """import torch
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, o_ptr, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    m = i < n
    tl.store(o_ptr + i, tl.sqrt(tl.load(x_ptr + i, mask=m)), mask=m)


def sq(x):
    o = torch.empty_like(x)
    k[(triton.cdiv(x.numel(), 128),)](x, o, x.numel(), B=128)
    return o
"""),
    "torch": ("no-triton-kernel: replayed by the checker", """import torch

def sq(x):
    return torch.sqrt(x)
"""),
    "no-print": ("no-triton-kernel: the program's run handed print() no"
                 " tensor", """import sys
import torch

def sq(x):
    return torch.sqrt(x)

def print(*a, **k):
    sys.stdout.write(" ".join(str(v) for v in a) + "\\n")
"""),
}
import json  # noqa: E402
for what, (want, code) in CANDS.items():
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("ref.py", REF), ("test.py", TEST),
                           ("cand.py", code), ("nonce", "N0NCE\n")):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, "-I", "-B", HARNESS, "tbeval",
                            "ref.py", "test.py", "cand.py"], cwd=d,
                           capture_output=True)
        ev = [json.loads(x.split(" ", 1)[1]) for x in
              p.stdout.decode().splitlines() if x.startswith("N0NCE ")]
        last = ev[-1] if ev else {}
        got = "pass" if last.get("event") == "result" else "%s: %s" % (
            last.get("sub"), last.get("message", ""))
        check("stdout mode, %s: %s" % (what, got[:200]),
              got == want if want == "pass" else
              got.startswith(want.split(":")[0]) and
              want.split(": ", 1)[1] in got)
