// SHA-256, used for cache keys and for checksums of cached binaries.
#pragma once
#include <cstdint>
#include <cstddef>
#include <string>
#include <string_view>

namespace simt {

class Sha256 {
public:
    Sha256();
    void update(const void* data, size_t size);
    void update(std::string_view s) { update(s.data(), s.size()); }
    // Hex digest (64 characters); the object must not be updated afterwards.
    std::string hex_digest();
private:
    void compress(const uint8_t* block);
    uint32_t state_[8];
    uint64_t length_ = 0;
    uint8_t buffer_[64];
    size_t buffered_ = 0;
};

std::string sha256_hex(std::string_view data);

}  // namespace simt
