#include "util/hash.h"

#include <nettle/hmac.h>

namespace sb {

Sha256::Sha256()
{
    sha256_init(&m_context);
}

Sha256& Sha256::update(std::span<const std::byte> bytes)
{
    if (!bytes.empty())
        sha256_update(&m_context, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
    return *this;
}

Sha256& Sha256::update(std::string_view bytes)
{
    return update(std::as_bytes(std::span(bytes.data(), bytes.size())));
}

Result<Sha256::Digest> Sha256::finish()
{
    Digest digest{};
    sha256_digest(&m_context, kDigestSize, digest.data()); // also starts the next message
    return digest;
}

Result<std::string> Sha256::finishHex()
{
    auto digest = finish();
    if (!digest)
        return std::unexpected(digest.error());
    return toHex(*digest);
}

std::string toHex(std::span<const std::uint8_t> bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(bytes.size() * 2, '\0');
    char* out = text.data();
    for (const std::uint8_t byte : bytes) {
        *out++ = kDigits[byte >> 4];
        *out++ = kDigits[byte & 0x0f];
    }
    return text;
}

Result<Sha256::Digest> sha256(std::string_view bytes)
{
    return Sha256().update(bytes).finish();
}

Result<std::string> sha256Hex(std::string_view bytes)
{
    auto digest = sha256(bytes);
    if (!digest)
        return std::unexpected(digest.error());
    return toHex(*digest);
}

Result<std::string> hmacSha256Hex(std::span<const std::uint8_t> key, std::string_view message)
{
    hmac_sha256_ctx context{};
    hmac_sha256_set_key(&context, key.size(), key.data());
    hmac_sha256_update(&context, message.size(), reinterpret_cast<const std::uint8_t*>(message.data()));
    Sha256::Digest digest{};
    hmac_sha256_digest(&context, Sha256::kDigestSize, digest.data());
    return toHex(digest);
}

} // namespace sb
