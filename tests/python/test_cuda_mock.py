"""The cuda backend end to end on a machine without a GPU: each test runs a script with
SIMT_BACKEND=cuda against tests/mock_cuda/mock_libcuda.cpp, a stand-in libcuda.so.1 (host memory,
instant streams, launches checked and recorded, built-in kernels emulated). Kernels are really
compiled by NVRTC and their cubins loaded by the stand-in, so this covers the backend's driver
calls, context handling, memory, copies, fills, random numbers, launch packing, streams, events,
errors and boundscheck readback; only kernel execution needs the GPU suite."""
import glob
import json
import os
import subprocess
import sys
import textwrap

import pytest

import simt

from conftest import ROOT

SIMT_PATH = os.path.dirname(os.path.dirname(os.path.abspath(simt.__file__)))  # where the simt under test lives

NVRTC, WHY = simt._simt._nvrtc_available()
pytestmark = pytest.mark.skipif(not NVRTC, reason=f"NVRTC not found: {WHY}")

SEED_ERROR_TEXT = ("Exception occurred: CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters "
                   "passed to the API call is not within an acceptable range of values.")

PRELUDE = """
import ctypes, json, os, sys
import numpy as np
import simt
from simt import cuda
mock = ctypes.CDLL("libcuda.so.1")
mock.mock_cuda_launch_count.restype = ctypes.c_long
mock.mock_cuda_bytes_in_use.restype = ctypes.c_size_t
mock.mock_cuda_release_threshold.restype = ctypes.c_uint64

def last_launch():
    name = ctypes.create_string_buffer(256)
    dims = (ctypes.c_uint * 7)()
    stream = ctypes.c_void_p()
    p0 = (ctypes.c_ubyte * 24)()
    p1 = (ctypes.c_ubyte * 8)()
    mock.mock_cuda_last_launch(name, ctypes.c_size_t(256), dims, ctypes.byref(stream), p0, p1)
    return name.value.decode(), list(dims), stream.value or 0, bytes(p0), bytes(p1)

def make(c):  # a distinct kernel 'k' per constant (the constant is part of its code)
    @cuda.jit
    def k(A):
        A[cuda.grid(1)] = c
    return k
"""


@pytest.fixture(scope="module")
def mock_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("mock_cuda")
    cxx = os.environ.get("CXX", "c++").split()
    src = os.path.join(ROOT, "tests", "mock_cuda", "mock_libcuda.cpp")
    cmd = cxx + ["-std=c++17", "-O1", "-shared", "-fPIC", "-I", os.path.join(ROOT, "src", "simt"), src,
                 "-o", str(out / "libcuda.so.1"), "-Wl,-soname,libcuda.so.1"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture
def on_mock(mock_dir, tmp_path):
    """Runs Python code on the cuda backend over the stand-in driver; returns its stdout."""
    def run(code, env=None, expect_ok=True, script_name="script.py"):
        script = tmp_path / script_name
        script.write_text(PRELUDE + textwrap.dedent(code))
        full_env = dict(os.environ)
        full_env.update({
            "SIMT_BACKEND": "cuda",
            "LD_LIBRARY_PATH": str(mock_dir) + os.pathsep + os.environ.get("LD_LIBRARY_PATH", ""),
            "SIMT_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONPATH": os.pathsep.join(p for p in (SIMT_PATH, os.environ.get("PYTHONPATH")) if p),
            # Kernels take the NVRTC path whose driver calls these tests check; the NVVM IR path
            # has its own test below (SIMT_NVVM=1).
            "SIMT_NVVM": "0",
        })
        full_env.update(env or {})
        r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=full_env, timeout=300,
                           cwd=str(tmp_path))
        if expect_ok:
            assert r.returncode == 0, r.stdout + r.stderr
        return r
    run.last_script = tmp_path / "script.py"
    return run


def test_backend_device_and_pool(on_mock, mock_dir):
    r = on_mock("""
        assert simt.backend() == "cuda" and cuda.is_available()
        d = cuda.Device()
        assert d.name == "simt mock GPU 0", d.name
        assert d.compute_capability == (9, 0)
        assert d.attributes["total_memory"] == 1 << 30
        a = simt.zeros(1000)
        assert mock.mock_cuda_release_threshold() == 2**64 - 1  # freed memory stays in the pool
        used = mock.mock_cuda_bytes_in_use()
        assert used >= 8000, used
        del a
        assert mock.mock_cuda_bytes_in_use() == used - 8000  # stream-ordered free happened
        mock.mock_cuda_pool_trims.restype = ctypes.c_int
        simt.get_default_memory_pool().free_all_blocks()
        assert mock.mock_cuda_pool_trims() == 1
        print(json.dumps(simt.pathfinder.report()["libcuda"]))
    """)
    libcuda = json.loads(r.stdout.strip().splitlines()[-1])
    assert libcuda["path"] == str(mock_dir / "libcuda.so.1") and libcuda["found_by"] == "OS loader"


