"""numba-cuda's Dispatcher extras on simt's dispatcher: the compiled kernels' resource usage
(get_regs_per_thread & co., cuFuncGetAttribute's numbers), specialize(*args), inspect_types(),
and checking @cuda.jit(launch_bounds=...). Resource numbers come from the backend: on the cpu
backend those no GPU number honestly stands for (registers) raise NotImplementedError (see
python/simt/_kernel_attributes.py)."""
import operator
import re
import sys

from .. import _simt
from .._kernel_attributes import NUMBERS

# numba's getter -> the attribute it reads
RESOURCE_GETTERS = {
    "get_regs_per_thread": "num_regs",
    "get_shared_mem_per_block": "shared_size_bytes",
    "get_local_mem_per_thread": "local_size_bytes",
    "get_const_mem_size": "const_size_bytes",
    "get_max_threads_per_block": "max_threads_per_block",
}


def launch_bounds_option(value):
    """@cuda.jit(launch_bounds=...): an int (max threads per block) or a tuple of one to three
    positive ints (max threads per block, min blocks per multiprocessor, max blocks per cluster)."""
    items = (value,) if not isinstance(value, (tuple, list)) else tuple(value)
    if not 1 <= len(items) <= 3:
        raise ValueError(f"launch_bounds takes 1 to 3 values (max threads per block, min blocks per multiprocessor, "
                         f"max blocks per cluster), got {len(items)}: {value!r}")
    out = []
    for v in items:
        if isinstance(v, bool):
            raise TypeError(f"launch_bounds values are ints, got {v!r}")
        try:
            v = operator.index(v)
        except TypeError:
            raise TypeError(f"launch_bounds values are ints, got {type(v).__name__} {v!r}") from None
        if not 0 < v < 2 ** 31:
            raise ValueError(f"launch_bounds values must be positive 32-bit ints, got {v}")
        out.append(v)
    if out[0] > 1024:
        raise ValueError(f"launch_bounds: {out[0]} threads per block is more than a block can have (1024)")
    return tuple(out)


def resource(dispatcher, attribute, signature):
    """numba's rule: with `signature`, that specialization's value; for a specialized dispatcher
    (one compiled signature) the value; else {argument types: value} of every specialization."""
    from ._jit import _specialization_key
    values = _simt._specialization_attribute(dispatcher, NUMBERS[attribute])
    if signature is not None:
        key = _specialization_key(signature.args if hasattr(signature, "args") else signature)
        if key not in values:
            raise KeyError(f"kernel '{dispatcher.__name__}' has no specialization for {key} (compiled: "
                           f"{', '.join(map(str, values)) or 'none'})")
        return values[key]
    if dispatcher.specialized:
        if not values:
            raise RuntimeError(f"kernel '{dispatcher.__name__}' has no compiled specialization")
        return next(iter(values.values()))
    return values


# ---- specialize ----------------------------------------------------------------------------------
_ARRAY = re.compile(r"array\((\w+), (\d+)d, ([CFA])\)$")


def signature_type(text, where):
    """simt's name of a type ('array(float32, 2d, C)', 'UniTuple(int64 x 2)') as signature text
    ('float32[:, ::1]', 'UniTuple(int64, 2)')."""
    m = _ARRAY.match(text)
    if m:
        dtype, ndim, layout = m.group(1), int(m.group(2)), m.group(3)
        if ndim == 0:
            raise NotImplementedError(f"{where}: a 0-d array argument cannot be written in a signature")
        dims = [":"] * ndim
        if layout == "C":
            dims[-1] = "::1"
        elif layout == "F":
            dims[0] = "::1"
        return f"{dtype}[{', '.join(dims)}]"
    if text.startswith("UniTuple(") and text.endswith(")"):
        elem, _, count = text[len("UniTuple("):-1].rpartition(" x ")
        return f"UniTuple({signature_type(elem, where)}, {count})"
    if text.startswith("Tuple(") and text.endswith(")"):
        return "Tuple(" + ", ".join(signature_type(e, where) for e in _split_top(text[len("Tuple("):-1])) + ")"
    if re.fullmatch(r"\w+", text):
        return text
    raise NotImplementedError(f"{where}: an argument of type {text} cannot be written in a signature")


