"""A fixture that reshapes the passes of simt's generated array kernels, so small test arrays
exercise every code path: many splits and several partial passes, strided (GPU) and blocked
(CPU) splits, the GPU's thread mappings and block-cooperative kernels, multi-tile scans, and the
GPU's matmul tiling."""
import pytest

from simt import _kernelgen, _matmul, _reduce_passes, _scan

SHAPES = {
    "default": None,
    # The cuda backend's kernels, with tiny thresholds so even 10 elements take three passes.
    "gpu-like": {"reduce": {"threads": 64, "per_thread": 2, "partial_per_thread": 3, "unroll": 4, "blocked": False,
                            "column_bytes": 0},
                 "scan": {"threads": 64, "min_tile": 2},
                 "matmul": {"block": (4, 4), "tile": (2, 3), "interleaved": True}},
    # The cuda backend's block-cooperative reduction and look-back scan, with tiny blocks and tiles
    # (two warps, so both levels of the block combine run) and every length taking them.
    "gpu-block": {"reduce": {"threads": 64, "per_thread": 2, "partial_per_thread": 3, "unroll": 4, "blocked": False,
                             "column_bytes": 0, "block_threads": 64, "blocks_per_sm": 1, "max_blocks": 5,
                             "block_min_row": 1, "block_per_thread": 1, "block_unroll": 3},
                  "scan": {"threads": 64, "min_tile": 2, "tile_threads": 64, "tile_items": 3, "tile_min_line": 1},
                  "matmul": {"block": (4, 4), "tile": (2, 3), "interleaved": True}},
    # The cpu backend's kernels, likewise forced into several blocked splits.
    "cpu-split": {"reduce": {"threads": 16, "per_thread": 3, "partial_per_thread": 2, "unroll": 4, "blocked": True,
                             "column_bytes": 16},
                  "scan": {"threads": 16, "min_tile": 3},
                  "matmul": {"block": (3, 2), "tile": (1, 5), "interleaved": False}},
}


@pytest.fixture(params=list(SHAPES))
def pass_shapes(request, monkeypatch):
    shape = SHAPES[request.param]
    if shape is not None:
        backend = _kernelgen.backend_kind()
        monkeypatch.setitem(_reduce_passes.TUNING, backend, shape["reduce"])
        monkeypatch.setitem(_scan.TUNING, backend, shape["scan"])
        monkeypatch.setitem(_matmul.TUNING, backend, shape["matmul"])
    return request.param