def test_copies_fills_and_device_copies(on_mock):
    on_mock("""
        rng = np.random.default_rng(7)
        for n in [1, (8 << 20) - 1, 8 << 20, (8 << 20) + 1, 5 * (8 << 20) + 12345]:
            host = rng.integers(0, 256, n, dtype=np.uint8)
            original = host.copy()
            d = simt.asarray(host)
            host[:] = 0
            np.testing.assert_array_equal(d.get(), original)
            np.testing.assert_array_equal(d.copy().get(), original)
        for dtype, value in [(np.int8, -7), (np.uint16, 0xBEEF), (np.float32, -2.5), (np.int64, 0x123456789ABCDEF0),
                             (np.float64, np.pi), (np.float64, 0.0), (np.complex64, 1.5 - 2.25j),
                             (np.complex128, -0.1 + 3.7j), (np.complex128, 0), (np.float16, 0.333), (np.int32, 5)]:
            np.testing.assert_array_equal(simt.full(1001, value, dtype=dtype).get(), np.full(1001, value, dtype=dtype))
        assert mock.mock_cuda_host_allocations() >= 1  # copies went through pinned staging buffers
    """)


def test_random_numbers_match_the_cpu_backend(on_mock):
    code = """
        simt.random.seed(987654321)
        parts = [simt.random.uniform(-3, 5, 1001).get(), simt.random.uniform(-1, 1, 1003, dtype=np.float32).get(),
                 simt.random.randint(-50, 1000, 777).get(), simt.random.randint(0, 100, 99, dtype=np.int8).get(),
                 simt.random.randint(0, 30000, 55, dtype=np.int16).get(), simt.random.randint(0, 9, 33, dtype=np.int32).get()]
        print(json.dumps([p.tobytes().hex() for p in parts]))
    """
    on_cuda = on_mock(code).stdout.strip().splitlines()[-1]
    on_cpu = on_mock(code.replace("mock = ctypes", "mock_ = ctypes"), env={"SIMT_BACKEND": "cpu"},
                     script_name="cpu.py").stdout.strip().splitlines()[-1]
    assert on_cuda == on_cpu


def test_seed_error_listing_prints_the_seed_text(on_mock):
    r = on_mock(open(os.path.join(ROOT, "examples", "vecadd_error.py")).read().replace("import numpy as np", "", 1))
    assert r.stdout.strip().splitlines()[-1] == SEED_ERROR_TEXT


def test_launch_packs_arguments_and_uses_the_stream(on_mock):
    on_mock("""
        @cuda.jit
        def scale(A, factor):
            i = cuda.grid(1)
            A[i] = A[i] * factor

        a = simt.zeros(1000)
        before = mock.mock_cuda_launch_count()
        scale[4, 256](a, 2.5)
        assert mock.mock_cuda_launch_count() == before + 1
        name, dims, stream, p0, p1 = last_launch()
        assert name == "scale" and dims == [4, 1, 1, 256, 1, 1, 0] and stream == 0
        data, shape, stride = np.frombuffer(p0, dtype=np.int64)
        assert (data, shape, stride) == (a.data_ptr, 1000, 8)
        assert np.frombuffer(p1, dtype=np.float64)[0] == 2.5
        s = cuda.stream()
        scale[(2, 3), (8, 4, 2), s, 128](a, 1.0)
        name, dims, stream, _, _ = last_launch()
        assert dims == [2, 3, 1, 8, 4, 2, 128] and stream == s.ptr != 0
        with s:
            scale[1, 32](a, 1.0)
            assert last_launch()[2] == s.ptr
            scale[1, 32, 0](a, 1.0)  # an explicit default stream wins over `with`
            assert last_launch()[2] == 0
        scale[1, 32](a, 1.0)
        assert last_launch()[2] == 0
        scale.forall(5000)(a, 3.0)
        assert last_launch()[1][:4] == [40, 1, 1, 128]
    """)


