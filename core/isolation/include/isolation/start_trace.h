#pragma once

// Where the start of a run goes: CLOCK_MONOTONIC marks at the phases of the Runner, the launcher, the
// sandbox's pid 1 and the program's process before execve, collected in one place. Off unless the caller's
// environment has SANDBENCH_TRACE_START=<file>; then every run appends one JSON line to that file
// ({"run":..., "marks":[["runner.enter", ns], ...]}) and bench_container --breakdown turns them into a
// table. CLOCK_MONOTONIC is one clock for every process of the machine, so the marks of all of them line up.
//
// The launcher's side keeps its marks in a page shared with the processes it forks (they write into it
// between fork and execve, where nothing may allocate), so marking is async-signal-safe and costs one
// clock read; when tracing is off the page does not exist and mark() returns at once.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sb::starttrace {

using Marks = std::vector<std::pair<std::string, std::int64_t>>; // label, CLOCK_MONOTONIC nanoseconds

std::int64_t nowNs();

// ---- the launcher and what it forks ----
// Maps the shared page; call before forking. Without it mark() does nothing.
void enable();
bool enabled();
// `label` must be a string literal (its address is stored and read back after fork).
void mark(const char* label);
void mark(const char* label, std::int64_t ns); // a moment taken earlier (before enable())
Marks collected();

// ---- the Runner ----
// The file named by SANDBENCH_TRACE_START, or empty when tracing is off.
std::string outputFile();
// Appends one run's marks as a JSON line (one write with O_APPEND, so concurrent runs do not interleave).
void append(const std::string& file, const std::string& runId, const Marks& marks);

} // namespace sb::starttrace
