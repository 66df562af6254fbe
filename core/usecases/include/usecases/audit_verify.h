#pragma once

// Verifying the store's audit log, as every front end asks for it: with the keys in a folder (default: the
// user's, store/audit_key.h), optionally against an anchor kept elsewhere, and what the result means.

#include "store/audit.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace sb {

struct AuditVerifyRequest {
    std::string anchor{};          // a head hash kept elsewhere earlier (empty: none)
    std::filesystem::path keys{};  // the folder of audit keys (empty: the default)
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(std::int64_t done, std::int64_t total)> progress{};
};

// What a verification means to whoever asked for it.
enum class AuditVerdict {
    Intact,      // every entry checked and found whole
    NotVerified, // nothing found wrong, but the key to check the signatures with is not there: not a pass
    Broken,      // an entry altered, forged or removed (AuditBreak says which)
    Cancelled,   // stopped early: nothing is known about the rest
};

AuditVerdict verdictOf(const AuditVerification& verification);

// Walks the store's audit log. An error value means it could not be read at all; a broken log is a result.
Result<AuditVerification> verifyAuditLog(const Store& store, const AuditVerifyRequest& request);

} // namespace sb
