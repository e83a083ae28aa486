""".npy and .npz files (CuPy's save, savez, savez_compressed and load): the arrays go through
host memory explicitly, and NumPy writes and reads the files."""
import numpy as np

from ._creation import asarray
from ._ndarray import ndarray


def _host(a):
    return a.get() if isinstance(a, ndarray) else np.asarray(a)


def save(file, arr, allow_pickle=True):
    """Write one array to a .npy file (a path or an open binary file)."""
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, **kwds):
    """Write arrays to an uncompressed .npz file (positional ones as arr_0, arr_1, ...)."""
    np.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    """Write arrays to a compressed .npz file."""
    np.savez_compressed(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


class NpzFile:
    """The arrays of a .npz file, each copied to the device when read (CuPy's NpzFile)."""

    def __init__(self, npz_file):
        self.npz_file = npz_file

    def __enter__(self):
        self.npz_file.__enter__()
        return self

    def __exit__(self, typ, val, traceback):
        self.npz_file.__exit__(typ, val, traceback)

    def __getitem__(self, key):
        return asarray(self.npz_file[key])

    def __contains__(self, key):
        return key in self.npz_file

    def __iter__(self):
        return iter(self.npz_file)

    def __len__(self):
        return len(self.npz_file)

    def keys(self):
        return self.npz_file.keys()

    @property
    def files(self):
        return self.npz_file.files

    def close(self):
        self.npz_file.close()


def load(file, mmap_mode=None, allow_pickle=False):
    """Read a .npy file (an array, copied to the device) or a .npz file (an NpzFile whose arrays
    are copied to the device as they are read). Pickled objects other than arrays come back as
    NumPy loads them."""
    obj = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle)
    if isinstance(obj, np.lib.npyio.NpzFile):
        return NpzFile(obj)
    if isinstance(obj, np.ndarray):
        return asarray(obj)
    return obj
