"""coop.warp: primitives run by the threads of a warp together (cuda.coop.warp's names; the
make_* spellings are the same factories under cuda.coop's newer names)."""
from ._warp import exclusive_sum, inclusive_sum, reduce, sum

make_reduce, make_sum = reduce, sum
make_exclusive_sum, make_inclusive_sum = exclusive_sum, inclusive_sum

__all__ = ["reduce", "sum", "exclusive_sum", "inclusive_sum", "make_reduce", "make_sum", "make_exclusive_sum",
           "make_inclusive_sum"]
