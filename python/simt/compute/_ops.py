"""Operators of simt.compute: the built-in OpKind operators (kernel text) and user operators
(plain Python functions or lambdas, compiled as device functions into the generated kernel)."""
import enum
import inspect
import itertools
import re
import struct

import numpy as np

from .. import _simt


class OpKind(enum.IntEnum):
    """Built-in operators, named as cuda.compute names them."""
    STATELESS = 0
    STATEFUL = 1
    PLUS = 2
    MINUS = 3
    MULTIPLIES = 4
    DIVIDES = 5
    MODULUS = 6
    EQUAL_TO = 7
    NOT_EQUAL_TO = 8
    GREATER = 9
    LESS = 10
    GREATER_EQUAL = 11
    LESS_EQUAL = 12
    LOGICAL_AND = 13
    LOGICAL_OR = 14
    LOGICAL_NOT = 15
    BIT_AND = 16
    BIT_OR = 17
    BIT_XOR = 18
    BIT_NOT = 19
    IDENTITY = 20
    NEGATE = 21
    MINIMUM = 22
    MAXIMUM = 23


# Kernel text of each built-in, over operand texts a and b (simple names or loads, so that an
# operand written twice is evaluated twice harmlessly). MINIMUM/MAXIMUM pick as cuda::minimum and
# cuda::maximum do: a < b decides.
_BINARY = {
    OpKind.PLUS: "({a} + {b})", OpKind.MINUS: "({a} - {b})", OpKind.MULTIPLIES: "({a} * {b})",
    OpKind.DIVIDES: "({a} / {b})", OpKind.MODULUS: "({a} % {b})",
    OpKind.EQUAL_TO: "({a} == {b})", OpKind.NOT_EQUAL_TO: "({a} != {b})", OpKind.GREATER: "({a} > {b})",
    OpKind.LESS: "({a} < {b})", OpKind.GREATER_EQUAL: "({a} >= {b})", OpKind.LESS_EQUAL: "({a} <= {b})",
    OpKind.LOGICAL_AND: "(bool({a}) and bool({b}))", OpKind.LOGICAL_OR: "(bool({a}) or bool({b}))",
    OpKind.BIT_AND: "({a} & {b})", OpKind.BIT_OR: "({a} | {b})", OpKind.BIT_XOR: "({a} ^ {b})",
    OpKind.MINIMUM: "({a} if {a} < {b} else {b})", OpKind.MAXIMUM: "({b} if {a} < {b} else {a})",
}
_UNARY = {OpKind.LOGICAL_NOT: "(not {a})", OpKind.BIT_NOT: "(~{a})", OpKind.IDENTITY: "{a}",
          OpKind.NEGATE: "(-{a})"}

_device_functions = {}  # operator_key(user function) -> its device Dispatcher (which keeps the function alive)
_names = itertools.count()  # device functions are told apart by name: each gets a number of its own
_EMPTY_CELL = object()
_PLAIN = (bool, int, str, bytes, type(None))


def operator_key(func):
    """What makes two operator functions the same operator: their code, the values of the globals
    it reads, its defaults and captured values (all frozen into the kernel when it compiles). A
    lambda written inside a loop or a function is a new object each time it is evaluated but the
    same operator, so it compiles once. Numbers count by type and bits (-0.0 is not 0.0), NumPy
    arrays by dtype, shape and contents; other objects by identity (the compiled operator keeps
    them alive, so an identity cannot be reused)."""
    code = getattr(func, "__code__", None)
    if code is None or not inspect.isfunction(func):
        return func
    cells = []
    for cell in func.__closure__ or ():
        try:
            cells.append(_value_key(cell.cell_contents))
        except ValueError:  # a cell not yet filled
            cells.append(_EMPTY_CELL)
    g = func.__globals__
    read = tuple((name, _value_key(g[name])) for name in sorted(_global_names(code)) if name in g)
    defaults = tuple(_value_key(v) for v in func.__defaults__ or ())
    kwdefaults = tuple((k, _value_key(v)) for k, v in sorted((func.__kwdefaults__ or {}).items()))
    return ("code", code, id(g), read, tuple(cells), defaults, kwdefaults)


def _global_names(code):
    """Names the code (and the code of functions defined in it) may read as globals."""
    names = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            names |= _global_names(c)
    return names


