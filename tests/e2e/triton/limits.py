"""limits.py HARNESS - the known limits of Triton's interpreter, one tiny
kernel each (docs/envs/triton.md, "Interpreter limits"; issue 23).

Each test returns True when the kernel's answer is right.  It runs twice:
in Triton's interpreter as it is, where it must still be wrong (when it
is right, a Triton upgrade fixed the limit: drop its fix from
kb_harness.py interp_fixes() and its row from the docs), and after the
harness's interp_fixes(), where it must be right.  Then the checker's
rules: a limit the worker does not work around is skipped only when the
candidate's code calls what hits it, and sizes are cut as the docs say.
Run with the project venv's python3; exits 1 on the first failure.
"""
import importlib.util
import os
import sys

os.environ["TRITON_INTERPRET"] = "1"
import torch                                            # noqa: E402
import triton                                           # noqa: E402
import triton.language as tl                            # noqa: E402
from triton.language.extra import libdevice             # noqa: E402

LIMITS = []


def limit(fn):
    LIMITS.append(fn)
    return fn


@triton.jit
def dot_k(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    i = tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(c_ptr + i, tl.dot(tl.load(a_ptr + i), tl.load(b_ptr + i)))


@limit
def bf16_dot():
    """tl.dot on bf16 multiplies the raw 16-bit storage (2.3e10 off)."""
    a, b = torch.randn(2, 16, 16).bfloat16()
    c = torch.empty(16, 16)
    dot_k[(1,)](a, b, c, N=16)
    return (c - a.float() @ b.float()).abs().max().item() < 1e-2


@triton.jit
def bf16_ops_k(x_ptr, y_ptr, o_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    x, y = tl.load(x_ptr + r), tl.load(y_ptr + r)
    z = tl.where(x > y, x * y, x + y) - tl.maximum(x, y)
    tl.store(o_ptr + r, z + tl.sum(x, axis=0) + (r < 4).to(tl.bfloat16))


@limit
def bf16_ops():
    """bf16 +, *, -, max, >, sum and a bool cast on the raw storage."""
    x, y = torch.randn(2, 16).bfloat16()
    o = torch.empty(16, dtype=torch.bfloat16)
    bf16_ops_k[(1,)](x, y, o, N=16)
    xf, yf = x.float(), y.float()
    want = torch.where(xf > yf, xf * yf, xf + yf) - torch.maximum(xf, yf) \
        + xf.sum() + (torch.arange(16) < 4).float()
    return (o.float() - want).abs().max().item() < 0.1


@triton.jit
def round_k(x_ptr, o_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o_ptr + r, tl.load(x_ptr + r).to(tl.bfloat16))


@limit
def bf16_round():
    """fp32 -> bf16 truncates where a GPU (and torch) round to nearest."""
    x = torch.randn(4096) * 3
    o = torch.empty(4096, dtype=torch.bfloat16)
    round_k[(1,)](x, o, N=4096)
    return bool((o.float() == x.bfloat16().float()).all())


@triton.jit
def mask_k(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs < n) & (tl.program_id(0) < 1)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@limit
def mask_block_and_scalar():
    """A mask block_bool & scalar_bool: "mask has unsupported dtype"."""
    x, o = torch.randn(8), torch.zeros(8)
    mask_k[(1,)](x, o, 8, BLOCK=8)
    return bool((o == x).all())


@triton.autotune(configs=[triton.Config({"B": 4}), triton.Config({"B": 8})],
                 key=["n"])
@triton.jit
def tuned_k(o_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(o_ptr + offs, tl.zeros([B], tl.float32) + B, mask=offs < n)


@limit
def autotune():
    """@triton.autotune benchmarks on a driver: "0 active drivers"."""
    o = torch.zeros(8)
    tuned_k[lambda meta: (triton.cdiv(8, meta["B"]),)](o, 8)
    return bool((o == 4).all())     # the first config


@triton.jit
def libdevice_k(x_ptr, o_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r)
    y = libdevice.tanh(x) + tl.extra.cuda.libdevice.erf(x)
    tl.store(o_ptr + r, y + libdevice.pow(x, 2.0))


@limit
def libdevice_calls():
    """libdevice is a stub in the interpreter; extern calls are not there."""
    x, o = torch.randn(16), torch.zeros(16)
    libdevice_k[(1,)](x, o, N=16)
    want = torch.tanh(x) + torch.erf(x) + x * x
    return (o - want).abs().max().item() < 1e-5


def run(test):
    try:
        return bool(test())
    except Exception as e:
        print("  %s: %s: %s" % (test.__name__, type(e).__name__,
                                str(e).splitlines()[0][:120]))
        return False


@triton.jit
def asm_k(x_ptr, o_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x_ptr + r)],
                                  dtype=tl.float32, is_pure=True, pack=1)
    tl.store(o_ptr + r, y)


@triton.jit
def bessel_k(x_ptr, o_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o_ptr + r, libdevice.j0(tl.load(x_ptr + r)))


def raised(kernel):
    try:
        kernel[(1,)](torch.ones(8), torch.zeros(8), N=8)
    except Exception as e:
        return type(e).__name__, str(e)
    return None


def main():
    spec = importlib.util.spec_from_file_location("kb", sys.argv[1])
    kb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kb)
    bad = []
    print("Triton %s, torch %s" % (triton.__version__, torch.__version__))
    raw = {t.__name__: run(t) for t in LIMITS}
    print("worked around: %s" % ", ".join(kb.interp_fixes()))
    for t in LIMITS:
        fixed = run(t)
        print("%-22s as it is: %-5s with the fix: %s" % (
            t.__name__, "right" if raw[t.__name__] else "wrong",
            "right" if fixed else "wrong"))
        if raw[t.__name__]:
            bad.append("%s: Triton %s's interpreter gets it right: drop its"
                       " fix and its row in docs/envs/triton.md" % (
                           t.__name__, triton.__version__))
        if not fixed:
            bad.append("%s: still wrong with the fix" % t.__name__)

    # The limits the checker skips: only when the code calls what hits
    # them, whatever the worker says.
    def rule(src, exc, line=0):
        r = kb.source_needs_gpu(src, exc[0], exc[1], line)
        return r[0] if r else None

    asm = raised(asm_k)
    j0 = raised(bessel_k)
    asm_src = "y = tl.inline_asm_elementwise('mov.b32 $0, $1;', ...)\n"
    cases = [
        ("inline_asm, called", rule(asm_src, asm), "interpreter-limit"),
        ("inline_asm, in a comment only",
         rule("# tl.inline_asm_elementwise(...)\nx = 1\n", asm), None),
        ("libdevice j0, called", rule("y = libdevice.j0(x)\n", j0),
         "interpreter-limit"),
        ("libdevice j0's message, not called",
         rule("y = libdevice.tanh(x)\n", j0), None),
        ("0 active drivers, a driver query",
         rule("n = triton.runtime.driver.active.get_current_device()\n",
              ("RuntimeError", "0 active drivers ([]).")), "cuda-only"),
        ("0 active drivers, autotune only (its fix undone)",
         rule("@triton.autotune(configs=[], key=[])\n",
              ("RuntimeError", "0 active drivers ([]).")), None),
        ("assert on the device type",
         rule("def f(x):\n    assert x.device.type == 'cuda'\n",
              ("AssertionError", ""), 2), "cuda-only"),
        ("assert on a shape", rule("def f(x):\n    assert x.dim() == 2\n",
                                   ("AssertionError", ""), 2), None),
        ("an int mask, the fix undone",
         rule("tl.load(p, mask=m)\n", ("InterpreterError",
                                        "ValueError('mask has unsupported"
                                        " dtype')")), None),
    ]

    # Sizes: by value, the larger cap for a value of several roles, an
    # operator's parameter never cut.
    class P:
        pass
    p = P()
    p.batch_size = p.height = p.width = p.out_channels = 128
    p.in_channels, p.kernel_size, p.dim = 64, 11, 4
    p.bias_shape = (128, 1, 1)
    cut = kb.shrink_sizes(p, 8, 2)
    cases.append(("sizes: batch_size = height = width = 128",
                  kb.sizes_text(cut), "batch_size 128->8, bias_shape"
                  " (128, 1, 1)->(8, 1, 1), height 128->8, in_channels"
                  " 64->2, out_channels 128->8, width 128->8"))
    # The Triton check (ADR 0048): the checker replays a trace the worker
    # recorded.  Traces written here by hand, a launch's kernel played by
    # a stand-in (what the worker would send back: the storages after
    # the kernel ran), then the verdict on replays.
    x = torch.tensor([-1.0, 2.0, -3.0, 4.0])
    relu = torch.relu(x)

    def fake_relu(req):
        # relu of argument 0 into argument 1, as a kernel would store it
        sts = [s.clone() for s in req["storages"]]
        a = kb.launch_arg(torch, sts, req["args"][1][0])
        o = kb.launch_arg(torch, sts, req["args"][1][1])
        o.copy_(torch.relu(a))
        return {"storages": sts, "written": [torch.ones(s.shape,
                                                        dtype=torch.bool)
                                             for s in sts]}

    def unstored_relu(req):
        # the same values, written by no store of Triton's (Python in a
        # kernel's body): nothing to randomize
        got = fake_relu(req)
        del got["written"]
        return got
    gen = torch.Generator()
    gen.manual_seed(1)
    launch = ("launch", 0, [1], ("l", [("t", 0), ("t", 1)]), ("d", {}))
    made = ("op", "aten::empty_like", ("l", [("t", 0)]), ("d", {}), [1])
    traces = {
        # Triton's ReLU, then a view and an add of zero in PyTorch.
        "triton": [("leaf", 0, x), made, launch,
                   ("op", "aten::view", ("l", [("t", 1), ("l", [("v", 4)])]),
                    ("d", {}), [2]),
                   ("op", "aten::add.Tensor", ("l", [("t", 2), ("v", 0.0)]),
                    ("d", {}), [3]), ("out", 3)],
        # A Triton launch beside plain PyTorch, laundered: + seen.sum() * 0.
        "launder": [("leaf", 0, x), made, launch,
                    ("op", "aten::relu", ("l", [("t", 0)]), ("d", {}), [2]),
                    ("op", "aten::sum", ("l", [("t", 1)]), ("d", {}), [3]),
                    ("op", "aten::mul.Tensor", ("l", [("t", 3), ("v", 0)]),
                     ("d", {}), [4]),
                    ("op", "aten::add.Tensor", ("l", [("t", 2), ("t", 4)]),
                     ("d", {}), [5]), ("out", 5)],
        # Triton writes the output, PyTorch overwrites it in place.
        "overwrite": [("leaf", 0, x), made, launch,
                      ("op", "aten::relu", ("l", [("t", 0)]), ("d", {}), [2]),
                      ("op", "aten::copy_", ("l", [("t", 1), ("t", 2)]),
                       ("d", {}), [1]), ("out", 1)],
    }
    for name, tr in traces.items():
        rec, rnd = kb.replay(tr, fake_relu, gen)
        cases.append(("replay %s: as recorded" % name,
                      bool(torch.equal(rec, relu)), True))
        cases.append(("replay %s: randomized still right" % name,
                      bool(torch.allclose(rnd, relu)), name != "triton"))
    rec, rnd = kb.replay(traces["triton"], unstored_relu, gen)
    cases.append(("replay, no store of Triton's: as recorded",
                  bool(torch.equal(rec, relu)), True))
    cases.append(("replay, no store of Triton's: randomized still right",
                  bool(torch.allclose(rnd, relu)), True))
    for name, tr, why in (
            ("a file op", [("leaf", 0, x), ("op", "aten::from_file",
                                             ("l", [("v", "nonce")]),
                                             ("d", {}), [1]), ("out", 1)],
             "not an ATen op the replay runs"),
            ("another namespace", [("leaf", 0, x), ("op", "prims::abs",
                                                    ("l", [("t", 0)]),
                                                    ("d", {}), [1])],
             "not an ATen op the replay runs"),
            ("a tensor before it is made", [("op", "aten::relu",
                                             ("l", [("t", 7)]), ("d", {}),
                                             [1])], "used before"),
            ("no output", [("leaf", 0, x)], "names no output"),
            ("a kernel that fails", [("leaf", 0, x), made, launch,
                                     ("out", 1)], "launch of the kernel failed")):
        try:
            kb.replay(tr, lambda req: {"error": "boom"}, gen)
            got = "replayed"
        except ValueError as e:
            got = str(e)
        cases.append(("replay refuses %s" % name, why in got, True))
    # What the launcher refuses in a kernel's source before Triton's
    # frontend sees it (ADR 0048): Python that runs at definition or
    # reaches outside the language through a module's attributes.
    for what, src, want in (
            ("plain", "def k(x_ptr, n, B: tl.constexpr):\n"
             "    o = tl.arange(0, B)\n"
             "    tl.store(x_ptr + o, tl.load(x_ptr + o))\n", None),
            ("an import", "def k(x):\n    import os\n", "Import"),
            ("builtins through tl.core",
             "def k(x):\n    tl.core.builtins.exec('1')\n",
             "reaches the module builtins"),
            ("an attribute set", "def k(x):\n    tl.core.knobs.x = 1\n",
             "sets the attribute"),
            ("triton.knobs", "def k(x):\n    y = tl.core.knobs.cache\n",
             "reaches the module triton.knobs"),
            ("a dunder", "def k(x):\n    y = x.__class__\n",
             "attribute __class__"),
            ("an annotation that calls", "def k(x: print(1)):\n    pass\n",
             "annotation that calls"),
            ("a default that calls", "def k(x=print(1)):\n    pass\n",
             "default"),
            ("a function's attribute", "def k(x):\n    y = tl.load.fn\n",
             "reads fn of a"),
            ("triton.runtime", "def k(x):\n    y = triton.runtime.driver\n",
             "reaches the module triton.runtime")):
        try:
            kb.module_paths("k", kb.kernel_source("k", src),
                            {"tl": tl, "triton": triton})
            got = None
        except kb.NotTriton as e:
            got = str(e)
        cases.append(("launcher source: %s" % what,
                      got is None if want is None else
                      got is not None and want in got, True))
    opts = {"--atol": 0.01, "--rtol": 0.01}
    wrong = torch.full((4,), 9.0)
    for what, replays, want in (
            ("verdict: both replays Triton's",
             [(relu, wrong, None), (relu, wrong, None)], (None, 2, True)),
            ("verdict: randomized still right",
             [(relu, wrong, None), (relu, relu, None)], (1, 1, True)),
            ("verdict: randomized replay raised",
             [(relu, None, None), (relu, wrong, None)], (1, 1, True)),
            ("verdict: replay not the output",
             [(relu, wrong, None), (wrong, wrong, None)], (1, 1, False)),
            ("verdict: trace does not replay",
             [(None, None, "no trace"), (relu, wrong, None)],
             (1, 0, False))):
        v = kb.triton_replayed([0, 1], replays, [relu, relu], [relu, relu],
                               opts)
        cases.append((what, (None if v[0] is None else 1, v[1], v[2]),
                      want))
    for what, got, want in cases:
        print("%-45s %s" % (what, got))
        if got != want:
            bad.append("%s: %r, want %r" % (what, got, want))
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
