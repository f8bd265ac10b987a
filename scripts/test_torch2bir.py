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
        self.leaves = {}  # op/cpu name -> ("op"|"cpu", reads, writes)
        self.kinds = {}  # op name -> its `kind` (None when it has none)
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
            m = re.match(r"(op|cpu) (\S+)(?: kind (\S+))?(?: reads (.*?))?(?: writes (.*))?$", line)
            if m:
                reads = [s.strip() for s in m.group(4).split(",")] if m.group(4) else []
                writes = [s.strip() for s in m.group(5).split(",")] if m.group(5) else []
                self.leaves[m.group(2)] = (m.group(1), reads, writes)
                self.kinds[m.group(2)] = m.group(3)
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
        self.assertIn("buffer getitem_1 : 128  // i64[4] out", b.text)  # the comment names what is sized
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


IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


class TestKinds(unittest.TestCase):
    """`kind` on device ops: OVERLOAD.ARG....RESULT... (docs/exporter.md)."""

    def test_spelling_of_a_relu(self):
        # relu of x: [2, 3] sized as f16: the overload, its one argument (an
        # f16 tensor of shape 2x3) and its one result (the same type)
        b = export(Lambda(torch.relu), [torch.randn(2, 3)])
        self.assertEqual(b.kinds["relu"], "aten.relu.default.f16_2x3.f16_2x3")

    def test_equal_shapes_share_a_kind(self):
        # two relus on two distinct [2, 3] inputs: same overload, same types
        b = export(Lambda(lambda x, y: torch.relu(x) + torch.relu(y)), [torch.randn(2, 3), torch.randn(2, 3)])
        self.assertEqual(b.kinds["relu"], b.kinds["relu_1"])
        self.assertNotEqual(b.kinds["relu"], b.kinds["add"])

    def test_different_shapes_do_not(self):
        # [2, 3] and [3, 2] have the same element count, not the same shape
        b = export(Lambda(lambda x, y: (torch.relu(x), torch.relu(y))), [torch.randn(2, 3), torch.randn(3, 2)])
        self.assertEqual(b.kinds["relu"], "aten.relu.default.f16_2x3.f16_2x3")
        self.assertEqual(b.kinds["relu_1"], "aten.relu.default.f16_3x2.f16_3x2")

    def test_strides_of_a_view_are_part_of_it(self):
        # relu of x.t() for x: [2, 3] reads a [3, 2] tensor with strides
        # (1, 3), not the dense (2, 1): another kind than relu of a dense
        # [3, 2] tensor y.
        b = export(Lambda(lambda x, y: (torch.relu(x.t()), torch.relu(y))), [torch.randn(2, 3), torch.randn(3, 2)])
        self.assertTrue(b.kinds["relu"].startswith("aten.relu.default.f16_3x2_s1x3."), b.kinds["relu"])
        self.assertEqual(b.kinds["relu_1"], "aten.relu.default.f16_3x2.f16_3x2")

    def test_dtypes(self):
        # neg of a float and of an int64 tensor: f16 (the --dtype floats are
        # sized in) and i64; with --dtype f32 the float one says f32
        f = Lambda(lambda x, i: (torch.neg(x), torch.neg(i)))
        ins = [torch.randn(4), torch.arange(4)]
        b = export(f, ins)
        self.assertEqual(b.kinds["neg"], "aten.neg.default.f16_4.f16_4")
        self.assertEqual(b.kinds["neg_1"], "aten.neg.default.i64_4.i64_4")
        self.assertEqual(export(f, ins, dtype="f32").kinds["neg"], "aten.neg.default.f32_4.f32_4")

    def test_scalars(self):
        # x * 2, x * 3, x * 2.0, x * 0.5, x * -0.5 are mul.Tensor(x, SCALAR):
        # 2 and 3 differ, 2.0 is the number 2, 0.5 is 0p5, -0.5 is n0p5
        b = export(Lambda(lambda x: (x * 2, x * 3, x * 2.0, x * 0.5, x * -0.5)), [torch.randn(4)])
        self.assertEqual([b.kinds[n] for n in ["mul", "mul_1", "mul_2", "mul_3", "mul_4"]],
                         ["aten.mul.Tensor.f16_4.%s.f16_4" % c for c in ["2", "3", "2", "0p5", "n0p5"]])

    def test_defaults_are_filled_in(self):
        # sum(x, -1) and sum(x, -1, keepdim=False) are one computation: the
        # schema sum.dim_IntList(self, dim, keepdim=False, *, dtype=None)
        # spells both with keepdim False and dtype None; -1 is n1; keepdim
        # True is another kind with result [2, 1]
        b = export(Lambda(lambda x: (x.sum(-1), x.sum(-1, keepdim=False), x.sum(-1, keepdim=True))),
                   [torch.randn(2, 3)])
        self.assertEqual(b.kinds["sum_1"], "aten.sum.dim_IntList.f16_2x3.n1.False.None.f16_2")
        self.assertEqual(b.kinds["sum_2"], b.kinds["sum_1"])
        self.assertEqual(b.kinds["sum_3"], "aten.sum.dim_IntList.f16_2x3.n1.True.None.f16_2x1")

    def test_strings_and_tensor_lists(self):
        # gelu's approximate is a string argument ('none' by default);
        # cat's tensor list [x, y, y, y] writes y once with _r3
        b = export(Lambda(lambda x, y: (F.gelu(y), F.gelu(y, approximate="tanh"), torch.cat([x, y, y, y], 1))),
                   [torch.randn(2, 1), torch.randn(2, 3)])
        self.assertEqual(b.kinds["gelu"], "aten.gelu.default.f16_2x3.none.f16_2x3")
        self.assertEqual(b.kinds["gelu_1"], "aten.gelu.default.f16_2x3.tanh.f16_2x3")
        # result [2, 1 + 3 * 3] = [2, 10], along dim 1
        self.assertEqual(b.kinds["cat"], "aten.cat.default.f16_2x1_f16_2x3_r3.1.f16_2x10")

    def test_device_and_dtype_arguments(self):
        # x.new_zeros(3) passes dtype, layout, device and pin_memory: the
        # dtype is the exported one (f16), the traced meta device stands for
        # the model's own (dev)
        b = export(Lambda(lambda x: x.new_zeros(3)), [torch.randn(2)])
        self.assertEqual(b.kinds["new_zeros"], "aten.new_zeros.default.f16_2.3.f16.strided.dev.False.f16_3")

    def test_cpu_nodes_have_none(self):
        b = export(Lambda(lambda x: torch.argmax(torch.relu(x), -1)), [torch.randn(4, 8)])
        self.assertEqual(b.leaves["argmax"][0], "cpu")
        self.assertIsNone(b.kinds["argmax"])
        self.assertEqual(b.kinds["relu"], "aten.relu.default.f16_4x8.f16_4x8")
        self.assertIn("op relu kind aten.relu.default.f16_4x8.f16_4x8 reads x writes relu", b.text)

    def test_numbers(self):
        # ints in decimal with n for minus; floats by their shortest repr
        # with p for the point, n for minus and no +; integral floats as ints
        cases = [(0, "0"), (7, "7"), (-3, "n3"), (2.0, "2"), (-0.0, "0"), (0.5, "0p5"), (-1.25, "n1p25"),
                 (1e-05, "1en05"), (1e20, "1e20"), (float("inf"), "inf"), (float("-inf"), "ninf"),
                 (float("nan"), "nan")]
        for x, want in cases:
            self.assertEqual(T.spell_number(x), want, x)

    def test_strings(self):
        # a-z, 0-9 kept; every other byte _XX: '_' is _5f, 'N' is _4e
        self.assertEqual(T.spell_string("tanh"), "tanh")
        self.assertEqual(T.spell_string("a_b"), "a_5fb")
        self.assertEqual(T.spell_string("None"), "_4eone")
        self.assertEqual(T.spell_string("a.b"), "a_2eb")
        self.assertEqual(T.spell_string("é"), "_c3_a9")
        self.assertEqual(T.spell_string(""), "_")

    def test_spellings_are_distinct(self):
        # values that differ spell differently (type included): no two of
        # these may share a field
        ex = T.Exporter()
        values = [None, True, False, 0, 1, -1, 11, 0.5, -0.5, 1e-05, "none", "None", "True", "", "_", "r2",
                  [], [1, 1], [1, -1], [True, False], [0.5, 1], torch.float32, torch.int64,
                  torch.empty(2, 3), torch.empty(3, 2), torch.empty(2, 3).t(), torch.empty(6),
                  torch.empty(()), torch.empty(0), torch.empty(2, 3, dtype=torch.int64),
                  [torch.empty(2), torch.empty(2)], [torch.empty(2), torch.empty(2), torch.empty(2)],
                  [torch.empty(2), None]]
        spelled = [ex.spell(v, "test") for v in values]
        self.assertEqual(len(set(spelled)), len(spelled), spelled)
        for f in spelled:
            self.assertRegex(f, r"^[A-Za-z0-9_]+$")  # no '.': fields stay apart
        # the one deliberate equality: ATen's int[1] arguments take 11 or
        # [11], which mean the same, and spell the same
        self.assertEqual(ex.spell([11], "test"), ex.spell(11, "test"))

    def test_kinds_are_identifiers_never_keywords(self):
        # a model with many kinds of arguments: every kind is a valid
        # identifier; `kind` itself is a keyword (v3) and not a name
        torch.manual_seed(0)
        m = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(16, 8), nn.GELU(approximate="tanh"), nn.LayerNorm(8),
                          nn.Dropout(0.1), nn.Softmax(-1))
        b = export(m, [torch.randn(2, 3, 4, 4)])
        kinds = [k for k in b.kinds.values() if k]
        self.assertEqual(len(kinds), sum(1 for v in b.leaves.values() if v[0] == "op"))
        for k in kinds:
            self.assertRegex(k, IDENT)
            self.assertNotIn(k, T.KEYWORDS)
        self.assertIn("kind", T.KEYWORDS)
        self.assertEqual(T.sanitize("kind"), "kind_")


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


    def test_header_counts_and_comments(self):
        # nn.Linear(4, 4) on x: [2, 4]: buffers weight, bias, x, the view
        # t = weight.t() and addmm: 5 buffers (3 inputs, 1 output, 1 view),
        # 1 device op of 1 kind in 1 bundle (no fused bundle), 0 cpu nodes;
        # singular nouns for counts of 1.
        m = nn.Linear(4, 4)
        text = T.Exporter().export(m.eval(), [torch.randn(2, 4)], ["x"], "g")
        self.assertEqual(text.splitlines()[0],
                         "// 5 buffers (3 inputs, 1 output, 1 view), 1 device op of 1 kind in 1 bundle (0 fused), "
                         "0 cpu nodes")
        # comments name what the byte count is sized from: weight is f16
        # [4, 4] = 32 bytes -> 128; its transpose is a view with strides
        # (1, 4); with --dtype f32 the comments say f32
        b = Bir(text)
        self.assertIn("buffer weight : 128  // f16[4, 4] input", text)
        self.assertIn("buffer t      : 128  // f16[4, 4] stride [1, 4] out view", text)  # t's result
        self.assertIn("buffer addmm  : 128  // f16[2, 4] out", text)
        self.assertEqual(b.buffers["weight"], "128")
        f32 = T.Exporter(dtype="f32").export(m.eval(), [torch.randn(2, 4)], ["x"], "g")
        self.assertIn("// f32[4, 4] input", f32)
        self.assertNotIn("float32", f32)

    def test_plural(self):
        self.assertEqual([T.plural(n, "bundle") for n in (0, 1, 2)], ["0 bundles", "1 bundle", "2 bundles"])


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

    def test_unknown_model_says_so_with_a_suggestion(self):
        # resnet5 is no model (not "op resnet5: ..."); resnet50 is the
        # closest name; a name close to nothing gets no suggestion
        r = run_cli("resnet5")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertTrue(r.stderr.startswith("torch2bir: error: unknown model resnet5; did you mean resnet50"),
                        r.stderr)
        self.assertIn("--list", r.stderr)
        self.assertNotIn("op resnet5", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        r = run_cli("gtp2")
        self.assertIn("unknown model gtp2; did you mean gpt2? (", r.stderr)
        r = run_cli("zzzz")
        self.assertTrue(r.stderr.startswith("torch2bir: error: unknown model zzzz (--list"), r.stderr)

    def test_missing_model_file(self):
        r = run_cli("/nonexistent/m.py:build")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "torch2bir: error: no such model file /nonexistent/m.py\n")

    def test_list(self):
        # the script's own models first, then torchvision's classification
        # models sorted; every listed name is accepted as the model argument
        r = run_cli("--list")
        self.assertEqual(r.returncode, 0, r.stderr)
        names = r.stdout.splitlines()
        self.assertEqual(names[:2], ["gpt2", "transformer"])
        self.assertEqual(names[2:], sorted(names[2:]))
        for n in ("resnet50", "vit_b_16", "swin_t", "densenet121"):
            self.assertIn(n, names)
        for n in ("list_models", "get_model", "get_weight", "fasterrcnn_resnet50_fpn"):  # helpers, detection
            self.assertNotIn(n, names)
        self.assertEqual(names, T.model_names())

    def test_every_option_has_help(self):
        p = T.build_parser()
        for a in p._actions:
            self.assertTrue(a.help, a.option_strings or a.dest)
        self.assertIn("--batch N", p.format_help())
        self.assertIn("--seed N", p.format_help())



if __name__ == "__main__":
    unittest.main()
