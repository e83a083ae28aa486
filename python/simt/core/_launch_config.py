"""simt.core.LaunchConfig: grid, block and dynamic shared memory of a launch."""


def _dims(value, what):
    """An int or a tuple of 1 to 3 positive ints, as a tuple."""
    dims = (value,) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(dims, tuple) or not 1 <= len(dims) <= 3 or \
            not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in dims):
        raise ValueError(f"LaunchConfig.{what} must be a positive int or a tuple of 1 to 3 positive ints, got {value!r}")
    return dims


class LaunchConfig:
    """How a kernel is launched: `grid` blocks of `block` threads, `shmem_size` bytes of dynamic shared memory."""

    def __init__(self, grid=None, cluster=None, block=None, shmem_size=None, is_cooperative=False):
        if grid is None or block is None:
            raise ValueError("LaunchConfig needs both grid= and block=")
        if cluster is not None:
            raise NotImplementedError("LaunchConfig(cluster=...): thread block clusters are not supported by simt.core")
        if is_cooperative:
            raise NotImplementedError("LaunchConfig(is_cooperative=True): cooperative launches are not supported by "
                                      "simt.core")
        self.grid = _dims(grid, "grid")
        self.block = _dims(block, "block")
        self.cluster = None
        self.is_cooperative = False
        shmem_size = 0 if shmem_size is None else shmem_size
        if not isinstance(shmem_size, int) or isinstance(shmem_size, bool) or shmem_size < 0:
            raise ValueError(f"LaunchConfig.shmem_size must be an int >= 0 (bytes), got {shmem_size!r}")
        self.shmem_size = shmem_size

    def __eq__(self, other):
        return isinstance(other, LaunchConfig) and (self.grid, self.block, self.shmem_size) == \
            (other.grid, other.block, other.shmem_size)

    def __hash__(self):
        return hash((self.grid, self.block, self.shmem_size))

    def __repr__(self):
        return f"LaunchConfig(grid={self.grid}, block={self.block}, shmem_size={self.shmem_size})"
