// Kernel specialization: analyze → generate → compile/load, cached per argument types.
#include "runtime/dispatcher.h"
#include <cstdio>
#include "codegen/cuda_source_log.h"
#include "runtime/disk_cache.h"
#include "runtime/bounds_report.h"
#include "support/error.h"
#include "support/stopwatch.h"

namespace simt {

Dispatcher::Dispatcher(KernelDefinition def) : def_(std::move(def)) {
    device_ref_ = std::make_shared<DeviceFunctionRef>();
    char key[64];
    std::snprintf(key, sizeof key, "%p", static_cast<const void*>(this));
    device_ref_->key = def_.name + "@" + key;
    device_ref_->name = def_.name;
    device_ref_->source = def_.source;
    device_ref_->resolve = def_.resolve;
    device_ref_->inline_always = def_.force_inline;
    if (def_.device) device_ref_->signatures = def_.signatures;
}

std::unique_ptr<CompiledKernel> Dispatcher::generate(const std::vector<const Type*>& types, Target target) const {
    if (def_.device)
        throw Error(ErrorKind::Type, "'" + def_.name + "' is a device function (device=True): call it from a kernel, it cannot be launched");
    Stopwatch front_end;
    auto k = std::make_unique<CompiledKernel>();
    k->param_types = types;
    k->unit = analyze_kernel(def_.source, def_.resolve, types, def_.options);
    k->source = emit_unit(*k->unit, target);
    compile_counters().last_front_end_ms = front_end.ms();
    return k;
}

void Dispatcher::load(CompiledKernel& k) const {
    Stopwatch loading;
    k.loaded = backend().load(k.source, def_.options);
    compile_counters().last_load_ms = loading.ms();
    // For the test session's NVRTC check, as raw kernels are: linked CUDA C++ the compiler took.
    if (cuda_source_recording() && !k.unit->linked_sources.empty())
        record_cuda_source(*k.unit, backend().target() == Target::Cuda ? &k.source : nullptr);
    if (def_.options.bounds == BoundsMode::Checked || def_.options.debug) {
        std::string name = def_.name;
        std::vector<BoundsSite> sites = k.unit->bounds_sites;
        k.loaded->describe_bounds_error = [name, sites](const BoundsErrorRecord& r) {
            return describe_bounds_error(name, sites, r);
        };
    }
}

CompiledKernel& Dispatcher::insert(std::unique_ptr<CompiledKernel> k) {
    CompiledKernel* p = k.get();
    cache_[k->param_types] = std::move(k);
    last_ = p;
    return *p;
}

CompiledKernel& Dispatcher::specialize(const std::vector<const Type*>& types) {
    if (CompiledKernel* k = find(types)) { last_ = k; return *k; }
    std::unique_ptr<CompiledKernel> k = generate(types, backend().target());
    load(*k);
    return insert(std::move(k));
}

std::vector<const CompiledKernel*> Dispatcher::specializations() const {
    std::vector<const CompiledKernel*> out;
    for (const auto& [types, k] : cache_) out.push_back(k.get());
    return out;
}

}  // namespace simt
