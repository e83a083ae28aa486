"""Wrapping native calls so that their result codes come back as enum members."""
import functools


def wrap_calls(native, result_enum, namespace):
    """Adds to `namespace` each call of module `native`, returning its tuple with the first item
    as a `result_enum` member (a code the enum lacks stays an int)."""
    def as_result(code):
        try:
            return result_enum(code)
        except ValueError:
            return code

    for name in dir(native):
        call = getattr(native, name)
        if name.startswith("_") or not callable(call):
            continue

        @functools.wraps(call)
        def wrapped(*args, _call=call, **kwargs):
            out = _call(*args, **kwargs)
            if isinstance(out, tuple):
                return (as_result(out[0]),) + out[1:]
            return out
        namespace[name] = wrapped
