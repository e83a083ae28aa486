"""A lambda as kernel-language source: `def simt_lambdaN(args):\n    return <its expression>`,
found in its file's text (the kernel language has no lambda; inspect gives a lambda's whole line,
which may hold several). Used for device functions, vectorize and cuda.compute's operators."""
import ast
import inspect
import itertools
import linecache

from .. import _simt

_names = itertools.count()


def is_lambda(func):
    return getattr(func, "__name__", "") == "<lambda>" and hasattr(func, "__code__")


def lambda_source(func):
    """(name, source, filename, first line) of `func`, a lambda; the name is new on every call
    (device functions are told apart by name, and two lambdas may share a line). The first line
    is the one before the lambda's, so that the `return` of the def, and with it any error in
    the expression, is on the lambda's own line."""
    filename = inspect.getsourcefile(func) or func.__code__.co_filename
    text = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        tree = None
    if tree is None:
        raise _simt.UnsupportedError(f"cannot compile a lambda from {filename}: its source code is not available; "
                                     "define the function with def in a file or notebook cell")
    line = func.__code__.co_firstlineno
    argnames = list(func.__code__.co_varnames[:func.__code__.co_argcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == line
             and [a.arg for a in n.args.args] == argnames]
    if len(found) > 1:  # several on the line: keep the one whose bytecode is func's
        found = [n for n in found if _same_code(ast.get_source_segment(text, n), func)]
    if len(found) != 1:
        raise _simt.UnsupportedError(f"cannot tell which lambda on line {line} of {filename} this is ({len(found)} "
                                     "match its arguments); define it with def")
    node = found[0]
    if node.args.defaults or node.args.kwonlyargs or node.args.vararg or node.args.kwarg:
        raise _simt.UnsupportedError(f"the lambda on line {line} of {filename} has default, keyword-only or * "
                                     "arguments, which device functions made from lambdas do not take; define it with def")
    body = ast.get_source_segment(text, node.body)
    name = f"simt_lambda{next(_names)}"
    # (parenthesized: a body spanning lines stays one expression)
    return name, f"def {name}({', '.join(argnames)}):\n    return ({body})\n", filename, line - 1


def _same_code(lambda_text, func):
    try:
        code = compile(lambda_text, "<lambda>", "eval").co_consts
    except SyntaxError:
        return False
    inner = [c for c in code if hasattr(c, "co_code")]
    if not inner:
        return False
    mine, theirs = inner[0], func.__code__
    # (compiled alone, a closure's variables are globals: compare the names read, and the
    # bytecode only where the lambda reads no enclosing variables)
    names = set(mine.co_names) | set(mine.co_freevars)
    return (names == set(theirs.co_names) | set(theirs.co_freevars) and mine.co_consts == theirs.co_consts
            and mine.co_varnames == theirs.co_varnames and (bool(theirs.co_freevars) or mine.co_code == theirs.co_code))
