"""simt's benchmark suite: `python -m bench [--quick] [--json PATH] [--only NAME...]` runs every
workload on the active backend beside the libraries a user would pick instead (NumPy on the cpu
backend; numba-cuda, CuPy, PyTorch and a CUDA C++ floor on a GPU) and writes JSON plus tables.
`python -m bench.report` turns the JSON files in bench/results/ into docs/performance.md."""

SCHEMA = 1
