"""numba.cuda.testing's test-suite helpers that user test suites import. simt is not numba's
CUDA simulator (its cpu backend compiles kernels to native code with the GPU's semantics), so
skip_on_cudasim never skips and skip_unless_cudasim always does."""
import unittest

ENABLE_CUDASIM = False  # (numba.config's flag, as these decorators read it)


class CUDATestCase(unittest.TestCase):
    """numba's base class for CUDA tests; each test ends with the device synchronized, so work a
    test leaves queued cannot run into the next one."""

    def tearDown(self):
        from . import synchronize
        synchronize()
        super().tearDown()


def skip_on_cudasim(reason):
    """Skip the test under numba's CUDA simulator: never, on simt."""
    return unittest.skipIf(ENABLE_CUDASIM, reason)


def skip_unless_cudasim(reason):
    """Run the test only under numba's CUDA simulator: always skipped on simt."""
    return unittest.skipUnless(ENABLE_CUDASIM, reason)
