// Emitter: how a cpu kernel entry point runs its blocks. Kernels with barriers or warp
// operations run each thread as a fiber (libsimt schedules them); the others run the threads
// of a block as a plain loop. Both get the block's shared memory.
#include "codegen/emitter.h"
#include "sema/sema.h"

namespace simt {

std::string Emitter::cpu_runner(const std::string& body_call) {
    const CompileUnit& u = unit_;
    std::string body = "[&](simt_ctx& ctx) { " + body_call + " }";
    std::string shared = std::to_string(u.static_shared_bytes) + "L";
    if (!u.uses_barrier && !u.uses_warp)
        return "simt_run_blocks(launch, block_begin, block_end, " + shared + ", " + body + ");";
    std::string sites = "0";
    if (!u.sync_sites.empty()) {
        std::string table = "// Barriers and warp operations, for the cpu backend's error reports.\n"
                            "static const char* const simt_sync_sites[] = {\n";
        for (const std::string& site : u.sync_sites) table += "    " + literal(ConstValue::string(site), string_type()) + ",\n";
        add_global("simt_sync_sites", table + "};");
        sites = "simt_sync_sites";
    }
    return "simt_run_blocks_fibers(launch, block_begin, block_end, " +
           literal(ConstValue::string(u.kernel->name), string_type()) + ", " + sites + ", " +
           std::to_string(u.sync_sites.size()) + ", " + shared + ", " + std::to_string(u.local_bytes) + "L, " + body + ");";
}

}  // namespace simt
