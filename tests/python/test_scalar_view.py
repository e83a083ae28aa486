"""x.view(dtype) in kernels (numba's scalar bitcast): the same bits read as another integer or
float type of the same size, as NumPy's view of a scalar; other uses are clear typing errors."""
import numpy as np
import pytest

import simt
from simt import cuda

PAIRS = [(np.float32, np.uint32), (np.float32, np.int32), (np.float64, np.int64), (np.int64, np.uint64),
         (np.uint16, np.float16), (np.int8, np.uint8)]


@pytest.mark.parametrize("src,dst", PAIRS)
def test_view_matches_numpy(rng, src, dst):
    @cuda.jit
    def kernel(x, out, back):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i].view(dst)
            back[i] = out[i].view(src)

    if np.dtype(src).kind == "f":
        a = np.concatenate([rng.standard_normal(60), [np.inf, -np.inf, 0.0, -0.0]]).astype(src)
    else:
        info = np.iinfo(src)
        a = rng.integers(info.min, info.max, 64, dtype=src, endpoint=True)
    out, back = simt.zeros(a.size, dst), simt.zeros(a.size, src)
    kernel[1, 64](simt.asarray(a), out, back)
    np.testing.assert_array_equal(out.get().view(np.uint8), a.view(dst).view(np.uint8))
    np.testing.assert_array_equal(back.get().view(np.uint8), a.view(np.uint8))


@pytest.mark.parametrize("body,match", [
    ("out[0] = x[0].view(np.uint64)", r"view\(\) needs a type of the same size: float32 has 4 bytes, uint64 has 8"),
    ("out[0] = x[0].view(3)", r"view\(\) takes a NumPy scalar type such as np.uint32, not int64"),
    ("out[0] = (x[0] > 0).view(np.uint8)", r"view\(\) reinterprets integers and real floats, not bool"),
])
def test_view_errors(kernel_module, body, match):
    mod = kernel_module(f"import numpy as np\nfrom simt import cuda\n\n@cuda.jit\ndef kernel(x, out):\n    {body}\n")
    with pytest.raises(simt.cuda.TypingError, match=match):
        mod.kernel[1, 1](simt.zeros(1, np.float32), simt.zeros(1, np.float32))
