// Emitter: how a cpu kernel entry point runs its blocks. Kernels without barriers or warp
// operations run the threads of a block as a plain loop; kernels in region mode
// (emit_regions.cpp) as loops between barriers; the others run each thread as a fiber (libsimt
// schedules them). All get the block's shared memory.
#include "codegen/emitter.h"
#include "codegen/raw_module.h"
#include "sema/sema.h"

namespace simt {

std::string Emitter::cpu_runner(const std::string& body_call) {
    const CompileUnit& u = unit_;
    std::string body = "[&](simt_ctx& ctx) { " + body_call + " }";
    std::string shared = std::to_string(u.static_shared_bytes) + "L";
    if (!u.uses_barrier && !u.uses_warp && !linked_code_waits(u.linked_sources))
        return "simt_run_blocks(launch, block_begin, block_end, " + shared + ", " + body + ");";
    std::string sites = "0";
    std::string name = literal(ConstValue::string(u.kernel->name), string_type());
    // Linked CUDA C++ reports its barriers and warp functions as the entry after the kernel's own.
    std::vector<std::string> entries = u.sync_sites;
    if (linked_code_waits(u.linked_sources)) {
        std::string files;
        for (const LinkedSource& s : u.linked_sources) files += (files.empty() ? "" : ", ") + s.path;
        entries.push_back("a barrier or warp function of the linked CUDA C++ (" + files + ")");
    }
    if (!entries.empty()) {
        std::string table = "// Barriers and warp operations, for the cpu backend's error reports.\n"
                            "static const char* const simt_sync_sites[] = {\n";
        for (const std::string& site : entries) table += "    " + literal(ConstValue::string(site), string_type()) + ",\n";
        add_global("simt_sync_sites", table + "};");
        sites = "simt_sync_sites";
    }
    std::string count = std::to_string(entries.size());
    if (regions_) {
        const TypedFunction& k = *u.kernel;
        std::string state = "simt_locals_" + k.c_name;
        std::string call = "simt_regions_" + k.c_name + "(ctx, simt_k, (" + state + "*)simt_S, simt_done";
        for (const Param& p : k.def.params) call += ", " + c_identifier(p.name);
        return "simt_run_blocks_regions(launch, block_begin, block_end, " + name + ", " + sites + ", " + count + ", " + shared +
               ", (int64_t)sizeof(" + state + "), [&](simt_ctx& ctx, const simt_fiber_kernel* simt_k, char* simt_S, bool* simt_done) { return " +
               call + "); });";
    }
    // (a grid barrier: every block of the launch is resident at once, SIMT_FIBERS_GRID_SYNC)
    return "simt_run_blocks_fibers(launch, block_begin, block_end, " + name + ", " + sites + ", " + count + ", " + shared + ", " +
           std::to_string(u.local_bytes) + "L, " + (u.uses_grid_sync ? "SIMT_FIBERS_GRID_SYNC" : "0") + ", " + body + ");";
}

}  // namespace simt