def test_a_repeated_launch_configuration_keeps_its_meaning(on_mock):
    """kernel[config] reuses the last configuration object when the same one comes again; the
    grid, block, shared memory, stream and kernel must still be exactly what this call says."""
    on_mock("""
        @cuda.jit
        def scale(A, factor):
            i = cuda.grid(1)
            A[i] = A[i] * factor

        @cuda.jit
        def shift(A, amount):
            i = cuda.grid(1)
            A[i] = A[i] + amount

        a = simt.zeros(1000)
        s = cuda.stream()
        big = 2**40
        for config, dims in [((2, 64), [2, 1, 1, 64, 1, 1, 0]), ((4, 256), [4, 1, 1, 256, 1, 1, 0]),
                             ((2, 64), [2, 1, 1, 64, 1, 1, 0]), ((int("2"), int("64")), [2, 1, 1, 64, 1, 1, 0]),
                             ((2, 64, 0, 256), [2, 1, 1, 64, 1, 1, 256]), ((2, 64, 0, 0), [2, 1, 1, 64, 1, 1, 0])]:
            scale[config](a, 1.0)
            assert last_launch()[1] == dims, (config, last_launch()[1])
        with s:
            scale[1, 32](a, 1.0)
            assert last_launch()[2] == s.ptr
        scale[1, 32](a, 1.0)  # the same key, another current stream
        assert last_launch()[2] == 0
        with s:
            scale[1, 32](a, 1.0)
            assert last_launch()[2] == s.ptr
            scale[1, 32, None](a, 1.0)  # a stream given: the current one does not matter
            assert last_launch()[2] == 0
        scale[1, 32, s](a, 1.0)
        assert last_launch()[2] == s.ptr
        shift[1, 32, s](a, 1.0)  # another kernel, the same key
        assert last_launch()[0] == "shift"
        configured = scale[3, 32]
        assert configured.griddim == (3, 1, 1) and scale[3, 32].griddim == (3, 1, 1)
        for bad in [(big, 32), (1, 2048)]:
            try:
                scale[bad](a, 1.0)
            except (cuda.CUDAError, ValueError, OverflowError):
                pass
            else:
                raise AssertionError(f"launch {bad} should fail")
            try:  # and again: a failed configuration is not remembered as a good one
                scale[bad](a, 1.0)
            except (cuda.CUDAError, ValueError, OverflowError):
                pass
            else:
                raise AssertionError(f"second launch {bad} should fail")
        scale[2, 64](a, 1.0)
        assert last_launch()[1] == [2, 1, 1, 64, 1, 1, 0]
        # Items that can change in place are read again at every launch.
        grid, block, shared = [2], [64], np.array(128)
        for g, b, sh in [(2, 64, 128), (7, 32, 512)]:
            grid[0], block[0] = g, b
            shared[()] = sh
            scale[grid, block, 0, shared](a, 1.0)
            assert last_launch()[1] == [g, 1, 1, b, 1, 1, sh], last_launch()[1]
            scale[np.array(g), (b,)](a, 1.0)
            assert last_launch()[1] == [g, 1, 1, b, 1, 1, 0], last_launch()[1]
    """)


def test_invalid_launches_raise_and_the_next_launch_works(on_mock):
    on_mock("""
        @cuda.jit
        def k(A):
            A[cuda.grid(1)] = 1.0

        a = simt.zeros(10)
        count = mock.mock_cuda_launch_count()
        for config in [(1, 2048), (2**33, 1), (1, (32, 32, 2)), (0, 1)]:
            try:
                k[config](a)
            except cuda.CUDAError as e:
                assert str(e).startswith("CUDA_ERROR_INVALID_VALUE: This indicates"), str(e)
                assert e.code == 1 and e.name == "CUDA_ERROR_INVALID_VALUE"
            else:
                raise AssertionError(f"{config} launched")
        assert mock.mock_cuda_launch_count() == count
        k[1, 10](a)
        cuda.synchronize()
        assert mock.mock_cuda_launch_count() == count + 1
    """.replace("k[config]", "k[config[0], config[1]]"))


def test_boundscheck_record_is_read_at_synchronization_points(on_mock):
    r = on_mock("""
        @cuda.jit(boundscheck=True)
        def k(A):
            A[cuda.grid(1)] = 2.0

        a = simt.zeros(10)
        mock.mock_cuda_inject_bounds_error(ctypes.c_int64(12), ctypes.c_int64(10))
        k[1, 16](a)
        try:
            cuda.synchronize()
        except IndexError as e:
            print("IndexError:", e)
        cuda.synchronize()  # reported once: the record was reset
        k[1, 10](a)
        cuda.synchronize()
        mock.mock_cuda_inject_bounds_error(ctypes.c_int64(-20), ctypes.c_int64(10))
        k[1, 16](a)
        try:
            a.get()
        except IndexError as e:
            print("IndexError:", e)
        s = cuda.stream()
        mock.mock_cuda_inject_bounds_error(ctypes.c_int64(99), ctypes.c_int64(10))
        k[1, 16, s](a)
        try:
            s.synchronize()
        except IndexError as e:
            print("IndexError:", e)
    """)
    lines = [l for l in r.stdout.splitlines() if l.startswith("IndexError")]
    assert len(lines) == 3, r.stdout
    script = on_mock.last_script.read_text().splitlines()
    line = next(i for i, text in enumerate(script, 1) if "A[cuda.grid(1)] = 2.0" in text)
    assert lines[0] == (f"IndexError: index 12 is out of bounds for axis 0 with size 10 (array 'A' of shape (10,), "
                        f"index (12)) in kernel 'k' at {on_mock.last_script}:{line}")
    assert "index -20 is out of bounds" in lines[1] and "index 99 is out of bounds" in lines[2]


