#pragma once

#include <cstdint>

// A SQLite VFS for the store's connections that writes each commit's WAL frames in one system call.
//
// SQLite appends a frame to the WAL as two writes, its 24-byte header and its page, so a commit of 19 pages
// costs 38 pwrite(2) calls; in a VM where a system call is expensive, that was a third of the calls of an
// agent step that takes a checkpoint. This VFS is SQLite's "unix" VFS, except that a WAL file keeps the frames
// appended past its end in memory and writes them at once when the commit frame (the one whose header carries
// the database size) has its page, or before anything else touches the file (a read, a sync, a size, a
// truncation, a file control, closing it). What a commit writes, and when, is otherwise unchanged:
// - the frames of a commit are in the file before SQLite publishes the commit in the WAL index (it does so
//   after its last frame is written), so a reader in any process, and recovery after a crash of any process,
//   sees what it would see without this VFS;
// - an error writing them (ENOSPC, EIO) is returned by the write of the commit frame's page, and SQLite
//   rolls the commit back as it would for that write;
// - a write below the end of what is written (the log starting over, a page rewritten in place, checksums
//   rewritten) goes straight to the file, after whatever was held.
// Frames held for a transaction larger than kMaxHeldBytes are written once they reach it.

namespace sb::store_vfs {

// The VFS's name, registered on first use; null when it cannot be (no "unix" VFS): the default VFS then.
const char* name();

constexpr std::uint64_t kMaxHeldBytes = 4 * 1024 * 1024;

// For tests, since the process started: the writes SQLite asked of WAL files, and those this VFS made.
struct WalCounters {
    std::uint64_t requested = 0;
    std::uint64_t made = 0;
};
WalCounters walCounters();

} // namespace sb::store_vfs
