#pragma once

// The demo, as every front end runs it: the demo cases as one burst under a base policy, with a warm pool
// preparing the sandboxes of its most frequent kind of run while the others run, each run recorded, and
// whether each ended as its case expects.

#include "demo/demo.h"
#include "isolation/policy.h"
#include "isolation/run.h"
#include "isolation/runner.h"
#include "store/store.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sb {

// One demo case that ran.
struct DemoCaseRun {
    const DemoCase* demoCase = nullptr;
    RunRequest request;
    RunResult result;
    bool asExpected = false;
    std::optional<PolicyVersion> policy; // the version recorded with it
    std::string recordError;             // why the store does not hold it; empty: recorded
};

// Whether an outcome is one the case expects.
bool endedAsExpected(const DemoCase& demoCase, Outcome outcome);

class DemoRun {
public:
    // The cases' requests under `basePolicy` (its level; each case sets its own limits), and the burst's pool.
    explicit DemoRun(const Policy& basePolicy);

    std::size_t size() const { return m_requests.size(); }
    const RunRequest& request(std::size_t index) const { return m_requests[index]; }

    // Runs case `index` and records it in `store` (none: not recorded).
    DemoCaseRun runCase(std::size_t index, Store* store, const std::atomic<bool>* cancel = nullptr) const;

    // Runs that took a sandbox the pool had prepared.
    std::uint64_t pooledRuns() const;

private:
    std::vector<RunRequest> m_requests;
    RunnerOptions m_runnerOptions;
    Runner m_runner;
};

} // namespace sb
