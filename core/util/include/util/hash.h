#pragma once

#include "util/error.h"

#include <nettle/sha2.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sb {

// SHA-256 (FIPS 180-4), computed by Nettle, which picks the CPU's SHA extensions at run time (as fast as
// OpenSSL's libcrypto here, ~1.1 GB/s, and a smaller library to load: every CLI command pays for that at
// start-up). The one place Sandbench hashes: stored policy versions, content-addressed checkpoints and blobs,
// the hash-chained audit log, dataset snapshots.
//
// Hashing cannot fail; the Result types remain so that callers need not change should a backend ever be
// able to.
class Sha256 {
public:
    static constexpr std::size_t kDigestSize = 32;
    using Digest = std::array<std::uint8_t, kDigestSize>;

    Sha256();

    // Feeds more of the message; any number of calls, any sizes.
    Sha256& update(std::span<const std::byte> bytes);
    Sha256& update(std::string_view bytes);

    // The digest of everything fed since construction or the last finish(); the object is then ready for
    // the next message.
    Result<Digest> finish();
    Result<std::string> finishHex();

private:
    sha256_ctx m_context{};
};

// Lower-case hex of any bytes (a digest: 64 characters).
std::string toHex(std::span<const std::uint8_t> bytes);

// One-shot hashes of a whole message.
Result<Sha256::Digest> sha256(std::string_view bytes);
Result<std::string> sha256Hex(std::string_view bytes);

// HMAC-SHA256 (RFC 2104) of `message` under `key`, lower-case hex: the audit log's entries are signed with it.
Result<std::string> hmacSha256Hex(std::span<const std::uint8_t> key, std::string_view message);

} // namespace sb
