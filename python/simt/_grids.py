"""simt.meshgrid: coordinate arrays from 1-D coordinate vectors (NumPy's signature), as views
of the vectors broadcast to the grid (copied unless copy=False)."""
from ._manipulation import _device_array, broadcast_arrays


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """One array per input, each varying along its own axis ('xy': the first two axes swapped,
    as for plotting; 'ij': matrix indexing). sparse=True keeps length-1 axes instead of
    broadcasting; copy=False returns views (broadcast views repeat elements: do not write)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    ones = (1,) * ndim
    output = [_device_array(x, f"meshgrid's argument {i}").reshape(ones[:i] + (-1,) + ones[i + 1:])
              for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + ones[2:])
        output[1] = output[1].reshape((-1, 1) + ones[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    if copy:
        output = [x.copy() for x in output]
    return tuple(output)


class _GridIndexer:
    """simt.mgrid / simt.ogrid: NumPy's index tricks (mgrid[0:3, 0:2], ogrid[0:5j]); the grids
    are made by NumPy on the host and copied to the device (they are small and made once)."""

    def __init__(self, numpy_indexer):
        self._numpy = numpy_indexer

    def __getitem__(self, key):
        from ._creation import asarray
        grid = self._numpy[key]
        return type(grid)(asarray(g) for g in grid) if isinstance(grid, (list, tuple)) else asarray(grid)


import numpy as _np  # noqa: E402

mgrid = _GridIndexer(_np.mgrid)
ogrid = _GridIndexer(_np.ogrid)
