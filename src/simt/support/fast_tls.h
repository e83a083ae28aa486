// Thread-locals read on every launch, in the initial-exec TLS model: a direct load instead of a
// __tls_get_addr call (the module is dlopen'ed, so the default model calls it for each access).
// glibc keeps a little static TLS spare for dlopen'ed libraries (512 bytes by default); only a
// few scalars may use this, never objects.
#pragma once

#define SIMT_FAST_TLS __attribute__((tls_model("initial-exec"))) thread_local
