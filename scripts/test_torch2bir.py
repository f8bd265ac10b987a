#!/usr/bin/python3
"""Unit tests of scripts/torch2bir.py on tiny models built here.

Run: /usr/bin/python3 -m unittest discover -s scripts -p 'test_torch2bir.py'
(scripts/test.sh does). Every expected value is reasoned in a comment:
sizes are f16 (2 bytes per float element) unless a test says otherwise,
rounded up to 128 bytes.
"""

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402
import torch2bir as T  # noqa: E402

nn = torch.nn
F = torch.nn.functional


class Bir:
    """The parts of an exported .bir the tests look at."""

    def __init__(self, text):
        self.text = text
        self.buffers = {}  # name -> size text
        self.aliases = {}  # name -> (root, offset)
        self.inputs, self.outputs = [], []
        self.top = []  # ("op"|"cpu"|"fused", name, [leaf op names])
        self.leaves = {}  # op/cpu name -> (kind, reads, writes)
        fused = None
        for line in text.splitlines():
            line = line.split("//")[0].strip()
            if not line:
                continue
            m = re.match(r"buffer (\S+)\s*: (.+)$", line)
            if m:
                self.buffers[m.group(1)] = m.group(2).strip()
                continue
            m = re.match(r"alias (\S+) = (\S+)(?: \+ (\d+))?$", line)
            if m:
                self.aliases[m.group(1)] = (m.group(2), int(m.group(3) or 0))
                continue
            m = re.match(r"(input|output) (.+)$", line)
            if m:
                (self.inputs if m.group(1) == "input" else self.outputs).extend(
                    s.strip() for s in m.group(2).split(","))
                continue
            m = re.match(r"fused (\S+) \{$", line)
            if m:
                fused = (("fused", m.group(1), []))
                self.top.append(fused)
                continue
            if line == "}":
                fused = None
                continue
            m = re.match(r"(op|cpu) (\S+)(?: reads (.*?))?(?: writes (.*))?$", line)
            if m:
                reads = [s.strip() for s in m.group(3).split(",")] if m.group(3) else []
                writes = [s.strip() for s in m.group(4).split(",")] if m.group(4) else []
                self.leaves[m.group(2)] = (m.group(1), reads, writes)
                if fused is not None:
                    fused[2].append(m.group(2))
                else:
                    self.top.append((m.group(1), m.group(2), [m.group(2)]))

    def shape(self):
        """[(kind, [leaf names])] of the top-level nodes."""
        return [(k, leaves) for k, _, leaves in self.top]


def export(model, inputs, names=None, **opts):
    names = names or (["x"] if len(inputs) == 1 else ["x%d" % i for i in range(len(inputs))])
    return Bir(T.Exporter(**opts).export(model.eval(), inputs, names, "g"))


