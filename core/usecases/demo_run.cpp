#include "usecases/demo_run.h"

#include "isolation/warm_pool.h"

#include <algorithm>

namespace sb {

namespace {

std::vector<RunRequest> demoRequests(const Policy& basePolicy)
{
    std::vector<RunRequest> requests;
    for (const auto& demoCase : demoCases())
        requests.push_back(demoRequest(demoCase, basePolicy));
    return requests;
}

// Most cases are Python snippets under one policy, whose sandboxes a warm pool prepares while the others
// run; every other case starts cold.
RunnerOptions burstOptions(const std::vector<RunRequest>& requests)
{
    RunnerOptions options;
    options.warmPool = makeBurstPool(requests, options);
    return options;
}

} // namespace

bool endedAsExpected(const DemoCase& demoCase, Outcome outcome)
{
    return std::find(demoCase.expected.begin(), demoCase.expected.end(), outcome) != demoCase.expected.end();
}

DemoRun::DemoRun(const Policy& basePolicy)
    : m_requests(demoRequests(basePolicy))
    , m_runnerOptions(burstOptions(m_requests))
    , m_runner(m_runnerOptions)
{
}

DemoCaseRun DemoRun::runCase(std::size_t index, Store* store, const std::atomic<bool>* cancel) const
{
    DemoCaseRun run;
    run.demoCase = &demoCases()[index];
    run.request = m_requests[index];
    run.result = m_runner.run(run.request, cancel);
    run.asExpected = endedAsExpected(*run.demoCase, run.result.outcome);
    if (store) {
        PolicyVersion policy;
        if (auto recorded = store->recordRun(run.request, run.result, &policy); recorded)
            run.policy = policy;
        else
            run.recordError = recorded.error().message;
    }
    return run;
}

std::uint64_t DemoRun::pooledRuns() const
{
    return m_runnerOptions.warmPool ? m_runnerOptions.warmPool->stats().handedOut : 0;
}

} // namespace sb
