#include "ui/jobs/RunJob.h"

#include "demo/demo.h"
#include "isolation/runner.h"
#include "isolation/warm_pool.h"
#include "ui/models/Conversions.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace sb::ui {

sb::Result<StoreSnapshot> loadStoreSnapshot(const sb::StoreLocation& location, int historyLimit)
{
    auto store = sb::Store::open(location);
    if (!store)
        return std::unexpected(store.error());
    auto metrics = store->metrics();
    if (!metrics)
        return std::unexpected(metrics.error());
    auto history = store->recentRuns(historyLimit);
    if (!history)
        return std::unexpected(history.error());
    return StoreSnapshot{std::move(*metrics), std::move(*history)};
}

namespace {

// The worker: runs every request in turn, records it, and reports each step through the promise.
// It touches nothing but its arguments, so the JobRunner may be gone by the time it ends.
void runRequests(QPromise<RunEvent>& promise, quint64 jobId, std::vector<sb::RunRequest> requests,
                 std::optional<std::filesystem::path> storePath, std::shared_ptr<std::atomic<bool>> cancel)
{
    std::optional<sb::Store> store;
    QString storeError;
    if (storePath) {
        auto opened = sb::Store::open(*storePath);
        if (opened)
            store.emplace(std::move(*opened));
        else
            storeError = toQString(opened.error().message);
    }

    // A burst (the demo) gets a warm pool for its most frequent kind of request, prepared while the others
    // run; a single run starts cold.
    sb::RunnerOptions options;
    options.warmPool = sb::makeBurstPool(requests, options);
    const sb::Runner runner(options);
    const int total = static_cast<int>(requests.size());
    for (int i = 0; i < total && !cancel->load(); ++i) {
        RunEvent event;
        event.jobId = jobId;
        event.index = i;
        event.total = total;
        event.request = std::move(requests[static_cast<std::size_t>(i)]);
        promise.addResult(event);

        event.stage = RunEvent::Stage::Finished;
        event.result = runner.run(event.request, cancel.get());
        event.storeError = storeError;
        if (store) {
            if (auto recorded = store->recordRun(event.request, event.result); !recorded) {
                event.storeError = toQString(recorded.error().message);
            } else {
                auto metrics = store->metrics();
                auto history = store->recentRuns(kHistoryLimit);
                if (metrics && history)
                    event.store = StoreSnapshot{std::move(*metrics), std::move(*history)};
                else
                    event.storeError = toQString(metrics ? history.error().message : metrics.error().message);
            }
        }
        promise.addResult(std::move(event));
    }
}

} // namespace

JobRunner::JobRunner(QObject* parent)
    : QObject(parent)
{
    // Stale jobs wind down beside the current one; more threads than that would only queue runs.
    m_pool.setMaxThreadCount(2);
}

JobRunner::~JobRunner()
{
    for (auto& job : m_jobs)
        job.cancel->store(true);
    for (auto& job : m_jobs) {
        job.watcher->disconnect(this);
        job.watcher->waitForFinished();
    }
}

void JobRunner::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
}

quint64 JobRunner::startRun(sb::RunRequest request)
{
    std::vector<sb::RunRequest> requests;
    requests.push_back(std::move(request));
    return start(std::move(requests));
}

quint64 JobRunner::startDemo(const sb::Policy& basePolicy)
{
    std::vector<sb::RunRequest> requests;
    for (const auto& demoCase : sb::demoCases())
        requests.push_back(sb::demoRequest(demoCase, basePolicy));
    return start(std::move(requests));
}

quint64 JobRunner::start(std::vector<sb::RunRequest> requests)
{
    cancel();
    const quint64 jobId = m_nextJobId++;
    Job job{jobId, std::make_shared<std::atomic<bool>>(false), new QFutureWatcher<RunEvent>(this)};
    connect(job.watcher, &QFutureWatcher<RunEvent>::resultReadyAt, this,
            [this, jobId](int resultIndex) { onResultReady(jobId, resultIndex); });
    connect(job.watcher, &QFutureWatcher<RunEvent>::finished, this, [this, jobId] { onJobDone(jobId); });

    const int total = static_cast<int>(requests.size());
    job.watcher->setFuture(QtConcurrent::run(&m_pool, runRequests, jobId, std::move(requests), m_storePath, job.cancel));
    m_jobs.push_back(job);
    m_currentJobId = jobId;
    emit jobStarted(jobId, total);
    return jobId;
}

void JobRunner::cancel()
{
    for (auto& job : m_jobs) {
        if (job.id == m_currentJobId)
            job.cancel->store(true);
    }
}

void JobRunner::onResultReady(quint64 jobId, int resultIndex)
{
    if (jobId != m_currentJobId)
        return; // a stale job: its results belong to nobody now
    const auto it = std::find_if(m_jobs.begin(), m_jobs.end(), [jobId](const Job& job) { return job.id == jobId; });
    if (it == m_jobs.end())
        return;
    const RunEvent event = it->watcher->resultAt(resultIndex);
    if (event.stage == RunEvent::Stage::Started)
        emit runStarted(event);
    else
        emit runFinished(event);
}

void JobRunner::onJobDone(quint64 jobId)
{
    const auto it = std::find_if(m_jobs.begin(), m_jobs.end(), [jobId](const Job& job) { return job.id == jobId; });
    if (it == m_jobs.end())
        return;
    const bool cancelled = it->cancel->load();
    it->watcher->deleteLater();
    m_jobs.erase(it);
    if (jobId == m_currentJobId) {
        m_currentJobId = 0;
        emit jobFinished(jobId, cancelled);
    }
}

} // namespace sb::ui
