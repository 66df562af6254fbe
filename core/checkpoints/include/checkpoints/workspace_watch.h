#pragma once

// A watch of a workspace (inotify(7)): which of its directories may have changed since the walk before, so that
// a long-lived process (the run helper) walks only those rather than stat'ing every file of the workspace.
//
// What inotify does not report, and how the watch makes up for it:
// - A file written through another of its names (a hard link) is reported only in the directory of the name
//   written through. A directory that holds a file with more than one link is reported at every take(): the
//   links found when the watch starts, and those a new name in the workspace makes (the watch then starts over,
//   to find the file's other names). Not seen: a name given outside the workspace after the watch started.
// - A write through a shared memory mapping sends no event. The kernel reports the close of a file opened for
//   writing (IN_CLOSE_WRITE) when its last reference goes, the mapping's included: the file's directory is
//   reported then. Not seen: writes through a mapping that is still there. A directory in which a file was
//   written or closed after writing while watched is reported at every take() from then on (another descriptor
//   of the same program may still write it).
//   The callers (the engine) walk everything whenever any other process wrote to the store since their last
//   walk, which every sandboxed run in the workspace does.
// - A file system mounted on a directory of the workspace changes nothing inotify sees; the walk skips it with
//   a message, and the caller walks the directories that had skipped entries every time.
// - Only local file systems, on which every change goes through this kernel, are watched; on any other (NFS,
//   CIFS, FUSE, overlayfs, ...) start() refuses.
// - The event queue can overflow, a watch can fail to be added (fs.inotify.max_user_watches), the root can be
//   moved or removed: take() then says `everything` and the watch starts over.

#include "util/error.h"

#include <filesystem>
#include <memory>
#include <set>
#include <string>

namespace sb {

class WorkspaceWatch {
public:
    // Watches every directory of the folder `root` that is on root's own file system (no symlink is followed;
    // no deeper than the walk goes, scanning::kMaxDepth). Refused when root is not a directory, its file system
    // is not a local one, inotify is not available, or a watch cannot be added.
    static Result<std::unique_ptr<WorkspaceWatch>> start(const std::filesystem::path& root);
    ~WorkspaceWatch();
    WorkspaceWatch(const WorkspaceWatch&) = delete;
    WorkspaceWatch& operator=(const WorkspaceWatch&) = delete;

    struct Changes {
        // Nothing can be said: walk everything. The first take() after start(), and every take() after the
        // watch broke (then it starts over).
        bool everything = false;
        // Directories ('/'-separated paths relative to the root, "" for the root itself) whose names, or whose
        // files' contents or attributes, may differ from what they were when the last take() returned; with, at
        // every take(), those that hold a file written while watched or a file with more than one link (above).
        // A directory new since (made or moved in) is here with every directory below it.
        std::set<std::string> directories;
    };

    // Reads every event queued so far and says what changed since the last take().
    Changes take();

    struct Impl;

private:
    explicit WorkspaceWatch(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace sb
