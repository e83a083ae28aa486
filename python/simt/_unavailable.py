"""The error for an attribute the active backend has no value of (a cpu-backend kernel's register
count, PTX of code compiled to host code). It is a NotImplementedError, which callers catch, and
an AttributeError, so feature probes (hasattr(k, "num_regs"), getattr(obj, name, default)) see the
attribute as absent instead of failing."""
import functools


class UnavailableAttributeError(NotImplementedError, AttributeError):
    """An attribute this backend cannot provide; the text says which and why."""


def unavailable_as_attribute_error(getter):
    """Wraps a property getter so that a NotImplementedError it raises (often from the C++
    engine, which knows only NotImplementedError) leaves it as an UnavailableAttributeError."""
    @functools.wraps(getter)
    def get(self):
        try:
            return getter(self)
        except UnavailableAttributeError:
            raise
        except NotImplementedError as e:
            raise UnavailableAttributeError(str(e)) from None
    return get
