#!/usr/bin/python3
"""torch2bir: export a PyTorch model to sdscgen bundle IR (.bir, contract v3).

The model is traced at the ATen level with make_fx, functionalized (in-place
ops become explicit out-of-place ops; mutations of graph inputs become a final
in-place copy into the input), and then run once on meta tensors (shapes,
strides and storage sharing, no arithmetic) so that every view's storage and
byte offset is known exactly. Weights and buffers are graph
inputs, model outputs are graph outputs. Bundles follow torch-spyre's fusion
rule: one fused bundle per maximal contiguous run of device ops in execution
order; a CPU-fallback op is a boundary and becomes a top-level `cpu` node.
Every device op carries a `kind`: its ATen overload, argument values and
tensor types spelled as one identifier (see op_kind), so that ops that would
compile to the same SDSC share it.

See docs/exporter.md. Run with /usr/bin/python3 (Debian python3-torch).
Only the standard library and torch/torchvision are used.
"""

import argparse
import operator
import os
import re
import shlex
import sys

KEYWORDS = frozenset(
    "graph buffer bytes input output lx alias rename op cpu fused loop count "
    "reads writes step cores split kind".split()
)

# Overload packets (aten.NAME) that run on the CPU by default: Spyre has no
# device kernel for them in this model of the backend.
DEFAULT_CPU_OPS = ("argmax", "argmin", "sort", "topk")

# Overload packets treated as reductions by --isolate-reductions.
REDUCTION_OPS = frozenset(
    "sum mean amax amin max min prod var std var_mean std_mean norm "
    "linalg_vector_norm logsumexp _softmax _log_softmax native_layer_norm "
    "native_group_norm any all".split()
)

STICK = 128

# bytes per element of the exported integer/bool dtypes, and their .bir names
INT_DTYPES = {
    "torch.int64": ("i64", 8),
    "torch.int32": ("i32", 4),
    "torch.int16": ("i16", 2),
    "torch.int8": ("i8", 1),
    "torch.uint8": ("u8", 1),
    "torch.bool": ("bool", 1),
}
FLOAT_DTYPES = {"f32": 4, "f16": 2, "bf16": 2, "f8": 1}
TORCH_FLOATS = ("torch.float32", "torch.float16", "torch.bfloat16", "torch.float64")


class ModelError(Exception):
    """The model argument names no model: the message says so (with a
    did-you-mean when a known name is close)."""


class ExportError(Exception):
    """What the exporter cannot handle: the op it failed on and why."""

    def __init__(self, op, reason):
        super().__init__("op %s: %s" % (op, reason))
        self.op = op
        self.reason = reason


def _torch():
    import torch

    return torch


def functionalize_fn():
    """Returns (functionalize, description). torch 2.x: torch.func; 1.13: functorch."""
    try:
        from torch.func import functionalize  # torch >= 2.0

        return functionalize, "torch.func.functionalize"
    except ImportError:
        from functorch import functionalize  # torch 1.13

        return functionalize, "functorch.functionalize"


def functional_call_fn():
    try:
        from torch.func import functional_call  # torch >= 2.0

        return functional_call
    except ImportError:
        from torch.nn.utils.stateless import functional_call  # torch 1.13

        return functional_call


# ---------------------------------------------------------------- names


_BAD = re.compile(r"[^A-Za-z0-9_.]")


def sanitize(raw):
    """A valid .bir identifier for raw: letter or _, then letters, digits, _, .;
    never a keyword."""
    s = _BAD.sub("_", str(raw))
    if not s:
        s = "_"
    if not (s[0].isascii() and (s[0].isalpha() or s[0] == "_")):
        s = "_" + s
    if s in KEYWORDS:
        s = s + "_"
    return s


class Names:
    """One namespace: sanitized names, made unique with _2, _3, ... in the
    order they are taken (so the result is deterministic)."""

    def __init__(self):
        self.used = set()

    def take(self, raw):
        base = sanitize(raw)
        name, i = base, 2
        while name in self.used:
            name = "%s_%d" % (base, i)
            i += 1
        self.used.add(name)
        return name


# ---------------------------------------------------------------- helpers


def op_name(target):
    """aten.add.Tensor -> 'aten.add.Tensor'; python callables by name."""
    if hasattr(target, "_schema") or hasattr(target, "overloadpacket"):
        return str(target)
    return getattr(target, "__name__", str(target))