def test_out_of_memory_names_the_size(on_mock):
    on_mock("""
        for n in [2 << 30, 700 << 20]:
            held = simt.empty(700 << 20, dtype=np.uint8)
            try:
                simt.empty(n, dtype=np.uint8)
            except cuda.OutOfMemoryError as e:
                assert isinstance(e, MemoryError)
                assert f"cannot allocate {n} bytes" in str(e), str(e)
                assert "on device 0 (simt mock GPU 0" in str(e) and "CUDA_ERROR_OUT_OF_MEMORY" in str(e), str(e)
            else:
                raise AssertionError("allocated more than the device has")
            del held
        simt.empty(700 << 20, dtype=np.uint8)  # the memory came back
    """)


def test_contexts_on_other_threads_and_devices(on_mock):
    on_mock("""
        import threading
        errors = []
        def work():
            try:
                a = simt.asarray(np.arange(100.0))  # a host copy: the stand-in driver runs no kernels
                b = simt.zeros(100)
                @cuda.jit
                def k(A):
                    A[cuda.grid(1)] = 1.0
                k[1, 100](b)
                cuda.synchronize()
                np.testing.assert_array_equal(a.get(), np.arange(100.0))
                with cuda.Device(1):
                    c = simt.full(10, 3.0)
                    assert cuda.Device().id == 1
                    np.testing.assert_array_equal(c.get(), np.full(10, 3.0))
                assert cuda.Device().id == 0
                cuda.Device(1).synchronize()  # syncs device 1, leaves device 0 current
                assert cuda.Device().id == 0
            except Exception as e:
                errors.append(repr(e))
        t = threading.Thread(target=work)
        t.start(); t.join()
        assert not errors, errors
        assert len(cuda.gpus) == 2 and [d.name for d in cuda.gpus] == ["simt mock GPU 0", "simt mock GPU 1"]
        try:
            cuda.select_device(2)
        except cuda.CUDAError as e:
            assert "CUDA_ERROR_INVALID_DEVICE" in str(e)
        else:
            raise AssertionError("device 2 selected")
    """, env={"SIMT_MOCK_CUDA_DEVICES": "2"})


def test_array_operations_follow_the_current_stream(on_mock):
    code = """
        mock.mock_cuda_last_stream.restype = ctypes.c_void_p
        def stream_of(kind):
            return mock.mock_cuda_last_stream(kind.encode()) or 0
        x = simt.ones(64, dtype=np.float32)
        blocking, non_blocking = cuda.stream(), cuda.Stream(non_blocking=True)
        for st in (blocking, non_blocking):
            with st:
                z = x + 1                                  # an operator: its kernel and its result
                assert last_launch()[2] == st.ptr and stream_of("alloc") == st.ptr
                y = z.astype(np.float64)                   # a conversion kernel
                assert last_launch()[2] == st.ptr
                w = z.copy()                               # a device-to-device copy
                assert stream_of("dtod") == st.ptr
                f = simt.zeros(16)                         # a fill
                assert stream_of("memset") == st.ptr
                h = simt.asarray(np.arange(8.0))           # a host-to-device copy
                assert stream_of("htod") == st.ptr
                r = simt.random.random(16)                 # random numbers (a built-in kernel)
                assert last_launch()[2] == st.ptr
                t = z.sum()                                # a library kernel written in Python
                assert last_launch()[2] == st.ptr
            st.synchronize()
            assert h.get()[7] == 7.0  # (the stand-in copies memory but runs no kernels)
        z = x + 1                                          # outside: the default stream again
        assert last_launch()[2] == 0 and stream_of("alloc") == 0
        with non_blocking:                                 # a device-0 stream; on device 1 that
            with cuda.Device(1):                           # device's own default stream serves
                u = simt.zeros(8)
                assert stream_of("memset") == 0 and stream_of("alloc") == 0
                v = u + 1
                assert last_launch()[2] == 0
            w = x + 2                                      # back on device 0: the stream again
            assert last_launch()[2] == non_blocking.ptr
        print("ok")
    """
    assert on_mock(code, env={"SIMT_MOCK_CUDA_DEVICES": "2"}).stdout.split() == ["ok"]


