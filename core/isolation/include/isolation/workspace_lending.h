#pragma once

// Lending a sandbox's workspace to a run, and getting it back whatever dies.
//
// A root caller's run becomes a transient uid of its own (kTransientIdBase + n, drawn per run; launch_spec.h):
// nobody else owns it, so the run cannot signal or read other processes, RLIMIT_NPROC counts this run alone,
// and one kill(-1) as that uid ends everything it started. A workspace run (RunRequest::workspace) of such a
// caller is lent the workspace: what its owner owns there goes to the run's uid for the run and back afterwards.
//
// Runs in one workspace queue; they never run side by side. Side by side, each run would need the workspace
// lent to its own uid (the second lend takes the first run's files away from it), or the runs of a sandbox
// would share one uid, and then one run could signal or trace the other, read its snippet and output as they
// happen, share its process limit, and its end (kill(-1) as that uid) would kill the other mid-way. A run's
// identity stays its own; the price is that runs in one sandbox wait for each other (runs in different
// sandboxes do not). The caller holds the workspace's lock (core/sandboxes: the sandbox's lock, the same one
// checkpoints and restores take) for the whole lent period, and hands it to the run's launcher too
// (RunRequest::workspaceLock), so the lock lasts as long as anything supervises the run, also when the caller
// is killed. A checkpoint therefore never reads a half-lent workspace, and a restore never swaps one.
//
// Whatever dies, nothing stays lent for good. lend() hands the workspace's own folder over first and
// giveBack() hands it back last, so a workspace whose folder belongs to a transient uid is one whose last
// lend was not given back in full; reclaim(), run by whoever takes the lock next, gives back every entry of a
// transient uid (and the workspace engine removes the job folders runs left). Only transient uids are taken
// back: files another user put in the workspace on purpose stay theirs.

#include "isolation/launch_spec.h"
#include "util/error.h"

#include <filesystem>
#include <string_view>
#include <sys/types.h>

namespace sb::lending {

// The folder of a workspace run's own files (its snippet), in the workspace: this prefix and the run's id.
inline constexpr std::string_view kJobFolderPrefix = ".sandbench-run-";

struct Owner {
    uid_t uid = 0;
    gid_t gid = 0;
};

// What `owner` owns in the workspace goes to `to`, the workspace's own folder first. A file with more than
// one hard link is not lent: its other names may be anywhere.
void lend(const std::filesystem::path& workspace, Owner owner, Owner to);

// What `from` owns in the workspace goes back to `owner` (hard-linked files too: `from` made them), the
// workspace's own folder last.
void giveBack(const std::filesystem::path& workspace, uid_t from, Owner owner);

// The transient uid the workspace's own folder belongs to (a lend not given back in full), or 0.
uid_t lentTo(const std::filesystem::path& workspace);

// Call with the workspace's lock held (no run in it): when the workspace is lent (lentTo), every entry of a
// transient uid goes back to `owner`, the workspace's own folder last. Giving back needs root; an unprivileged
// caller is told so. A workspace that does not exist has nothing to reclaim.
Result<void> reclaim(const std::filesystem::path& workspace, Owner owner);

} // namespace sb::lending
