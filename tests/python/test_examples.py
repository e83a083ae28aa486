"""Every listing of the seed document, run as a script (examples/ holds them with only their
import lines changed)."""
import os

import pytest

from conftest import ROOT

SEED_ERROR_TEXT = ("Exception occurred: CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters "
                   "passed to the API call is not within an acceptable range of values.")


def example(name):
    return os.path.join(ROOT, "examples", name)


def test_vecadd_prints_test_succeeded(run_script):
    r = run_script(example("vecadd.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Test succeeded"


def test_vecadd_error_prints_the_seeds_text(run_script):
    r = run_script(example("vecadd_error.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == SEED_ERROR_TEXT


@pytest.mark.parametrize("name, expected", [
    ("kernel_definition.py", "Kernel defined"),
    ("kernel_launch.py", "Kernel launched with 4 blocks of 128 threads"),
    ("launch_2d.py", "2-D launch of (8, 4) blocks of (16, 16) threads"),
    ("thread_indexing.py", "Thread indexing succeeded"),
    ("create_arrays.py", "(1024, 1024) float64 (1048576,) float64 (1024, 1024) float64"),
    ("host_device_copy.py", "ndarray (1024, 1024) ndarray (1024, 1024)"),
    ("synchronize.py", "Synchronized; x[0] = 2.0"),
])
def test_fragment_listings_run(run_script, name, expected):
    r = run_script(example(name))
    assert r.returncode == 0, r.stderr
    assert expected in r.stdout


@pytest.mark.parametrize("name, expected", [
    ("raw_cuda_kernels.py", "raw CUDA C++ kernels ok on the"),
    ("sort_and_compute.py", "sort and compute ok on the"),
    ("coop_block_reduce.py", "coop block sums ok on the"),
    ("tile_kernels.py", "tile layer norm and matmul ok on the"),
])
def test_examples_beyond_the_seed(run_script, name, expected):
    # examples/beyond/: short programs for what simt adds to the seed (each asserts its results)
    r = run_script(example(os.path.join("beyond", name)))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith(expected)
