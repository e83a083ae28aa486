// Host<->device copies through pinned staging buffers: a pageable host array is copied in
// chunks into page-locked buffers while the DMA of the previous chunk runs, so copies need no
// pinned user memory and the host may reuse its array as soon as the call returns.
#pragma once
#include <cstddef>
#include <mutex>
#include "backend/cuda/cuda_api.h"

namespace simt {

class PinnedStaging {
public:
    PinnedStaging() = default;
    PinnedStaging(const PinnedStaging&) = delete;
    PinnedStaging& operator=(const PinnedStaging&) = delete;
    ~PinnedStaging();  // buffers are only freed if the driver is still up

    // Queues the copy on `stream`; returns once `src` has been read (the DMA may still run).
    // The caller has made the device's context current.
    void host_to_device(cu::DevicePtr dst, const void* src, size_t bytes, cu::Stream stream);
    // Copies after all earlier work on `stream`; returns when `dst` holds the data.
    void device_to_host(void* dst, cu::DevicePtr src, size_t bytes, cu::Stream stream);

    static constexpr size_t kChunk = size_t(8) << 20;
    static constexpr int kSlots = 4;

private:
    struct Slot {
        void* host = nullptr;
        cu::Event done = nullptr;  // recorded after the slot's last DMA
        bool busy = false;
    };
    // The slot, allocated on first use, once its previous DMA has finished.
    Slot& ready(int index);
    // False when the driver refuses page-locked memory: copies then go straight from pageable memory.
    bool usable();

    std::mutex mutex_;
    Slot slots_[kSlots];
    int next_ = 0;
    bool unusable_ = false;
};

}  // namespace simt