def test_events_streams_and_timing(on_mock):
    on_mock("""
        start, end = cuda.event(), cuda.event()
        start.record(); end.record()
        assert end.query() and cuda.event_elapsed_time(start, end) >= 0
        s = cuda.Stream(non_blocking=True)
        end.record(s); end.wait(s); s.synchronize(); assert s.query()
        no_timing = cuda.Event(timing=False)
        no_timing.record()
        try:
            start.elapsed_time(no_timing)
        except cuda.CUDAError as e:
            assert str(e) == "CUDA_ERROR_INVALID_HANDLE: This indicates that a resource handle passed to the API call was not valid.", str(e)
        else:
            raise AssertionError("timing from an event without timing")
        del s
    """)


def test_kernels_come_from_nvrtc_and_the_disk_cache(on_mock):
    code = """
        @cuda.jit
        def k(A):
            A[cuda.grid(1)] = 3.0
        a = simt.zeros(8)
        k[1, 8](a)
        ptx = list(k.inspect_asm().values())[0]
        assert ".target sm_90" in ptx and ".entry k(" in ptx
        print(dict(simt._simt.compile_counters()))
        print("nvrtc loaded:", "libnvrtc" in open("/proc/self/maps").read())
    """
    first = on_mock(code).stdout
    assert "'compiled': 2" in first  # the cubin, then the PTX for inspect_asm
    assert "nvrtc loaded: True" in first
    second = on_mock(code).stdout
    assert "'compiled': 0" in second and "'disk_hits': 2" in second
    assert "nvrtc loaded: False" in second  # cached kernels need no NVRTC at all


@pytest.mark.skipif(not simt._simt._nvvm_available()[0], reason="libNVVM not found (pip install nvidia-nvvm)")
def test_nvvm_ir_kernels_load_as_ptx_and_leave_nvrtc_cubins_for_later_processes(on_mock):
    code = """
        a = simt.zeros(8)
        for c in (1.5, 2.5):
            make(c)[1, 8](a)
            assert last_launch()[0] == "k"
        simt._simt._wait_for_cubin_backfill()
        c = dict(simt._simt.compile_counters())
        print(mock.mock_cuda_ptx_jits(), c["compiled"], c["nvvm_compiled"], c["disk_hits"],
              "libnvrtc" in open("/proc/self/maps").read())
    """
    # Cold: libNVVM's PTX, compiled by the driver (two JITs); NVRTC's cubins are made meanwhile.
    assert on_mock(code, env={"SIMT_NVVM": "1"}).stdout.split() == ["2", "2", "2", "0", "True"]
    # Warm: the backfilled cubins from the disk cache, no JIT, no compile, no NVRTC.
    assert on_mock(code, env={"SIMT_NVVM": "1"}).stdout.split() == ["0", "0", "0", "2", "False"]


@pytest.mark.skipif(not simt._simt._nvvm_available()[0], reason="libNVVM not found (pip install nvidia-nvvm)")
def test_a_forked_child_exits_without_waiting_for_the_parents_backfill(on_mock):
    code = """
        import time
        a = simt.zeros(8)
        for c in range(6):  # cubins queued on the parent's backfill thread
            make(float(c))[1, 8](a)
        pid = os.fork()
        if pid == 0:  # the child exits normally (atexit runs) while the parent's queue may be busy
            sys.exit(0)
        t = time.time()
        for _ in range(200):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        print("child exit", done == pid and os.WEXITSTATUS(status) == 0, time.time() - t < 5)
    """
    assert on_mock(code, env={"SIMT_NVVM": "1"}).stdout.split() == ["child", "exit", "True", "True"]


def test_the_parent_still_compiles_after_a_forked_child_exits(on_mock):
    # NVRTC's exit handler removes its precompiled-header directory; run by a forked child, it
    # removed the parent's (later compiles failed: "invalid PCH directory"). simt gives NVRTC a
    # directory only the process that made it removes, at its exit.
    code = """
        import glob
        a = simt.zeros(8)
        make(1.0)[1, 8](a)
        pid = os.fork()
        if pid == 0:
            sys.exit(0)
        _, status = os.waitpid(pid, 0)
        make(2.0)[1, 8](a)
        print(os.WEXITSTATUS(status), mock.mock_cuda_launch_count(), len(glob.glob(os.environ["SIMT_CACHE_DIR"] + "/tmp/nvrtc-pch-*")))
    """
    assert on_mock(code).stdout.split() == ["0", "2", "1"]
    assert not glob.glob(str(on_mock.last_script.parent / "cache" / "tmp" / "nvrtc-pch-*"))  # removed at exit


