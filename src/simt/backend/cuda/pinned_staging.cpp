// Chunked, double-buffered copies through page-locked host memory.
#include "backend/cuda/pinned_staging.h"
#include <cstring>
#include "backend/cuda/driver_api.h"

namespace simt {

PinnedStaging::~PinnedStaging() {
    // The backend lives until process exit, when the driver may already be gone: errors ignored.
    for (Slot& s : slots_) {
        if (s.done) driver().cuEventDestroy(s.done);
        if (s.host) driver().cuMemFreeHost(s.host);
    }
}

PinnedStaging::Slot& PinnedStaging::ready(int index) {
    Slot& s = slots_[index];
    if (s.busy) {
        check(driver().cuEventSynchronize(s.done));
        s.busy = false;
    }
    if (!s.done) check(driver().cuEventCreate(&s.done, cu::kEventDisableTiming));
    if (!s.host) check(driver().cuMemHostAlloc(&s.host, kChunk, cu::kMemHostAllocPortable));
    return s;
}

bool PinnedStaging::usable() {
    if (!unusable_ && !slots_[0].host &&
        driver().cuMemHostAlloc(&slots_[0].host, kChunk, cu::kMemHostAllocPortable) != cu::kSuccess) {
        slots_[0].host = nullptr;
        unusable_ = true;  // page-locked memory refused (e.g. a locked-memory limit)
    }
    return !unusable_;
}

void PinnedStaging::host_to_device(cu::DevicePtr dst, const void* src, size_t bytes, cu::Stream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    const cu::DriverApi& d = driver();
    if (!usable()) {  // pageable fallback: the stream sync makes `src` reusable on return
        check(d.cuMemcpyHtoDAsync(dst, src, bytes, stream));
        check(d.cuStreamSynchronize(stream));
        return;
    }
    for (size_t off = 0; off < bytes; off += kChunk) {
        size_t n = bytes - off < kChunk ? bytes - off : kChunk;
        Slot& s = ready(next_);
        next_ = (next_ + 1) % kSlots;
        std::memcpy(s.host, static_cast<const char*>(src) + off, n);
        check(d.cuMemcpyHtoDAsync(dst + off, s.host, n, stream));
        check(d.cuEventRecord(s.done, stream));
        s.busy = true;
    }
}

void PinnedStaging::device_to_host(void* dst, cu::DevicePtr src, size_t bytes, cu::Stream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    const cu::DriverApi& d = driver();
    if (!usable()) {
        check(d.cuMemcpyDtoHAsync(dst, src, bytes, stream));
        check(d.cuStreamSynchronize(stream));
        return;
    }
    const size_t chunks = (bytes + kChunk - 1) / kChunk;
    auto chunk_size = [&](size_t c) { return c + 1 < chunks ? kChunk : bytes - c * kChunk; };
    // Keep up to kSlots DMAs in flight; copy each chunk out as soon as it lands.
    size_t issued = 0;
    for (size_t drained = 0; drained < chunks; ++drained) {
        for (; issued < chunks && issued < drained + kSlots; ++issued) {
            Slot& s = ready(int((next_ + issued) % kSlots));
            check(d.cuMemcpyDtoHAsync(s.host, src + issued * kChunk, chunk_size(issued), stream));
            check(d.cuEventRecord(s.done, stream));
            s.busy = true;
        }
        Slot& s = slots_[(next_ + drained) % kSlots];
        check(d.cuEventSynchronize(s.done));
        s.busy = false;
        std::memcpy(static_cast<char*>(dst) + drained * kChunk, s.host, chunk_size(drained));
    }
    next_ = int((next_ + chunks) % kSlots);
}

}  // namespace simt
