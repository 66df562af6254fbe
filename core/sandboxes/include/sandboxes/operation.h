#pragma once

#include "store/sqlite_db.h"
#include "util/error.h"

#include <cstdint>
#include <string>

namespace sb {

// One operation of the workspace engine as it commits: what was done, to which sandbox and checkpoint, by
// whom, when, and the details (a JSON object) a record of it should keep.
struct Operation {
    std::string action;     // sandbox.create, sandbox.destroy, sandbox.sweep, checkpoint.create,
                            // checkpoint.restore, checkpoint.fork, checkpoint.prune, promote, approve
    std::string sandbox;
    std::string checkpoint; // the checkpoint made or acted on; "" when none
    std::string actor;
    std::int64_t atMs = 0;
    std::string details;    // JSON object
};

// The seam for whatever must see every operation: the audit log appends here. committing() runs inside the
// operation's own write transaction, after its rows are written and before COMMIT, so the record and the
// operation commit together or not at all; an error from it rolls the operation back. committed() follows a
// successful COMMIT (for views that refresh). Both run on the thread that called the engine.
class OperationObserver {
public:
    virtual ~OperationObserver() = default;
    virtual Result<void> committing(const sqlite::Db& db, const Operation& operation) = 0;
    virtual void committed(const Operation& operation) { (void)operation; }
};

} // namespace sb