def test_driver_jit_on_request_and_nvrtc_cubins_once_the_driver_declines(on_mock, tmp_path):
    code = """
        mock.mock_cuda_refuse_ptx(int(os.environ["REFUSE"]))
        a = simt.zeros(8)
        for c in (1.5, 2.5):  # two distinct kernels (the constant is part of the source)
            make(c)[1, 8](a)
            assert last_launch()[0] == "k"  # (the stand-in does not run kernels)
        print(mock.mock_cuda_ptx_jit_attempts(), mock.mock_cuda_ptx_jits(), dict(simt._simt.compile_counters())["compiled"])
    """
    jit = on_mock(code, env={"REFUSE": "0", "SIMT_DRIVER_JIT": "1"}).stdout.split()
    assert jit == ["2", "2", "2"]  # each kernel: PTX from NVRTC, compiled by the driver
    warm = on_mock(code, env={"REFUSE": "0", "SIMT_DRIVER_JIT": "1"}).stdout.split()
    assert warm == ["2", "2", "0"]  # the PTX comes from the disk cache; the driver compiles it again
    refused = on_mock(code, env={"REFUSE": "1", "SIMT_DRIVER_JIT": "1",
                                 "SIMT_CACHE_DIR": str(tmp_path / "cache2")}).stdout.split()
    # The first kernel's PTX is refused, so NVRTC makes its cubin, and the second kernel's: the
    # driver is not asked again.
    assert refused == ["1", "0", "3"]
    one_kernel = on_mock(code, env={"REFUSE": "2", "SIMT_DRIVER_JIT": "1",
                                    "SIMT_CACHE_DIR": str(tmp_path / "cache4")}).stdout.split()
    # Invalid PTX is about that kernel: it gets NVRTC's cubin, and the next kernel goes to the driver.
    assert one_kernel == ["2", "1", "3"]
    default = on_mock(code, env={"REFUSE": "0", "SIMT_CACHE_DIR": str(tmp_path / "cache3")}).stdout.split()
    assert default == ["0", "0", "2"]  # by default NVRTC makes the cubins


def test_raw_kernels_compile_with_nvrtc_and_launch_with_cupys_argument_rules(on_mock):
    on_mock(r'''
        code = """
        #include <cuda_runtime.h>
        __device__ SCALAR twice(SCALAR v) { return v + v; }
        extern "C" __global__ void saxpy(const SCALAR* x, SCALAR a, SCALAR* out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) out[i] = a * x[i] + twice(out[i]);
        }
        """
        x = simt.zeros(100, np.float32)
        out = simt.zeros(100, np.float32)
        k = simt.RawKernel(code, "saxpy", options=("-DSCALAR=float",))
        before = mock.mock_cuda_launch_count()
        with cuda.stream() as s:
            k((2,), (64,), (x, np.float32(3), out, np.int32(100)))
            name, dims, stream, p0, p1 = last_launch()
        assert mock.mock_cuda_launch_count() == before + 1
        assert name == "saxpy" and dims == [2, 1, 1, 64, 1, 1, 0] and stream == s.ptr
        assert np.frombuffer(p0[:8], dtype=np.uint64)[0] == x.data_ptr     # arrays: a pointer
        assert np.frombuffer(p1[:4], dtype=np.float32)[0] == 3.0          # NumPy scalars: their own type
        k((1,), (32,), (x[10:], np.float32(1), out, np.int32(5)), shared_mem=256)
        name, dims, _, p0, _ = last_launch()
        assert dims[6] == 256 and np.frombuffer(p0[:8], dtype=np.uint64)[0] == x.data_ptr + 40
        assert "saxpy" in k.inspect_source() and "SCALAR" in k.inspect_source()
        try:
            simt.RawKernel('extern "C" __global__ void bad(float* x) { x[0] = missing; }', "bad").compile()
        except simt.cuda.CompilerError as e:
            assert "raw_kernel_bad.cu(1)" in str(e) and "missing" in str(e), str(e)
        else:
            raise AssertionError("expected a CompilerError")
    ''')


