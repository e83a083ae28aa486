// simt's <cupy/carray.cuh>: the element types of CuPy's kernels, complex<T> (cupy/complex.cuh)
// and float16 (cupy/float16.cuh). CuPy's CArray / CIndexer array views are not provided: simt
// passes arrays to raw kernels as pointers to their first element (as CuPy's RawKernel does).
#pragma once
#include <cupy/complex.cuh>
#include <cupy/float16.cuh>
