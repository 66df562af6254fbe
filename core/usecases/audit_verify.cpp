#include "usecases/audit_verify.h"

namespace sb {

AuditVerdict verdictOf(const AuditVerification& verification)
{
    if (verification.cancelled)
        return AuditVerdict::Cancelled;
    if (!verification.broken)
        return AuditVerdict::Intact;
    return verification.broken->damage == AuditDamage::KeyMissing ? AuditVerdict::NotVerified : AuditVerdict::Broken;
}

Result<AuditVerification> verifyAuditLog(const Store& store, const AuditVerifyRequest& request)
{
    AuditVerifyOptions options;
    options.anchor = request.anchor;
    options.keyFolder = request.keys;
    options.cancel = request.cancel;
    options.progress = request.progress;
    return verifyAudit(store, options);
}

} // namespace sb