def test_raw_template_kernels_by_name_expression_load_their_lowered_symbol(on_mock):
    on_mock(r'''
        code = """
        template <typename T, int SCALE>
        __global__ void scale_by(const T* x, T* y, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) y[i] = x[i] * (T)SCALE;
        }
        """
        exprs = ("scale_by<float, 3>", "scale_by<double, 5>")
        m = simt.RawModule(code=code, name_expressions=exprs)
        x = simt.zeros(10, np.float32)
        m.get_function("scale_by<float, 3>")((1,), (32,), (x, x, np.int32(10)))
        name = last_launch()[0]
        assert name.startswith("_Z") and "scale_by" in name, name  # NVRTC's lowered (mangled) name
        xd = simt.zeros(10)
        m.get_function("scale_by<double, 5>")((1,), (32,), (xd, xd, np.int32(10)))
        assert last_launch()[0] != name
        # A second module of the same code finds the lowered names in the disk cache.
        simt.RawModule(code=code, name_expressions=exprs).get_function("scale_by<float, 3>")((1,), (32,), (x, x, np.int32(10)))
        assert last_launch()[0] == name
    ''')


def test_pinned_host_memory_and_pool_accounting(on_mock):
    on_mock("""
        mock.mock_cuda_registered_ranges.restype = ctypes.c_long
        rng = np.random.default_rng(11)
        hosts = mock.mock_cuda_host_allocations()
        p = cuda.pinned_array((1000, 3), np.float32)
        assert mock.mock_cuda_host_allocations() == hosts + 1  # cuMemHostAlloc
        p[...] = rng.standard_normal(p.shape)
        d = simt.asarray(p)
        back = cuda.pinned_array_like(p)
        d.copy_to_host(back)
        np.testing.assert_array_equal(back, p)
        del p, back
        assert mock.mock_cuda_host_allocations() == hosts  # cuMemFreeHost with the last array
        a = rng.standard_normal(5000)
        with cuda.pinned(a):
            assert mock.mock_cuda_registered_ranges() == 1
            np.testing.assert_array_equal(simt.asarray(a).get(), a)
        assert mock.mock_cuda_registered_ranges() == 0
        pool = simt.get_default_memory_pool()
        used = pool.used_bytes()
        x = simt.empty(4096)
        assert pool.used_bytes() == used + 4096 * 8
        assert pool.total_bytes() == mock.mock_cuda_bytes_in_use()  # the pool's reservation (the mock keeps none spare)
        free, total = cuda.current_context().get_memory_info()  # cuMemGetInfo
        assert total == 1 << 30 and free == total - mock.mock_cuda_bytes_in_use(), (free, total)
        assert cuda.runtime.memGetInfo() == (free, total)
        pool.set_limit(size=pool.used_bytes())
        try:
            simt.empty(1)
            raise SystemExit("the limit was not enforced")
        except cuda.OutOfMemoryError as e:
            assert "limit" in str(e), e
        pool.set_limit(0)
    """)


def test_mapped_and_managed_arrays_reach_kernels_at_their_device_addresses(on_mock):
    on_mock("""
        mock.mock_cuda_registered_ranges.restype = ctypes.c_long
        @cuda.jit
        def touch(x):
            x[0] = 1.0
        hosts = mock.mock_cuda_host_allocations()
        m = cuda.mapped_array(64, np.float64)
        assert mock.mock_cuda_host_allocations() == hosts + 1  # cuMemHostAlloc (DEVICEMAP)
        touch[1, 1](m[8:])
        param = int.from_bytes(last_launch()[3][:8], "little")  # the view's data pointer
        assert param == m.ctypes.data + 64, (hex(param), hex(m.ctypes.data))  # cuMemHostGetDevicePointer's answer
        used = mock.mock_cuda_bytes_in_use()
        g = cuda.managed_array((4, 8), np.float32)
        assert mock.mock_cuda_bytes_in_use() == used + 128  # cuMemAllocManaged
        touch[1, 1](g[1])
        assert int.from_bytes(last_launch()[3][:8], "little") == g.ctypes.data + 32
        del g
        assert mock.mock_cuda_bytes_in_use() == used  # cuMemFree with the last array
        a = np.zeros(100)
        with cuda.mapped(a) as ma:
            assert mock.mock_cuda_registered_ranges() == 1
            touch[1, 1](ma)
            assert int.from_bytes(last_launch()[3][:8], "little") == a.ctypes.data
            assert ma.__cuda_array_interface__["data"][0] == a.ctypes.data
        assert mock.mock_cuda_registered_ranges() == 0
        p = cuda.pinned_array(100)  # page-locked already: mapped() must not register it again
        with cuda.mapped(p, p) as (mp, mp2):
            assert mock.mock_cuda_registered_ranges() == 0
            touch[1, 1](mp)
            assert int.from_bytes(last_launch()[3][:8], "little") == p.ctypes.data
        with cuda.mapped(a, a[10:]) as (ma, mb):  # (the second lies inside the first: registered once)
            assert mock.mock_cuda_registered_ranges() == 1
        assert mock.mock_cuda_registered_ranges() == 0
        mock.mock_cuda_profiler_calls.restype = ctypes.c_long
        with cuda.profiling():
            pass
        assert mock.mock_cuda_profiler_calls() == 2
        del m, p, mp, mp2  # (the views from mapped() hold p's memory too)
        assert mock.mock_cuda_host_allocations() == hosts
    """)


