"""simt.split, array_split, hsplit, vsplit, dsplit: lists of views of one array (no copies),
with NumPy's rules for sections and its errors."""
from ._manipulation import _device_array


def array_split(ary, indices_or_sections, axis=0):
    """Views of `ary` split along `axis`: at the given indices, or into N nearly equal parts
    (the first len % N parts one longer)."""
    ary = _device_array(ary, "array_split's argument")
    total = ary.shape[axis]  # (an IndexError for a bad axis, as NumPy's)
    try:
        bounds = [0] + list(indices_or_sections) + [total]
        sections = len(bounds) - 1
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        bounds = [0]
        for i in range(sections):
            bounds.append(bounds[-1] + each + (1 if i < extras else 0))
    moved = ary.swapaxes(axis, 0)
    return [moved[bounds[i]:bounds[i + 1]].swapaxes(axis, 0) for i in range(sections)]


def split(ary, indices_or_sections, axis=0):
    """As array_split, but N sections must divide the axis exactly."""
    ary = _device_array(ary, "split's argument")
    try:
        len(indices_or_sections)
    except TypeError:
        if ary.shape[axis] % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-D arrays)."""
    ary = _device_array(ary, "hsplit's argument")
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0 of an array of 2 or more dimensions."""
    ary = _device_array(ary, "vsplit's argument")
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2 of an array of 3 or more dimensions."""
    ary = _device_array(ary, "dsplit's argument")
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)
