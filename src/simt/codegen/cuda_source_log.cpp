// The process-wide record of generated CUDA sources, deduplicated by content.
#include "codegen/cuda_source_log.h"
#include <atomic>
#include <mutex>
#include <set>
#include "support/error.h"
#include "support/sha256.h"

namespace simt {

namespace {
std::atomic<bool> g_recording{false};
std::mutex g_mutex;
std::set<std::string> g_seen;  // hashes of sources recorded (ever), so each is checked once
std::vector<RecordedCudaSource> g_recorded;
}  // namespace

void set_cuda_source_recording(bool on) { g_recording.store(on); }
bool cuda_source_recording() { return g_recording.load(std::memory_order_relaxed); }

void record_cuda_source(const CompileUnit& unit, const GeneratedSource* cuda) {
    RecordedCudaSource r;
    r.kernel = unit.kernel ? unit.kernel->name : "?";
    r.options = unit.options;
    if (cuda) {
        r.source = cuda->full_source;
        r.extra = cuda->compiler_options;  // (linked CUDA C++: where its includes are)
        r.nvvm = cuda->nvvm;
        r.nvvm_why = cuda->nvvm_not_covered;
    } else {
        try {
            GeneratedSource g = Emitter(unit, Target::Cuda).run();
            r.source = g.full_source;
            r.extra = g.compiler_options;
        } catch (const Error& e) {
            r.codegen_error = e.what();
        }
    }
    if (!cuda && r.codegen_error.empty()) r.nvvm = emit_nvvm_ir(unit, &r.nvvm_why);
    r.toolkit_headers = !unit.linked_sources.empty();
    std::string key = sha256_hex(r.source + "\n" + r.codegen_error + "\n" + std::to_string(int(r.options.bounds)) +
                                 std::to_string(r.options.fastmath) + std::to_string(r.options.debug) +
                                 std::to_string(r.options.lineinfo) + std::to_string(r.options.max_registers));
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_seen.insert(key).second) return;
    g_recorded.push_back(std::move(r));
}

void record_raw_cuda_source(const std::string& kernel, const GeneratedSource& cuda) {
    RecordedCudaSource r;
    r.kernel = kernel;
    r.source = cuda.full_source;
    r.options = cuda.options;
    r.raw = true;
    r.extra = cuda.compiler_options;
    std::string key = "raw\n" + kernel;
    for (const std::string& o : r.extra) key += "\n" + o;
    key = sha256_hex(key + "\n" + r.source);
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_seen.insert(key).second) return;
    g_recorded.push_back(std::move(r));
}

std::vector<RecordedCudaSource> take_recorded_cuda_sources() {
    std::lock_guard<std::mutex> lock(g_mutex);
    std::vector<RecordedCudaSource> out;
    out.swap(g_recorded);
    return out;
}

}  // namespace simt