def test_linalg_and_fft_go_through_host_copies_on_the_cuda_backend(on_mock):
    on_mock("""
        rng = np.random.default_rng(5)
        a = rng.standard_normal((4, 4)) + 4 * np.eye(4)
        d = simt.asarray(a)
        inv = simt.linalg.inv(d)
        assert isinstance(inv, simt.ndarray)
        np.testing.assert_allclose(inv.get(), np.linalg.inv(a), rtol=1e-12)
        w, v = simt.linalg.eigh(simt.asarray(a @ a.T))
        np.testing.assert_allclose(w.get(), np.linalg.eigvalsh(a @ a.T), rtol=1e-10)
        x = rng.standard_normal(32)
        np.testing.assert_allclose(simt.fft.rfft(simt.asarray(x)).get(), np.fft.rfft(x), rtol=1e-12, atol=1e-12)
    """)


def test_driver_bindings(on_mock):
    on_mock("""
        from simt.bindings import driver, nvrtc
        ok = driver.CUresult.CUDA_SUCCESS
        assert driver.cuInit(0) == (ok,)
        err, count = driver.cuDeviceGetCount()
        assert (err, count) == (ok, 1)
        err, dev = driver.cuDeviceGet(0)
        err, name = driver.cuDeviceGetName(64, dev)
        assert name == b"simt mock GPU 0", name
        err, major = driver.cuDeviceGetAttribute(driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
        assert (err, major) == (ok, 9)
        err, total = driver.cuDeviceTotalMem(dev)
        assert total == 1 << 30
        err, ctx = driver.cuDevicePrimaryCtxRetain(dev)
        assert driver.cuCtxSetCurrent(ctx) == (ok,) and driver.cuCtxGetCurrent() == (ok, ctx)
        err, prog = nvrtc.nvrtcCreateProgram(b'extern "C" __global__ void k(float* p, float* q) { p[0] = q[0]; }', b"k.cu", 0, [], [])
        assert nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=sm_90"])[0] == 0
        err, n = nvrtc.nvrtcGetCUBINSize(prog)
        cubin = bytearray(n)
        nvrtc.nvrtcGetCUBIN(prog, cubin)
        err, module = driver.cuModuleLoadData(bytes(cubin))
        assert err == ok, err
        err, f = driver.cuModuleGetFunction(module, "k")
        assert err == ok
        host = np.arange(16, dtype=np.float32)
        err, p = driver.cuMemAlloc(host.nbytes)
        assert driver.cuMemcpyHtoD(p, host, host.nbytes) == (ok,)
        back = np.zeros_like(host)
        assert driver.cuMemcpyDtoH(back, p, back.nbytes) == (ok,)
        np.testing.assert_array_equal(back, host)
        ptr = np.array(p, np.uint64)
        params = np.array([ptr.ctypes.data, ptr.ctypes.data], np.uint64)  # (the stand-in reads up to two)
        launches = mock.mock_cuda_launch_count()
        assert driver.cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, params.ctypes.data, None) == (ok,)
        assert mock.mock_cuda_launch_count() == launches + 1
        assert last_launch()[0] == "k"
        err, s = driver.cuStreamCreate(1)
        err, e = driver.cuEventCreate(2)
        assert driver.cuEventRecord(e, s) == (ok,) and driver.cuEventSynchronize(e) == (ok,)
        assert driver.cuStreamSynchronize(s) == (ok,) and driver.cuStreamDestroy(s) == (ok,)
        assert driver.cuMemFree(p) == (ok,)
        assert driver.cuMemFree(p)[0] == driver.CUresult.CUDA_ERROR_INVALID_VALUE  # freed twice
        assert driver.cuGetErrorName(2) == (ok, b"CUDA_ERROR_OUT_OF_MEMORY")
        with __import__("pytest").raises(ValueError, match="buffer holds 4 bytes"):
            driver.cuMemcpyHtoD(p, b"1234", 8)
    """)
