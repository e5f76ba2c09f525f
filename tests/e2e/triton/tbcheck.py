"""tbcheck.py HARNESS - the rules of kb_harness.py tbeval that no row of
e2e 300 pins alone (ADR 0046's amendment).  Run with the project venv's
python3; exits 1 on the first failure.

  - tb_value_diff() compares every element: one element off in the
    middle of 1024 (torch's summary shows the first and last three)
    differs; NaN equals NaN; float16 gets two of its epsilons; dtype,
    shape, dict keys and their order decide; the message names the
    candidate's value and never the reference's.
  - tb_first_diff() gives the candidate's line only.
  - The poison switch is named nowhere a program can look: a program
    that prints the names and plain values of every live frame's locals
    and of the harness's globals prints the same in a poisoned and a
    plain run of `tbrun --cpu` (before, the local `poison` differed).
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

PROBE = r'''
import sys
seen = []
f = sys._getframe()
while f is not None:
    for scope, d in (("L", f.f_locals), ("G", f.f_globals)):
        if scope == "G" and d is globals():
            continue
        for k in sorted(d):
            v = d[k]
            if isinstance(v, (bool, int, str, bytes, list, tuple, dict)):
                seen.append("%s %s %s=%r" % (f.f_code.co_name, scope, k,
                                              v if not isinstance(v, dict)
                                              else sorted(v)))
    f = f.f_back
print("\n".join(seen))
'''

with tempfile.TemporaryDirectory() as d:
    prog = os.path.join(d, "probe.py")
    with open(prog, "w") as f:
        f.write(PROBE)
    outs = []
    for line in (b"plain\n", b"poison\n"):
        p = subprocess.run([sys.executable, "-I", "-B", HARNESS, "tbrun",
                            prog, "--cpu"], input=line, cwd=d,
                           capture_output=True)
        check("tbrun %s ran: %s" % (line.strip().decode(),
                                    p.stderr.decode()[-400:]),
              p.returncode == 0)
        outs.append(p.stdout)
    check("some frames seen", b"cmd_tbrun L" in outs[0])
    a, b = outs[0].splitlines(), outs[1].splitlines()
    odd = [x for x in set(a) ^ set(b)]
    check("a poisoned and a plain run look the same from every frame%s" %
          (": " + repr(odd[:4]) if odd else ""), a == b)