def packet(target):
    """The overload packet's short name: aten.add.Tensor -> 'add'."""
    p = getattr(target, "overloadpacket", None)
    if p is not None:
        return getattr(p, "__name__", str(p)).split(".")[-1]
    return getattr(target, "__name__", str(target))


def mutated_args(target):
    """Indices of the schema arguments the op writes (in-place / out=)."""
    schema = getattr(target, "_schema", None)
    if schema is None:
        return []
    out = []
    for i, a in enumerate(schema.arguments):
        info = a.alias_info
        if info is not None and info.is_write:
            out.append(i)
    return out


def _storage(t):
    try:
        return t.untyped_storage()  # torch >= 2.0
    except AttributeError:
        return t.storage()


def storage_key(t):
    """Identity of t's storage (its StorageImpl, which views share; meta
    tensors have one too), or None when t has no elements (never shared).
    Only valid while the tensors compared are alive."""
    if t.numel() == 0:
        return None
    return (str(t.device), _storage(t)._cdata)


def to_meta(tensors):
    """Meta copies of tensors (shape, strides, storage offset, dtype), with
    tensors that share a storage still sharing one meta storage. Tracing and
    running on meta tensors costs no arithmetic."""
    torch = _torch()
    bases, out = {}, []
    for t in tensors:
        if not isinstance(t, torch.Tensor) or t.device.type == "meta":
            out.append(t)
            continue
        k = storage_key(t)
        if k is None:
            out.append(torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta"))
            continue
        if k not in bases or bases[k].dtype != t.dtype:
            n = _storage(t).nbytes() // t.element_size() if hasattr(_storage(t), "nbytes") else _storage(t).size()
            if k in bases:  # a storage viewed with two dtypes: keep the first, copy this one
                out.append(torch.empty_strided(t.shape, t.stride(), dtype=t.dtype, device="meta"))
                continue
            bases[k] = torch.empty(n, dtype=t.dtype, device="meta")
        out.append(bases[k].as_strided(t.shape, t.stride(), t.storage_offset()))
    return out


def flatten(v):
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            out.extend(flatten(x))
        return out
    return [v]


def roundup(n, m=STICK):
    return (n + m - 1) // m * m


class Exporter:
    def __init__(self, dtype="f16", stick=False, cpu_ops=DEFAULT_CPU_OPS,
                 max_fused_ops=None, isolate_reductions=False):
        if dtype not in FLOAT_DTYPES:
            raise ValueError("unknown --dtype %r (one of %s)" % (dtype, ", ".join(FLOAT_DTYPES)))
        self.dtype = dtype
        self.stick = stick
        # "argmax", "aten.argmax" and "aten.argmax.default" all name the packet
        self.cpu_ops = frozenset(c[5:].split(".")[0] if c.startswith("aten.") else c.split(".")[0] for c in cpu_ops)
        self.max_fused_ops = max_fused_ops
        self.isolate_reductions = isolate_reductions

    # ---- dtype and sizes

    def export_dtype(self, t, where):
        d = str(t.dtype)
        if d in TORCH_FLOATS:
            return self.dtype, FLOAT_DTYPES[self.dtype]
        if d in INT_DTYPES:
            return INT_DTYPES[d]
        raise ExportError(where, "tensor dtype %s is not supported" % d)

    def span_elems(self, t):
        """Elements of storage the tensor spans (numel for a dense tensor)."""
        if t.numel() == 0:
            return 0
        return 1 + sum((s - 1) * st for s, st in zip(t.shape, t.stride()))

    def describe(self, t, where):
        """The buffer comment: the exported dtype and shape the size is
        computed from, and the strides when the tensor is not dense in
        row-major order (a view spans 1 + sum((size-1)*stride) elements)."""
        name, _ = self.export_dtype(t, where)
        s = "%s[%s]" % (name, ", ".join(str(d) for d in t.shape))
        if not t.is_contiguous():
            s += " stride [%s]" % ", ".join(str(d) for d in t.stride())
        return s

    def size_text(self, t, where, view):
        name, item = self.export_dtype(t, where)
        if self.stick and not view and t.is_contiguous():
            shape = list(t.shape) or [1]
            return "%s[%s]" % (name, ", ".join(str(d) for d in shape))
        return str(roundup(self.span_elems(t) * item))

    # ---- kinds

    def op_kind(self, target, args, kwargs, outs, where):
        """The op's `kind`: what its SDSC holds that the .bir does not say,
        spelled as one identifier (docs/exporter.md, "Kinds"):

            OVERLOAD . ARG . ARG ... . RESULT . RESULT ...

        OVERLOAD is the ATen overload (aten.relu.default); then one field per
        schema argument in schema order, defaults filled in (so an argument
        left out and the same value given explicitly spell the same), then
        one field per result. args, kwargs and outs are the run-time values
        (meta tensors). Two ops get the same kind exactly when they have the
        same overload, the same tensor types (exported dtype, shape, strides
        when not dense) and the same non-tensor arguments."""
        schema = getattr(target, "_schema", None)
        if schema is None:  # not an ATen overload: its name, then the values as given
            values = list(args) + [kwargs[k] for k in sorted(kwargs)]
            head = sanitize(op_name(target))
        else:
            values = bind(schema, args, kwargs, where)
            head = _BAD.sub("_", str(target))
        fields = [head] + [self.spell(v, where) for v in values] + [self.spell(t, where) for t in outs]
        kind = ".".join(fields)
        if not _IDENT.match(kind) or kind in KEYWORDS:  # cannot happen: every field is [A-Za-z0-9_]
            raise ExportError(where, "kind %r is not an identifier" % kind)
        return kind

    def spell(self, v, where):
        """One field of a kind (no '.' in it). Tensor: DTYPE_DIMS, DIMS the
        sizes joined by x (0d for a 0-d tensor), then _sSTRIDES when the
        tensor is not contiguous. Numbers: ints in decimal, n for minus;
        floats by Python's shortest repr with p for the point, n for minus
        (1en05 is 1e-05), integral floats as ints (2.0 is 2), inf, ninf,
        nan. None, True, False as in Python. A list: numbers joined by x;
        tensors (or None) joined by _, a run of K > 1 equal ones written
        once followed by _rK; empty for []. A string: a-z and 0-9 kept, any
        other byte _XX (hex), so no string spells None, True or False. A
        dtype: the exported dtype (f16, i64, ...); a device: dev for the
        model's own (traced as meta), else its type; a layout or memory
        format by its name (strided, contiguous_format)."""
        torch = _torch()
        if v is None:
            return "None"
        if isinstance(v, bool):
            return "True" if v else "False"
        if isinstance(v, int):
            return spell_number(v)
        if isinstance(v, float):
            return spell_number(v)
        if isinstance(v, torch.Tensor):
            dt, _ = self.export_dtype(v, where)
            s = "%s_%s" % (dt, "x".join(str(d) for d in v.shape) if v.dim() else "0d")
            if not v.is_contiguous():
                s += "_s" + "x".join(str(d) for d in v.stride())
            return s
        if isinstance(v, (list, tuple)):
            if not v:
                return "empty"
            parts = [self.spell(x, where) for x in v]
            if all(isinstance(x, (bool, int, float)) for x in v):
                return "x".join(parts)
            runs = []  # [part, count]: a run of K > 1 equal elements is PART_rK
            for x in parts:
                if runs and runs[-1][0] == x:
                    runs[-1][1] += 1
                else:
                    runs.append([x, 1])
            return "_".join(x if k == 1 else "%s_r%d" % (x, k) for x, k in runs)
        if isinstance(v, str):
            return spell_string(v)
        if isinstance(v, torch.dtype):
            d = str(v)
            if d in TORCH_FLOATS:
                return self.dtype
            if d in INT_DTYPES:
                return INT_DTYPES[d][0]
            raise ExportError(where, "dtype argument %s is not supported" % d)
        if isinstance(v, torch.device):  # meta stands for the model's device
            return "dev" if v.type == "meta" else spell_string(v.type)
        if isinstance(v, (torch.layout, torch.memory_format)):
            return str(v).replace("torch.", "")  # a name of a fixed set, [a-z_]
        raise ExportError(where, "cannot spell argument %r of type %s in a kind" % (v, type(v).__name__))

    # ---- tracing

    def trace(self, model, inputs):
        torch = _torch()
        from torch.fx.experimental.proxy_tensor import make_fx

        functionalize, self.fdesc = functionalize_fn()
        functional_call = functional_call_fn()
        pnames = [n for n, _ in model.named_parameters()] + [n for n, _ in model.named_buffers()]
        pvals = [p for _, p in model.named_parameters()] + [b for _, b in model.named_buffers()]
        np_ = len(pnames)

        def f(*flat):
            return functional_call(model, dict(zip(pnames, flat[:np_])), tuple(flat[np_:]))

        flat = to_meta([v.detach() for v in pvals] + list(inputs))
        with torch.no_grad():
            try:
                gm = make_fx(functionalize(f))(*flat)
            except ExportError:
                raise
            except Exception as e:  # make the failure one line: op + reason
                raise ExportError(failing_op(e), "cannot trace: %s" % first_line(e)) from None
        return gm, pnames, flat

    # ---- main entry

    def export(self, model, inputs, input_names, graph_name, header=()):
        torch = _torch()
        gm, pnames, flat = self.trace(model, inputs)
        graph = gm.graph
        dce(graph)
        nodes = list(graph.nodes)

        bufs = Names()
        nodenames = Names()
        decls = []  # (name, size text, comment)
        aliases = []  # (name, root, offset)
        in_names, out_names = [], []
        storages = {}  # storage key -> (root name, root byte offset real, root elem, export elem)
        bufname = {}  # fx node -> name or list of names
        value = {}  # fx node -> runtime value
        items = []  # ("op"|"cpu", name, reads, writes, reduction)

        def declare(name, t, where, kind):
            """Declare buffer name for tensor t; alias it to the storage root
            when t views an already declared storage."""
            key = storage_key(t)
            if key is not None and key in storages:
                root, root_off, real_item, exp_item = storages[key]
                real_off = t.storage_offset() * t.element_size()
                rel = real_off - root_off
                if rel < 0:
                    raise ExportError(where, "view of %s starts before its base" % root)
                off = rel * exp_item // real_item
                decls.append((name, self.size_text(t, where, True), "%s %s view" % (self.describe(t, where), kind)))
                aliases.append((name, root, off))
                return True
            decls.append((name, self.size_text(t, where, False), "%s %s" % (self.describe(t, where), kind)))
            if key is not None:
                _, exp_item = self.export_dtype(t, where)
                storages[key] = (name, t.storage_offset() * t.element_size(), t.element_size(), exp_item)
            return False

        # graph inputs: parameters and buffers, then the model inputs; in each
        # storage the input with the lowest offset is the root.
        placeholders = [n for n in nodes if n.op == "placeholder"]
        raw = list(pnames) + list(input_names)
        if len(raw) != len(placeholders):
            raise ExportError("placeholder", "expected %d graph inputs, traced %d" % (len(raw), len(placeholders)))
        order = sorted(range(len(placeholders)),
                       key=lambda i: (storage_key(flat[i]) is None, flat[i].storage_offset() if hasattr(flat[i], "storage_offset") else 0, i))
        # declaration order stays the placeholder order; only roots are chosen by offset
        chosen = {}
        for i in order:
            t = flat[i]
            if not isinstance(t, torch.Tensor):
                continue
            k = storage_key(t)
            if k is not None and k not in chosen:
                chosen[k] = i
        for i, node in enumerate(placeholders):
            t = flat[i]
            value[node] = t
            if not isinstance(t, torch.Tensor):
                continue
            name = bufs.take(raw[i])
            bufname[node] = name
            in_names.append(name)
        # roots first so that views of an input always find their root
        for i in sorted(range(len(placeholders)), key=lambda i: (0 if chosen.get(storage_key(flat[i])) == i else 1, i)):
            t = flat[i]
            if isinstance(t, torch.Tensor):
                declare(bufname[placeholders[i]], t, bufname[placeholders[i]], "input")
        # restore placeholder order of the declarations
        pos = {bufname[n]: j for j, n in enumerate(placeholders) if n in bufname}
        decls.sort(key=lambda d: pos[d[0]])

        for node in nodes:
            if node.op == "placeholder":
                continue
            if node.op == "output":
                for a in flatten(node.args[0]):
                    if isinstance(a, torch.fx.Node):
                        for n in flatten(bufname.get(a, [])):
                            if n not in out_names:
                                out_names.append(n)
                continue
            if node.op == "get_attr":
                t = getattr_path(gm, node.target)
                value[node] = t
                if isinstance(t, torch.Tensor):
                    name = bufs.take(node.target)
                    bufname[node] = name
                    in_names.append(name)
                    declare(name, t, node.target, "constant")
                continue
            if node.op != "call_function":
                raise ExportError(node.name, "unsupported FX node kind %s" % node.op)
            target = node.target
            args = torch.fx.node.map_aggregate(node.args, lambda a: value[a] if isinstance(a, torch.fx.Node) else a)
            kwargs = torch.fx.node.map_aggregate(node.kwargs, lambda a: value[a] if isinstance(a, torch.fx.Node) else a)
            if target is operator.getitem:
                value[node] = operator.getitem(*args)
                parent = bufname.get(node.args[0])
                if isinstance(parent, list) and isinstance(node.args[1], int):
                    bufname[node] = parent[node.args[1]]
                continue
            where = op_name(target)
            try:
                with torch.no_grad():
                    out = target(*args, **kwargs)
            except Exception as e:
                raise ExportError(where, "cannot run on meta tensors: %s" % first_line(e)) from None
            value[node] = out

            reads = []
            for a in flatten(list(node.args) + list(node.kwargs.values())):
                if isinstance(a, torch.fx.Node):
                    for n in flatten(bufname.get(a, [])):
                        if n not in reads:
                            reads.append(n)
            mut = mutated_args(target)
            mut_bufs = []
            for i in mut:
                a = node.args[i] if i < len(node.args) else None
                if isinstance(a, torch.fx.Node) and isinstance(bufname.get(a), str):
                    mut_bufs.append((value[a], bufname[a]))
            writes = [n for _, n in mut_bufs]

            outs = out if isinstance(out, (list, tuple)) else [out]
            multi = isinstance(out, (list, tuple))
            for t in outs:
                if isinstance(t, torch.Tensor) and t.layout != torch.strided:
                    raise ExportError(where, "%s output is not supported" % t.layout)
            names = []
            getitems = {}
            if multi:
                for u in node.users:
                    if u.target is operator.getitem and isinstance(u.args[1], int) and u.args[1] not in getitems:
                        getitems[u.args[1]] = u.name
            for i, t in enumerate(outs):
                if not isinstance(t, torch.Tensor):
                    names.append(None)
                    continue
                same = [n for (m, n) in mut_bufs if m is t]
                if same:  # in-place result: the mutated input itself
                    names.append(same[0])
                    continue
                raw_name = getitems.get(i, "%s.%d" % (node.name, i)) if multi else node.name
                name = bufs.take(raw_name)
                names.append(name)
                if not declare(name, t, where, "out"):
                    writes.append(name)
            bufname[node] = names if multi else names[0]
            if not any(isinstance(t, torch.Tensor) for t in outs) and not writes:
                node_kind = "cpu"  # returns no tensor
            elif packet(target) in self.cpu_ops:
                node_kind = "cpu"
            elif not writes:
                continue  # a pure view: only alias declarations
            else:
                node_kind = "op"
            red = packet(target) in REDUCTION_OPS
            opkind = self.op_kind(target, args, kwargs, outs, where) if node_kind == "op" else None
            items.append((node_kind, nodenames.take(node.name), reads, writes, red, opkind))

        bundles = self.bundle(items, nodenames)
        return self.render(graph_name, header, decls, in_names, out_names, aliases, bundles, items)

    # ---- fusion (torch-spyre's spyre_fuse_nodes, plus the two options)

    def bundle(self, items, nodenames):
        out = []  # ("cpu", item) | ("op", item) | ("fused", name, [items])
        run = []

        def close():
            if len(run) == 1:
                out.append(("op", run[0]))
            elif run:
                out.append(("fused", None, list(run)))
            run.clear()

        for it in items:
            if it[0] == "cpu":
                close()
                out.append(("cpu", it))
                continue
            if self.isolate_reductions and it[4]:
                close()
                run.append(it)
                close()
                continue
            if self.max_fused_ops is not None and len(run) >= self.max_fused_ops:
                close()
            run.append(it)
        close()
        # bundle names are taken after every op name, so they never steal one
        return [(b[0], nodenames.take("fused_" + b[2][0][1]), b[2]) if b[0] == "fused" else b for b in out]

    # ---- text

    def render(self, graph_name, header, decls, in_names, out_names, aliases, bundles, items):
        L = []
        for h in header:
            L.append("// " + h if h else "//")
        nops = sum(1 for it in items if it[0] == "op")
        ncpu = sum(1 for it in items if it[0] == "cpu")
        nfused = sum(1 for b in bundles if b[0] == "fused")
        nb = sum(1 for b in bundles if b[0] != "cpu")
        nkinds = len({it[5] for it in items if it[0] == "op"})
        L.append("// %s (%s, %s, %s), %s of %s in %s (%d fused), %s"
                 % (plural(len(decls), "buffer"), plural(len(in_names), "input"), plural(len(out_names), "output"),
                    plural(len(aliases), "view"), plural(nops, "device op"), plural(nkinds, "kind"),
                    plural(nb, "bundle"), nfused, plural(ncpu, "cpu node")))
        L.append("graph %s {" % graph_name)
        w = max((len(d[0]) for d in decls), default=0)
        for name, size, comment in decls:
            L.append("  buffer %s : %s  // %s" % (name.ljust(w), size, comment))
        L.append("")
        for n in in_names:
            L.append("  input %s" % n)
        if out_names:
            L.append("  output %s" % ", ".join(out_names))
        for name, root, off in aliases:
            L.append("  alias %s = %s + %d" % (name, root, off) if off else "  alias %s = %s" % (name, root))
        L.append("")

        def node_text(it, indent):
            node_kind, name, reads, writes, _, opkind = it
            s = "%s%s %s" % (indent, node_kind, name)
            if opkind:
                s += " kind " + opkind
            if reads:
                s += " reads " + ", ".join(reads)
            if writes:
                s += " writes " + ", ".join(writes)
            return s

        for b in bundles:
            if b[0] == "fused":
                L.append("  fused %s {" % b[1])
                for it in b[2]:
                    L.append(node_text(it, "    "))
                L.append("  }")
            else:
                L.append(node_text(b[1], "  "))
        L.append("}")
        return "\n".join(L) + "\n"


# ---------------------------------------------------------------- utilities


def plural(n, word):
    """'1 bundle', '2 bundles', '0 bundles'."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


def bind(schema, args, kwargs, where):
    """The values of schema's arguments, in schema order: positional ones
    from args, keyword-only ones (and any passed by name) from kwargs, the
    rest their defaults."""
    out = []
    for i, a in enumerate(schema.arguments):
        if i < len(args) and not a.kwarg_only:
            out.append(args[i])
        elif a.name in kwargs:
            out.append(kwargs[a.name])
        elif a.has_default_value():
            out.append(a.default_value)
        else:
            raise ExportError(where, "argument %s is missing" % a.name)
    return out


def spell_number(x):
    """A number as [A-Za-z0-9]: 3, n3 (-3), 0p5 (0.5), 1en05 (1e-05), inf,
    ninf, nan; a float with an integral value is spelled as the int."""
    if isinstance(x, float):
        if x != x:
            return "nan"
        if x in (float("inf"), float("-inf")):
            return "inf" if x > 0 else "ninf"
        if x == int(x) and abs(x) < 2**63:
            x = int(x)
        else:
            return repr(x).replace("-", "n").replace("+", "").replace(".", "p")
    return str(x).replace("-", "n")


def spell_string(s):
    """A string as [a-z0-9_]: a-z and 0-9 kept, every other byte of its
    UTF-8 spelled _XX in lowercase hex (so '_' is _5f: the spelling is
    one-to-one, and never None, True or False)."""
    out = []
    for ch in s:
        if ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            out.append(ch)
        else:
            out.extend("_%02x" % b for b in ch.encode("utf-8"))
    return "".join(out) or "_"


def first_line(e, limit=240):
    s = str(e).strip().splitlines()
    msg = s[0] if s else ""
    if len(msg) > limit:
        msg = msg[:limit].rstrip() + " ..."
    return "%s: %s" % (type(e).__name__, msg) if msg else type(e).__name__


def failing_op(e):
    """The ATen op being dispatched when e was raised (innermost frame with an
    OpOverload `func`), else the innermost frame outside torch."""
    tb = e.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for fr in reversed(frames):
        fn = fr.f_locals.get("func")
        if fn is not None and hasattr(fn, "_schema"):
            return str(fn)
    torch_dir = os.path.dirname(_torch().__file__)
    for fr in reversed(frames):
        path = fr.f_code.co_filename
        if not path.startswith(torch_dir) and "functorch" not in path and os.path.abspath(path) != os.path.abspath(__file__):
            return "%s (%s:%d)" % (fr.f_code.co_name, os.path.basename(path), fr.f_lineno)
    return "<unknown>"


def getattr_path(obj, target):
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def dce(graph):
    """Remove nodes nobody uses that have no side effect (e.g. the `empty`
    placeholders native_batch_norm's decomposition leaves)."""
    changed = True
    while changed:
        changed = False
        for node in reversed(list(graph.nodes)):
            if node.op not in ("call_function", "get_attr") or node.users:
                continue
            if node.op == "call_function" and mutated_args(node.target):
                continue
            if node.op == "call_function" and packet(node.target).startswith("_assert"):
                continue
            graph.erase_node(node)
            changed = True


# ---------------------------------------------------------------- the zoo


def gpt2_small(layers=12, width=768, heads=12, seq=128, vocab=50257):
    """A GPT-2-small-shaped decoder stack built from nn modules (no weights
    are downloaded): token + position embedding, pre-norm blocks of causal
    self-attention (fused qkv projection split into q, k, v) and a GELU MLP,
    final norm and an LM head tied to the token embedding."""
    import math

    torch = _torch()
    nn = torch.nn
    F = torch.nn.functional

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_attn = nn.Linear(width, 3 * width)
            self.c_proj = nn.Linear(width, width)
            self.register_buffer("mask", torch.tril(torch.ones(seq, seq)).view(1, 1, seq, seq))

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.c_attn(x).split(width, dim=2)
            q = q.view(b, t, heads, c // heads).transpose(1, 2)
            k = k.view(b, t, heads, c // heads).transpose(1, 2)
            v = v.view(b, t, heads, c // heads).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c // heads))
            att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
            return self.c_proj(y)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1 = nn.LayerNorm(width)
            self.attn = Attention()
            self.ln_2 = nn.LayerNorm(width)
            self.c_fc = nn.Linear(width, 4 * width)
            self.c_proj = nn.Linear(4 * width, width)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.c_proj(F.gelu(self.c_fc(self.ln_2(x))))

    class GPT2(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(vocab, width)
            self.wpe = nn.Embedding(seq, width)
            self.h = nn.ModuleList([Block() for _ in range(layers)])
            self.ln_f = nn.LayerNorm(width)
            self.register_buffer("pos", torch.arange(seq).view(1, seq))

        def forward(self, idx):
            x = self.wte(idx) + self.wpe(self.pos[:, : idx.shape[1]])
            for blk in self.h:
                x = blk(x)
            return F.linear(self.ln_f(x), self.wte.weight)

    return GPT2()


def _relu(x):
    return _torch().nn.functional.relu(x)


# the models written in this script, besides torchvision's
OWN_MODELS = ("gpt2", "transformer")


def model_names():
    """Every model name the exporter builds: its own, then torchvision's
    image classification models (torchvision.models.list_models, or on a
    torchvision without it the public callables of torchvision.models whose
    name starts with a lowercase letter), sorted."""
    import torchvision

    tm = torchvision.models
    if hasattr(tm, "list_models"):
        vision = tm.list_models(module=tm)
    else:  # torchvision < 0.14
        vision = [n for n in dir(tm) if n[:1].islower() and callable(getattr(tm, n)) and not n.startswith("get_")]
    return list(OWN_MODELS) + sorted(vision)


def unknown_model(name):
    """The ModelError for a name that is no model, with the closest names."""
    import difflib

    msg = "unknown model %s" % name
    close = difflib.get_close_matches(name, model_names(), n=3, cutoff=0.6)
    if close:
        msg += "; did you mean %s?" % (close[0] if len(close) == 1 else ", ".join(close[:-1]) + " or " + close[-1])
    return ModelError(msg + " (--list lists the models; FILE.py:FUNCTION builds your own)")


def zoo(name, batch, resolution, seq):
    """(model, inputs, input names) for a zoo model name."""
    torch = _torch()
    if ":" in name:  # FILE.py:FUNCTION
        path, fn = name.rsplit(":", 1)
        import importlib.util

        if not os.path.isfile(path):
            raise ModelError("no such model file %s" % path)
        spec = importlib.util.spec_from_file_location("torch2bir_user_model", path)
        if spec is None:
            raise ModelError("cannot load %s as Python" % path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        if not callable(getattr(mod, fn, None)):
            raise ModelError("%s has no function %s" % (path, fn))
        got = getattr(mod, fn)(batch)
        model, inputs = got[0], list(got[1])
        names = list(got[2]) if len(got) > 2 else (["x"] if len(inputs) == 1 else ["x%d" % i for i in range(len(inputs))])
        return model, inputs, names
    if name == "gpt2":
        m = gpt2_small(seq=seq)
        return m, [torch.randint(0, 50257, (batch, seq))], ["idx"]
    if name == "transformer":
        # activation is relu, passed as a plain function so that the encoder
        # layers take the op-by-op path instead of the one fused
        # _transformer_encoder_layer_fwd kernel of the inference fast path
        m = torch.nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                                 dim_feedforward=2048, batch_first=True, activation=_relu)
        return m, [torch.randn(batch, seq, 512), torch.randn(batch, seq, 512)], ["src", "tgt"]
    import torchvision

    if name not in model_names():
        raise unknown_model(name)
    m = getattr(torchvision.models, name)(weights=None)
    return m, [torch.randn(batch, 3, resolution, resolution)], ["x"]


def build_parser():
    p = argparse.ArgumentParser(prog="torch2bir.py", description=__doc__.split("\n\n")[0])
    p.add_argument("model", nargs="?", help="torchvision.models name (resnet50, vit_b_16, ...), gpt2, transformer, "
                   "or FILE.py:FUNCTION where FUNCTION(batch) returns (model, inputs[, input names])")
    p.add_argument("-o", "--output", default="-", help="output .bir file (default: stdout)")
    p.add_argument("--list", action="store_true", help="list the model names and exit")
    p.add_argument("--batch", type=int, default=1, metavar="N",
                   help="batch size: the leading dimension of every model input (default 1)")
    p.add_argument("--resolution", type=int, default=224, help="image side for vision models (default 224)")
    p.add_argument("--seq", type=int, default=128, help="sequence length for gpt2/transformer (default 128)")
    p.add_argument("--dtype", default="f16", choices=sorted(FLOAT_DTYPES),
                   help="element type floating tensors are sized with (default f16)")
    p.add_argument("--stick", action="store_true",
                   help="declare non-view buffers as dtype[shape] (the contract's stick rule) instead of bytes")
    p.add_argument("--cpu-ops", default=",".join(DEFAULT_CPU_OPS),
                   help="comma-separated ATen op names that fall back to the CPU (default %(default)s)")
    p.add_argument("--max-fused-ops", type=int, default=None, metavar="K", help="at most K ops per fused bundle")
    p.add_argument("--isolate-reductions", action="store_true", help="never fuse a reduction op with anything")
    p.add_argument("--graph-name", default=None, help="graph name (default: the model name)")
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help="torch.manual_seed before the model and its inputs are built (default 0); "
                   "tracing sees only shapes, so the .bir depends on it only when building the model does")
    return p


def parse_args(argv):
    p = build_parser()
    a = p.parse_args(argv)
    if a.model is None and not a.list:
        p.error("the model argument is required (--list lists the models)")
    if a.max_fused_ops is not None and a.max_fused_ops < 1:
        p.error("--max-fused-ops must be at least 1")
    if a.batch < 1:
        p.error("--batch must be at least 1")
    return a


def header_lines(argv, fdesc):
    torch = _torch()
    try:
        import torchvision

        tv = " torchvision " + torchvision.__version__
    except ImportError:
        tv = ""
    return [
        "Generated by torch2bir.py; do not edit. Regenerate with the command below.",
        "command: " + " ".join(shlex.quote(a) for a in argv),
        "torch %s%s, %s + make_fx; ATen graph bundled by torch-spyre's fusion rule" % (torch.__version__, tv, fdesc),
    ]


def main(argv=None):
    argv = sys.argv if argv is None else argv
    a = parse_args(argv[1:])
    if a.list:
        try:
            names = model_names()
        except ImportError as e:
            print("torch2bir: error: %s" % first_line(e), file=sys.stderr)
            return 1
        sys.stdout.write("".join(n + "\n" for n in names))
        return 0
    try:
        torch = _torch()
        torch.manual_seed(a.seed)
        ex = Exporter(dtype=a.dtype, stick=a.stick, cpu_ops=[s for s in a.cpu_ops.split(",") if s],
                      max_fused_ops=a.max_fused_ops, isolate_reductions=a.isolate_reductions)
        model, inputs, names = zoo(a.model, a.batch, a.resolution, a.seq)
        model.eval()
        _, fdesc = functionalize_fn()
        prog = os.path.basename(argv[0]) if argv and argv[0] else "torch2bir.py"
        gname = a.graph_name or os.path.basename(a.model.rsplit(":", 1)[0]).replace(".py", "")
        text = ex.export(model, inputs, names, sanitize(gname),
                         header=header_lines([prog] + list(argv[1:]), fdesc))
    except (ExportError, ModelError) as e:
        print("torch2bir: error: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # building the model, or a bug here
        if os.environ.get("TORCH2BIR_DEBUG"):
            raise
        print("torch2bir: error: model %s: %s (TORCH2BIR_DEBUG=1 shows the traceback)" % (a.model, first_line(e)),
              file=sys.stderr)
        return 1
    if a.output == "-":
        sys.stdout.write(text)
    else:
        tmp = a.output + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
