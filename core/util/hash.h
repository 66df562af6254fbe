#pragma once

#include "util/error.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX, so this header needs no OpenSSL include

namespace sb {

// SHA-256 (FIPS 180-4), computed by OpenSSL's libcrypto, which picks the CPU's SHA extensions or AVX2 paths
// at run time. The one place Sandbench hashes: stored policy versions today; content-addressed checkpoints
// and the hash-chained audit log later.
//
// libcrypto can only fail here for want of memory or when its configuration removes SHA-256; that is
// reported by finish()/sha256Hex() as an error value, never thrown.
class Sha256 {
public:
    static constexpr std::size_t kDigestSize = 32;
    using Digest = std::array<std::uint8_t, kDigestSize>;

    Sha256();
    Sha256(Sha256&&) noexcept;
    Sha256& operator=(Sha256&&) noexcept;
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    ~Sha256();

    // Feeds more of the message; any number of calls, any sizes. A failure is kept for finish().
    Sha256& update(std::span<const std::byte> bytes);
    Sha256& update(std::string_view bytes);

    // The digest of everything fed since construction or the last finish(); the object is then ready for
    // the next message.
    Result<Digest> finish();
    Result<std::string> finishHex();

private:
    struct ContextFree {
        void operator()(evp_md_ctx_st* context) const noexcept;
    };
    void restart();

    std::unique_ptr<evp_md_ctx_st, ContextFree> m_context;
    std::string m_failure; // why, when a libcrypto call failed since the last restart
};

// Lower-case hex of any bytes (a digest: 64 characters).
std::string toHex(std::span<const std::uint8_t> bytes);

// One-shot hashes of a whole message.
Result<Sha256::Digest> sha256(std::string_view bytes);
Result<std::string> sha256Hex(std::string_view bytes);

} // namespace sb