def _value_key(v):
    if isinstance(v, np.generic):  # (before float: np.float64 is a float too)
        return (type(v), v.tobytes())
    if isinstance(v, (float, complex)):  # by bits: -0.0 is not 0.0, and a NaN finds itself
        return (type(v), struct.pack("<2d", v.real, v.imag))
    if isinstance(v, _PLAIN):
        return (type(v), v)
    if isinstance(v, np.dtype):
        return ("dtype", v)
    if type(v) is np.ndarray:
        return ("ndarray", v.dtype.str, v.shape, v.tobytes())
    if type(v) is tuple:
        return ("tuple",) + tuple(_value_key(e) for e in v)
    return ("id", id(v))


class Op:
    """An operator of a given arity: a built-in OpKind or a compiled user function."""
    __slots__ = ("kind", "func", "arity", "name")

    def __init__(self, op, arity, where):
        self.arity = arity
        self.kind = self.func = None
        if isinstance(op, OpKind):
            table = _BINARY if arity == 2 else _UNARY if arity == 1 else {}
            if op not in table:
                raise ValueError(f"{where}: OpKind.{op.name} is not a {_ARITY[arity]} operator; "
                                 f"use one of {', '.join('OpKind.' + k.name for k in table)} or a Python function")
            self.kind, self.name = op, f"OpKind.{op.name}"
        elif callable(op):
            _check_arity(op, arity, where)
            self.func, self.name = op, getattr(op, "__name__", "operator")
        else:
            raise TypeError(f"{where} must be an OpKind or a Python function taking {arity} argument"
                            f"{'s' if arity != 1 else ''}, not {type(op).__name__}")

    def key(self):
        return ("kind", int(self.kind)) if self.kind is not None else ("func", operator_key(self.func))

    @property
    def is_builtin(self):
        return self.kind is not None

    def call(self, ks, *args):
        """Kernel text of this operator applied to the operand texts `args` (registers the user
        function with kernel source `ks`)."""
        if self.kind is not None:
            table = _BINARY if self.arity == 2 else _UNARY
            return table[self.kind].format(a=args[0], b=args[-1])
        return f"{ks.device(device_function(self.func))}({', '.join(args)})"


_ARITY = {1: "unary", 2: "binary"}


def _check_arity(func, arity, where):
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) != arity or any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        raise TypeError(f"{where}: the operator {getattr(func, '__name__', func)!r} takes {len(positional)} "
                        f"argument{'s' if len(positional) != 1 else ''}, a {_ARITY.get(arity, arity)} operator "
                        f"needs {arity}")


def device_function(func):
    """The @cuda.jit(device=True) dispatcher of a user operator (a lambda gets a def made of its
    expression, since the kernel language has no lambda)."""
    key = operator_key(func)
    d = _device_functions.get(key)
    if d is None:
        from ..cuda._jit import Dispatcher
        if isinstance(func, Dispatcher):
            d = func
        elif getattr(func, "__name__", "") == "<lambda>":
            d = _lambda_dispatcher(func)
        else:
            if not inspect.isfunction(func):
                raise TypeError(f"operators must be Python functions (def or lambda), not {type(func).__name__}")
            d = _def_dispatcher(func)
        _device_functions[key] = d
    return d


def _def_dispatcher(func):
    """A def compiled under a name of its own: the kernel compiler tells device functions apart by
    name, and two operators may share one (closures made by one factory)."""
    from ..cuda._jit import _function_source
    source, filename, first_line, indent = _function_source(func)
    name = f"{func.__name__}_op{next(_names)}"
    source = re.sub(rf"^(\s*)def\s+{re.escape(func.__name__)}\s*\(", rf"\1def {name}(", source, count=1,
                    flags=re.M)
    return _make_dispatcher(func, name, source, filename, first_line, indent)


def _lambda_dispatcher(func):
    from ..cuda._lambda_source import lambda_source
    name, source, filename, line = lambda_source(func)
    return _make_dispatcher(func, name, source, filename, line, 0)


def _make_dispatcher(func, name, source, filename, first_line, indent):
    from ..cuda._jit import Dispatcher
    from ..cuda._resolve import make_resolver
    d = Dispatcher.__new__(Dispatcher)
    _simt.Dispatcher.__init__(d, name, source, filename, first_line, indent, make_resolver(func), {"device": True})
    d.py_func, d.__name__, d.__qualname__ = func, name, getattr(func, "__qualname__", name)
    d.targetoptions, d.__doc__, d.__wrapped__ = {"device": True}, None, func
    return d
