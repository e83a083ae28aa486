// Python allocators (CuPy's set_allocator(f) / using_allocator(f)) behind the C++ allocation
// switch. While none is set, allocations never come here (one relaxed load in DeviceBuffer).
// While one is, each allocation resolves this thread's allocator kind without Python, and only a
// Python allocator takes the GIL and calls simt.cuda._allocator._allocate_for_array.
#include <cxxabi.h>
#include <atomic>
#include <chrono>
#include <thread>
#include "array/device_buffer.h"
#include "backend/cuda/driver_api.h"
#include "bindings.h"
#include "support/error.h"

namespace simt::py {

namespace {

// What an allocator is, as far as C++ needs to know: Inherit (a thread without using_allocator)
// takes the process's; Pool and Managed are simt's own; Python calls back.
enum Kind : int { Inherit = -1, Pool = 0, Managed = 1, Python = 2 };

std::atomic<int> g_process_kind{Pool};
std::atomic<int> g_threads_overriding{0};  // threads inside using_allocator
thread_local int t_kind = Inherit;
// This thread is running a Python allocator: what it allocates itself (simt.cuda.alloc, Memory,
// arrays) comes from simt's own allocator instead of calling it again.
thread_local bool t_in_allocator = false;
nb::object* g_allocate = nullptr;  // _allocate_for_array(nbytes) -> (ptr, owner); outlives Python

int effective_kind() { return t_kind == Inherit ? g_process_kind.load(std::memory_order_relaxed) : t_kind; }

void update_mode() {
    int process = g_process_kind.load();
    set_allocation_mode(g_threads_overriding.load() > 0 || process == Python ? AllocationMode::Hook
                        : process == Managed                                ? AllocationMode::Managed
                                                                            : AllocationMode::Pool);
}

// Interpreter exit: once Python's atexit handlers run, allocations stop calling the Python
// allocator (simt's pool serves them), and the handler waits for calls already inside it. A
// daemon thread still inside when finalization begins would be ended there by the interpreter,
// unwinding through C++ frames that cannot let it pass.
std::atomic<bool> g_exiting{false};
std::atomic<int> g_inside{0};  // threads running the Python allocator now
struct Inside {
    Inside() { g_inside.fetch_add(1); }
    ~Inside() { g_inside.fetch_sub(1); }
};

HookedAllocation allocate_hooked(size_t bytes) {
    int kind = effective_kind();
    if (kind != Python || t_in_allocator || !g_allocate || g_exiting.load())
        return {nullptr, nullptr, kind == Managed ? AllocationMode::Managed : AllocationMode::Pool};
    Inside inside;
    // (allocation may run with the GIL released; it may not enter an interpreter that is exiting)
    if (!PyGILState_Check() && !python_enterable())
        throw Error(ErrorKind::Runtime, "simt: an array cannot be allocated through the Python allocator (set_allocator) "
                                        "while the interpreter exits");
    PyGILState_STATE gil = PyGILState_Ensure();
    t_in_allocator = true;
    HookedAllocation out;
    try {
        nb::tuple got = nb::cast<nb::tuple>((*g_allocate)(bytes));
        out.ptr = reinterpret_cast<void*>(nb::cast<uintptr_t>(got[0]));
        out.handle = got[1].inc_ref().ptr();  // the allocator's MemoryPointer: owns the memory
    } catch (abi::__forced_unwind&) {
        // A daemon thread ended by the exiting interpreter while it waited for the GIL: its thread
        // state is gone, and releasing it would abort the process. Let the unwinding go on.
        t_in_allocator = false;
        throw;
    } catch (...) {
        t_in_allocator = false;
        PyGILState_Release(gil);
        throw;  // (a Python error keeps its type; _allocate_for_array named the allocator)
    }
    t_in_allocator = false;
    PyGILState_Release(gil);
    return out;
}

void release_hooked(void* owner) noexcept { decref_with_python(owner); }

}  // namespace

void bind_allocator(nb::module_& m) {
    // Called by an atexit handler (simt.cuda._allocator): see g_exiting.
    m.def("_allocator_exit", [] {
        g_exiting.store(true);
        for (int waited_ms = 0; g_inside.load() > 0 && waited_ms < 2000; ++waited_ms) {
            nb::gil_scoped_release release;  // (the threads inside need the GIL to finish)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    m.def("_set_allocate_for_array", [](nb::object fn) {
        delete g_allocate;
        g_allocate = new nb::object(std::move(fn));
        set_allocation_hook({&allocate_hooked, &release_hooked});
    });
    m.def("_set_process_allocator", [](int kind) {
        if (kind < Pool || kind > Python) throw Error(ErrorKind::Value, "bad allocator kind");
        g_process_kind.store(kind);
        update_mode();
    });
    // using_allocator: `kind` for this thread (Inherit: the process's again).
    m.def("_set_thread_allocator", [](int kind) {
        if (kind < Inherit || kind > Python) throw Error(ErrorKind::Value, "bad allocator kind");
        if ((t_kind == Inherit) != (kind == Inherit)) g_threads_overriding.fetch_add(kind == Inherit ? -1 : 1);
        t_kind = kind;
        update_mode();
    });
    m.def("_managed_allocations", [] { return effective_kind() == Managed; });  // (this thread's)
    m.def("_allocation_hooked", [] { return allocation_mode() == AllocationMode::Hook; });
    m.def("_in_allocator", [] { return t_in_allocator; });
    m.def("_set_in_allocator", [](bool busy) {
        bool was = t_in_allocator;
        t_in_allocator = busy;
        return was;
    });
    // `bytes` from simt's own allocator (pool or managed), never a Python one: a 1-D int8 array.
    m.def("_own_memory", [](int64_t bytes) {
        bool was = t_in_allocator;
        t_in_allocator = true;
        try {
            NdArray a = empty_array(DType::Int8, {bytes});
            t_in_allocator = was;
            return a;
        } catch (...) {
            t_in_allocator = was;
            throw;
        }
    });
    // The device whose memory `ptr` is (cuda: the driver's pointer attribute), -1 if none is.
    m.def("_pointer_device", [](uintptr_t ptr) {
        if (backend().target() == Target::Cpu) return backend().current_device();
        int device = -1;
        if (driver().cuPointerGetAttribute(&device, cu::kPointerAttrDeviceOrdinal, ptr) != cu::kSuccess) return -1;
        return device;
    });
}

}  // namespace simt::py
