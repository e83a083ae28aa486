"""Kernels written as text (for error-message tests): the text is saved as a module file, since
the kernel compiler reads a function's source through inspect."""
import importlib.util
import itertools

_counter = itertools.count()


def load_function(directory, source, name, header="import math\nimport cmath\nimport numpy as np\nfrom simt import cuda\n"):
    """Writes `header + source` to a new module in `directory` and returns its function `name`."""
    path = directory / f"simt_kernel_text_{next(_counter)}.py"
    path.write_text(header + source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def typing_error(directory, source, *args, name="k"):
    """The text of the TypingError raised by launching kernel `name` of `source` with `args`."""
    import pytest
    from simt import cuda

    kernel = cuda.jit(load_function(directory, source, name))
    with pytest.raises(cuda.TypingError) as info:
        kernel[1, 1](*args)
    return str(info.value)