def _split_top(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def specialize(dispatcher, args):
    """A new dispatcher compiled for the types of `args` that compiles nothing more: launches
    with other types convert to it where they can, as a @cuda.jit(signature) kernel's do."""
    where = f"specialize() of kernel '{dispatcher.__name__}'"
    if dispatcher._device:
        raise TypeError(f"{where}: device functions are not specialized (specialize the kernels that call them)")
    if dispatcher.specialized:
        raise RuntimeError("Dispatcher already specialized")
    probe = type(dispatcher)(dispatcher.py_func, dispatcher.targetoptions)
    probe._compile(*args)
    key = next(iter(probe._sources()))
    text = "void(" + ", ".join(signature_type(t, where) for t in key) + ")"
    cached = dispatcher._specializations.get(text)
    if cached is None:
        cached = type(dispatcher)(dispatcher.py_func, dispatcher.targetoptions, [text])
        cached._specialized = True
        dispatcher._specializations[text] = cached
    return cached


# ---- inspect_types -------------------------------------------------------------------------------
def _bound_lines(source, first_line):
    """{line number in the file: names bound there} from the kernel's source (assignments, for
    targets, with-as, augmented assignments, the def line's parameters)."""
    import ast
    import textwrap
    tree = ast.parse(textwrap.dedent(source))
    lines = {}

    def add(node, names):
        lines.setdefault(node.lineno + first_line - 1, [])
        for n in names:
            if n not in lines[node.lineno + first_line - 1]:
                lines[node.lineno + first_line - 1].append(n)

    def names_of(target):  # (names bound: not those of subscripted or attribute targets)
        if isinstance(target, ast.Name):
            return [target.id]
        if isinstance(target, (ast.Tuple, ast.List)):
            return [n for e in target.elts for n in names_of(e)]
        if isinstance(target, ast.Starred):
            return names_of(target.value)
        return []

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            add(node, [n for t in node.targets for n in names_of(t)])
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            add(node, names_of(node.target))
        elif isinstance(node, ast.For):
            add(node, names_of(node.target))
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            add(node.optional_vars, names_of(node.optional_vars))
        elif isinstance(node, ast.NamedExpr):
            add(node, names_of(node.target))
    return lines


def inspect_types(dispatcher, file=None, signature=None, pretty=False):
    """Prints, for each compiled specialization (or `signature`'s), the kernel's typed signature
    and its source with the type of each variable under the line that binds it, and the types of
    all its variables (simt's analysis gives one type per variable)."""
    if pretty:
        raise NotImplementedError("inspect_types(pretty=True) needs numba's HTML annotation; simt prints text only")
    from ._jit import _function_source, _one_or_all
    file = sys.stdout if file is None else file
    typed = _simt._specialization_types(dispatcher)
    chosen = typed if signature is None else {k: v for k, v in typed.items() if k == _key(signature)}
    if signature is not None and not chosen:
        _one_or_all(typed, signature)  # (raises the usual KeyError naming the signature)
    source, filename, first_line, _ = _function_source(dispatcher.py_func)
    bound = _bound_lines(source, first_line)
    for key, info in chosen.items():
        types = dict(info["params"] + info["locals"])
        print(f"{dispatcher.__name__} ({', '.join(key)}) -> {info['return']}", file=file)
        print("-" * 80, file=file)
        print(f"# File: {filename}", file=file)
        for offset, text in enumerate(source.splitlines()):
            number = first_line + offset
            print(f"# --- LINE {number} --- ", file=file)
            print(text, file=file)
            indent = text[:len(text) - len(text.lstrip())]
            if text.lstrip().startswith("def "):
                for name, t in info["params"]:
                    print(f"{indent}    #   {name} = arg  :: {t}", file=file)
            for name in bound.get(number, ()):
                if name in types:
                    print(f"{indent}#   {name}  :: {types[name]}", file=file)
        print("# variables:", file=file)
        for name, t in info["params"] + info["locals"]:
            print(f"#   {name} :: {t}", file=file)
        print("=" * 80, file=file)


def _key(signature):
    from ._jit import _specialization_key
    return _specialization_key(signature)