class Lambda(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


class TestViews(unittest.TestCase):
    def test_split_parts_at_their_own_offsets(self):
        # q, k, v = (x * 2).split(8, -1) on x: [2, 24]; each part is a view of
        # the one product buffer: k starts 8 elements in, v 16; f16 makes that
        # 16 and 32 bytes; q is at the base address (offset 0).
        b = export(Lambda(lambda x: (lambda q, k, v: q * k + v)(*(x * 2).split(8, -1))), [torch.randn(2, 24)])
        self.assertEqual(b.aliases["getitem"], ("mul", 0))
        self.assertEqual(b.aliases["getitem_1"], ("mul", 16))
        self.assertEqual(b.aliases["getitem_2"], ("mul", 32))
        # the op reads the views, not the base
        self.assertEqual(b.leaves["mul_1"], ("op", ["getitem", "getitem_1"], ["mul_1"]))

    def test_offsets_scale_with_dtype(self):
        # the same split sized as f32: 8 elements are 32 bytes
        b = export(Lambda(lambda x: (lambda q, k, v: q * k + v)(*(x * 2).split(8, -1))), [torch.randn(2, 24)],
                   dtype="f32")
        self.assertEqual(b.aliases["getitem_1"], ("mul", 32))
        self.assertEqual(b.aliases["getitem_2"], ("mul", 64))

    def test_select_and_view_of_view_resolve_to_root(self):
        # y = x + 1 is [4, 8]; y[2] starts 16 elements in (32 bytes); y[:, 3:][1]
        # is a view of a view: row 1 of the column slice starts at 8 + 3 = 11
        # elements (22 bytes) of y's storage, written against y, the root.
        b = export(Lambda(lambda x: (lambda y: y[2] * y[:, 3:][1].sum())(x + 1)), [torch.randn(4, 8)])
        sel = [n for n, (r, o) in b.aliases.items() if r == "add" and o == 32]
        self.assertEqual(len(sel), 1, b.aliases)
        deep = [n for n, (r, o) in b.aliases.items() if o == 22]
        self.assertEqual(len(deep), 1, b.aliases)
        self.assertEqual(b.aliases[deep[0]][0], "add")
        for name, (root, _) in b.aliases.items():
            self.assertNotIn(root, b.aliases, "alias %s points at a view, not the root" % name)

    def test_view_as_output(self):
        # outputs (x*2).t() and (x*2)[1]: both views of mul, the second one
        # row (8 elements = 16 bytes) in; they are the graph outputs.
        b = export(Lambda(lambda x: (lambda y: (y.t(), y[1]))(x * 2)), [torch.randn(4, 8)])
        self.assertEqual(b.outputs, ["t", "select"])
        self.assertEqual(b.aliases["t"], ("mul", 0))
        self.assertEqual(b.aliases["select"], ("mul", 16))
        self.assertEqual(list(b.leaves), ["mul"])

    def test_views_as_inputs(self):
        # two inputs that are views of one storage: a = base[1:] starts one row
        # (8 elements, 16 bytes) after b = base[:3]; b, at the lower offset, is
        # the root. The sizes are each view's own: 3*8*2 = 48 -> 128.
        base = torch.randn(4, 8)
        b = export(Lambda(lambda a, c: a + c), [base[1:], base[:3]], ["a", "b"])
        self.assertEqual(b.inputs, ["a", "b"])
        self.assertEqual(b.aliases, {"a": ("b", 16)})
        self.assertEqual(b.buffers["a"], "128")

    def test_parameter_view(self):
        # F.linear's weight transpose is a view of the parameter at offset 0
        m = nn.Linear(4, 4)
        b = export(m, [torch.randn(2, 4)])
        self.assertEqual(b.aliases["t"], ("weight", 0))
        self.assertIn("weight", b.inputs)


class TestOps(unittest.TestCase):
    def test_multi_output_op(self):
        # torch.max(x, 1) is one ATen op with two outputs: values (f16 [4] ->
        # 8 bytes -> 128) and indices (i64 [4] -> 32 bytes -> 128); one op
        # writes both buffers, named after the getitem nodes that use them.
        b = export(Lambda(lambda x: (lambda v, i: (v * 2, i))(*torch.max(x, 1))), [torch.randn(4, 8)])
        kind, reads, writes = b.leaves["max_1"]
        self.assertEqual((kind, reads), ("op", ["x"]))
        self.assertEqual(writes, ["getitem", "getitem_1"])
        self.assertIn("buffer getitem_1 : 128  // int64[4] out", b.text)  # the comment keeps the torch dtype
        self.assertEqual(b.buffers["getitem_1"], "128")

    def test_unused_outputs_are_written_too(self):
        # native_layer_norm returns (out, mean, rstd); mean and rstd are
        # unused but the kernel writes them: NODE.1 and NODE.2.
        b = export(nn.LayerNorm(8), [torch.randn(4, 8)])
        self.assertEqual(b.leaves["native_layer_norm"][2],
                         ["getitem", "native_layer_norm.1", "native_layer_norm.2"])

    def test_inplace_is_functionalized(self):
        # y = x*2; y.add_(1); y.relu_() traces to mul, add, relu, each writing
        # a fresh buffer: no in-place op remains.
        def f(x):
            y = x * 2
            y.add_(1)
            y.relu_()
            return y

        b = export(Lambda(f), [torch.randn(4)])
        self.assertEqual(list(b.leaves), ["mul", "add", "relu"])
        self.assertEqual(b.leaves["add"], ("op", ["mul"], ["add"]))
        self.assertEqual(b.leaves["relu"], ("op", ["add"], ["relu"]))
        self.assertEqual(b.outputs, ["relu"])

    def test_input_mutation_becomes_copy_into_the_input(self):
        # a module that bumps its buffer: functionalization computes the new
        # value out of place and copies it back into the input at the end.
        # The buffer is called "count", a keyword, so it is exported as count_.
        class Counter(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("count", torch.zeros(4))

            def forward(self, x):
                self.count.add_(1)
                return x * 2

        b = export(Counter(), [torch.randn(4)])
        self.assertIn("count_", b.inputs)
        self.assertEqual(b.leaves["add"], ("op", ["count_"], ["add"]))
        self.assertEqual(b.leaves["copy_"][2], ["count_"])

    def test_dead_code_is_dropped(self):
        # an unused product never becomes an op
        b = export(Lambda(lambda x: (x * 3, x + 1)[1]), [torch.randn(4)])
        self.assertEqual(list(b.leaves), ["add"])


class TestFusion(unittest.TestCase):
    def test_cpu_fallback_is_a_boundary(self):
        # relu, then argmax (CPU by default), then mul and add: relu is a
        # bundle of one (a plain op), argmax a top-level cpu node, mul+add one
        # fused bundle named after its first op.
        def f(x):
            a = torch.relu(x)
            i = torch.argmax(a, -1, keepdim=True)
            return a * 2 + i

        b = export(Lambda(f), [torch.randn(4, 8)])
        self.assertEqual(b.shape(), [("op", ["relu"]), ("cpu", ["argmax"]), ("fused", ["mul", "add"])])
        self.assertEqual(b.top[2][1], "fused_mul")
        self.assertEqual(b.leaves["argmax"], ("cpu", ["relu"], ["argmax"]))

    def test_op_returning_no_tensor_is_a_cpu_boundary(self):
        # torch._assert_async returns nothing: it becomes a top-level cpu node
        # that reads its argument (a detached view of the lifted constant) and
        # writes nothing, and it cuts the device run in two.
        def f(x):
            y = x * 2
            torch._assert_async(torch.tensor(True))
            return y + 1

        b = export(Lambda(f), [torch.randn(4)])
        self.assertEqual(b.shape(), [("fused", ["mul", "lift_fresh_copy"]), ("cpu", ["_assert_async"]), ("op", ["add"])])
        kind, reads, writes = b.leaves["_assert_async"]
        self.assertEqual((kind, writes), ("cpu", []))
        self.assertEqual(b.aliases[reads[0]], ("lift_fresh_copy", 0))
        self.assertIn("_tensor_constant0", b.inputs)  # a tensor constant is a graph input

    def test_cpu_ops_flag(self):
        # with relu declared a CPU op too, the device run is only mul+add
        def f(x):
            return torch.relu(x) * 2 + 1

        for spelling in ("relu", "aten.relu", "aten.relu.default"):
            b = export(Lambda(f), [torch.randn(4)], cpu_ops=[spelling])
            self.assertEqual(b.shape(), [("cpu", ["relu"]), ("fused", ["mul", "add"])], spelling)

    def chain(self):
        # five pointwise ops in a row
        return Lambda(lambda x: ((((x + 1) * 2) - 3).relu() * 5))

    def test_one_maximal_run(self):
        b = export(self.chain(), [torch.randn(4)])
        self.assertEqual(b.shape(), [("fused", ["add", "mul", "sub", "relu", "mul_1"])])

    def test_max_fused_ops(self):
        # K=2 cuts the run of five into 2 + 2 + 1; the last is a plain op
        b = export(self.chain(), [torch.randn(4)], max_fused_ops=2)
        self.assertEqual(b.shape(), [("fused", ["add", "mul"]), ("fused", ["sub", "relu"]), ("op", ["mul_1"])])
        b = export(self.chain(), [torch.randn(4)], max_fused_ops=1)
        self.assertEqual([k for k, _ in b.shape()], ["op"] * 5)

    def test_isolate_reductions(self):
        # mul, sum (a reduction), add, mul: fused together by default; with
        # --isolate-reductions sum is its own bundle and splits the run.
        f = Lambda(lambda x: (x * 2).sum(-1) + 1)
        self.assertEqual(export(f, [torch.randn(4, 8)]).shape(), [("fused", ["mul", "sum_1", "add"])])
        b = export(f, [torch.randn(4, 8)], isolate_reductions=True)
        self.assertEqual(b.shape(), [("op", ["mul"]), ("op", ["sum_1"]), ("op", ["add"])])
        g = Lambda(lambda x: F.softmax(x * 2 + 1, -1) * 3 - 1)
        b = export(g, [torch.randn(4, 8)], isolate_reductions=True)
        self.assertEqual(b.shape(), [("fused", ["mul", "add"]), ("op", ["_softmax"]), ("fused", ["mul_1", "sub"])])

    def test_views_do_not_cut_runs(self):
        # a transpose between two ops is an alias, not a node
        b = export(Lambda(lambda x: (x * 2).t() + 1), [torch.randn(4, 8)])
        self.assertEqual(b.shape(), [("fused", ["mul", "add"])])
        self.assertEqual(b.aliases["t"], ("mul", 0))


class TestNames(unittest.TestCase):
    def test_sanitize(self):
        self.assertEqual(T.sanitize("layer1.0.conv1.weight"), "layer1.0.conv1.weight")
        self.assertEqual(T.sanitize("0.weight"), "_0.weight")  # must start with a letter or _
        self.assertEqual(T.sanitize("a-b c"), "a_b_c")
        self.assertEqual(T.sanitize("output"), "output_")  # keyword
        self.assertEqual(T.sanitize("split"), "split_")
        self.assertEqual(T.sanitize("f16"), "f16")  # dtype names may be names
        self.assertEqual(T.sanitize("output.weight"), "output.weight")  # one identifier, not a keyword
        self.assertEqual(T.sanitize(""), "_")
        self.assertEqual(T.sanitize("é"), "_")  # the one bad character becomes _

    def test_collisions(self):
        n = T.Names()
        self.assertEqual([n.take(s) for s in ["a-b", "a_b", "a.b", "a_b", "a_b_2"]],
                         ["a_b", "a_b_2", "a.b", "a_b_3", "a_b_2_2"])

    def test_names_in_a_model(self):
        # Sequential parameters start with a digit; a parameter called
        # "output" or "lx" is a keyword: all come out valid and distinct.
        # Order: named_parameters lists a module's own parameters before its
        # children's, then the model input.
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.seq = nn.Sequential(nn.Linear(4, 4))
                self.output = nn.Parameter(torch.ones(4))
                self.lx = nn.Parameter(torch.ones(4))

            def forward(self, x):
                return self.seq(x) * self.output + self.lx

        top = nn.Sequential(M())
        b = export(top, [torch.randn(2, 4)])
        self.assertEqual(b.inputs, ["_0.output", "_0.lx", "_0.seq.0.weight", "_0.seq.0.bias", "x"])
        plain = T.Exporter().export(M().eval(), [torch.randn(2, 4)], ["input"], "g")
        self.assertIn("buffer output_ ", plain)
        self.assertIn("buffer lx_ ", plain)
        self.assertIn("buffer input_ ", plain)  # the model input named "input"
        ident = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
        for name in list(Bir(plain).buffers) + list(Bir(plain).leaves):
            self.assertRegex(name, ident)
            self.assertNotIn(name, T.KEYWORDS)


class TestDeterminismAndHeader(unittest.TestCase):
    def test_byte_identical_reruns(self):
        torch.manual_seed(1)
        m = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.LayerNorm(8))
        a = T.Exporter().export(m.eval(), [torch.randn(2, 8)], ["x"], "g")
        b = T.Exporter().export(m.eval(), [torch.randn(2, 8)], ["x"], "g")
        self.assertEqual(a, b)

    def test_stick_rule(self):
        # --stick declares non-view buffers as dtype[shape]; views keep bytes
        b = export(Lambda(lambda x: (x * 2)[1]), [torch.randn(4, 8)], stick=True)
        self.assertEqual(b.buffers["x"], "f16[4, 8]")
        self.assertEqual(b.buffers["mul"], "f16[4, 8]")
        self.assertEqual(b.buffers["select"], "128")
        b = export(Lambda(lambda x: x.argmax(-1)), [torch.randn(4, 8)], stick=True)
        self.assertEqual(b.buffers["argmax"], "i64[4]")


def run_cli(*args):
    return subprocess.run([sys.executable, os.path.join(HERE, "torch2bir.py")] + list(args),
                          capture_output=True, text=True)


class TestCLI(unittest.TestCase):
    def write_model(self, body):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "m.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(body))
        return path

    def test_untraceable_model_is_a_clear_error(self):
        # data-dependent control flow: the exporter names the ATen op that
        # needed a value (_local_scalar_dense, from bool(tensor)) and the
        # reason, exits 1, and prints no traceback.
        path = self.write_model("""
            import torch
            class M(torch.nn.Module):
                def forward(self, x):
                    if x.sum() > 0:
                        return x * 2
                    return x
            def build(batch):
                return M(), [torch.randn(batch, 4)]
        """)
        r = run_cli(path + ":build")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertTrue(r.stderr.startswith("torch2bir: error: op aten._local_scalar_dense"), r.stderr)
        self.assertIn("cannot trace", r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_unsupported_output_is_a_clear_error(self):
        path = self.write_model("""
            import torch
            class M(torch.nn.Module):
                def forward(self, x):
                    return (x * 1j).abs()
            def build(batch):
                return M(), [torch.randn(batch, 4)]
        """)
        r = run_cli(path + ":build")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stderr, r"^torch2bir: error: op aten\.\S+: ")
        self.assertIn("complex", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def test_header_and_file_model(self):
        path = self.write_model("""
            import torch
            def build(batch):
                return torch.nn.Linear(4, 4), [torch.randn(batch, 4)], ["x"]
        """)
        r = run_cli(path + ":build", "--batch", "2", "--max-fused-ops", "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[1], "// command: torch2bir.py %s:build --batch 2 --max-fused-ops 3" % path)
        self.assertIn("graph m {", r.stdout)


if __name__ == "__main__":
    unittest.main()
