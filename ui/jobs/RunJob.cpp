#include "ui/jobs/RunJob.h"

#include "agents/worked_example_session.h"
#include "demo/demo.h"
#include "isolation/runner.h"
#include "ui/models/Conversions.h"
#include "usecases/demo_run.h"

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
    auto runs = sb::runPoints(*store);
    if (!runs)
        return std::unexpected(runs.error());
    auto activity = loadDashboardActivity(*store);
    if (!activity)
        return std::unexpected(activity.error());
    return StoreSnapshot{std::move(*metrics), std::move(*history), std::move(*runs), std::move(*activity)};
}

namespace {

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

// The job's own connection to the store; none when there is no store path or it cannot be opened (`error`).
std::optional<sb::Store> openJobStore(const std::optional<std::filesystem::path>& storePath, QString& error)
{
    if (!storePath)
        return std::nullopt;
    auto opened = sb::Store::open(*storePath);
    if (!opened) {
        error = toQString(opened.error().message);
        return std::nullopt;
    }
    return std::move(*opened);
}

// The store as it is after a run was recorded, or why the run could not be recorded or read back.
void attachStore(RunEvent& event, const sb::Store& store, const std::string& recordError)
{
    if (!recordError.empty()) {
        event.storeError = toQString(recordError);
        return;
    }
    auto metrics = store.metrics();
    auto history = store.recentRuns(kHistoryLimit);
    auto runs = sb::runPoints(store);
    auto activity = loadDashboardActivity(store);
    if (metrics && history && runs && activity)
        event.store = StoreSnapshot{std::move(*metrics), std::move(*history), std::move(*runs), std::move(*activity)};
    else
        event.storeError = toQString(!metrics   ? metrics.error().message
                                     : !history ? history.error().message
                                     : !runs    ? runs.error().message
                                                : activity.error().message);
}

// The workers touch nothing but their arguments, so the JobRunner may be gone by the time they end.
void runOrder(QPromise<RunEvent>& promise, quint64 jobId, sb::RunOrder order,
              std::optional<std::filesystem::path> storePath, CancelFlag cancel)
{
    QString storeError;
    std::optional<sb::Store> store = openJobStore(storePath, storeError);
    if (cancel->load())
        return;
    RunEvent event;
    event.jobId = jobId;
    event.total = 1;
    event.request = order.request;
    promise.addResult(event);

    event.stage = RunEvent::Stage::Finished;
    const sb::Runner runner; // a single run starts cold
    if (!store) {
        sb::RunRecord record = sb::runUnrecorded(runner, std::move(order), cancel.get());
        event.request = std::move(record.request);
        event.result = std::move(record.result);
        event.storeError = storeError;
        promise.addResult(std::move(event));
        return;
    }
    auto record = sb::runAndRecord(*store, runner, std::move(order), cancel.get());
    if (!record) {
        event.refusal = toQString(record.error().message);
        promise.addResult(std::move(event));
        return;
    }
    event.request = std::move(record->request);
    event.result = std::move(record->result);
    attachStore(event, *store, record->recordError);
    promise.addResult(std::move(event));
}

// The worked example, recorded in the store as an agent session: the demo's last step, `index` of `total`.
void runDemoAgentSession(QPromise<RunEvent>& promise, quint64 jobId, int index, int total,
                         std::optional<sb::Store>& store, const QString& storeError, const CancelFlag& cancel)
{
    RunEvent event;
    event.jobId = jobId;
    event.index = index;
    event.total = total;
    event.agentSession = AgentSessionStep{};
    // Each part of it is a Started event with its own label, for the window's status line.
    const auto started = [&](sb::agents::WorkedExamplePhase phase) {
        using Phase = sb::agents::WorkedExamplePhase;
        if (phase == Phase::Done)
            return;
        event.request.label = (phase == Phase::WritingFiles      ? QObject::tr("the worked example: its files")
                               : phase == Phase::MakingSandboxes ? QObject::tr("the worked example: its sandboxes")
                                                                 : QObject::tr("the worked example: the agent's session"))
                                  .toStdString();
        promise.addResult(event);
    };
    if (!store) {
        started(sb::agents::WorkedExamplePhase::WritingFiles);
        event.stage = RunEvent::Stage::Finished;
        event.agentSession->error = QObject::tr("no store to record its session in (%1)")
                                        .arg(storeError.isEmpty() ? QObject::tr("none is open") : storeError);
        promise.addResult(std::move(event));
        return;
    }
    const sb::Runner runner;
    sb::agents::WorkedExampleRequest request;
    request.progress = started;
    request.stop = cancel.get();
    auto example = sb::agents::runWorkedExample(*store, runner, request);
    event.stage = RunEvent::Stage::Finished;
    if (example) {
        event.result = std::move(example->run.agent);
        event.agentSession->session = std::move(example->run.session);
        event.agentSession->asExpected = example->asExpected;
    } else {
        event.agentSession->error = toQString(example.error().message);
    }
    attachStore(event, *store, {});
    promise.addResult(std::move(event));
}

void runDemo(QPromise<RunEvent>& promise, quint64 jobId, sb::Policy basePolicy,
             std::optional<std::filesystem::path> storePath, CancelFlag cancel)
{
    QString storeError;
    std::optional<sb::Store> store = openJobStore(storePath, storeError);
    const sb::DemoRun demo(basePolicy);
    const int cases = static_cast<int>(demo.size());
    const int total = demoJobSteps();
    for (int i = 0; i < cases && !cancel->load(); ++i) {
        RunEvent event;
        event.jobId = jobId;
        event.index = i;
        event.total = total;
        event.request = demo.request(static_cast<std::size_t>(i));
        promise.addResult(event);

        event.stage = RunEvent::Stage::Finished;
        sb::DemoCaseRun run = demo.runCase(static_cast<std::size_t>(i), store ? &*store : nullptr, cancel.get());
        event.result = std::move(run.result);
        event.storeError = storeError;
        if (store)
            attachStore(event, *store, run.recordError);
        promise.addResult(std::move(event));
    }
    if (!cancel->load())
        runDemoAgentSession(promise, jobId, cases, total, store, storeError, cancel);
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
    return startRun(sb::RunOrder{std::move(request), {}, {}});
}

quint64 JobRunner::startRun(sb::RunOrder order)
{
    return start(1, [order = std::move(order)](QPromise<RunEvent>& promise, quint64 jobId,
                                               std::optional<std::filesystem::path> storePath,
                                               CancelFlag cancel) mutable {
        runOrder(promise, jobId, std::move(order), std::move(storePath), std::move(cancel));
    });
}

int demoJobSteps()
{
    return static_cast<int>(sb::demoCases().size()) + 1;
}

QString agentSessionSummary(const AgentSessionStep& step)
{
    if (!step.session)
        return QObject::tr("Worked example: could not run: %1").arg(step.error);
    const sb::agents::SessionInfo& session = *step.session;
    QString line = QObject::tr("Worked example: agent session %1 %2, %n step(s) in sandbox %3", nullptr,
                               static_cast<int>(session.steps))
                       .arg(toQString(session.id), toQString(std::string(sb::agents::toString(session.status))),
                            toQString(session.sandbox));
    if (!session.message.empty() && !step.asExpected)
        line += QStringLiteral(" (") + toQString(session.message) + QLatin1Char(')');
    return line;
}

quint64 JobRunner::startDemo(const sb::Policy& basePolicy)
{
    return start(demoJobSteps(),
                 [basePolicy](QPromise<RunEvent>& promise, quint64 jobId,
                              std::optional<std::filesystem::path> storePath, CancelFlag cancel) {
                     runDemo(promise, jobId, basePolicy, std::move(storePath), std::move(cancel));
                 });
}

quint64 JobRunner::start(int total, std::function<void(QPromise<RunEvent>&, quint64, std::optional<std::filesystem::path>,
                                                       std::shared_ptr<std::atomic<bool>>)> work)
{
    cancel();
    const quint64 jobId = m_nextJobId++;
    Job job{jobId, std::make_shared<std::atomic<bool>>(false), new QFutureWatcher<RunEvent>(this)};
    connect(job.watcher, &QFutureWatcher<RunEvent>::resultReadyAt, this,
            [this, jobId](int resultIndex) { onResultReady(jobId, resultIndex); });
    connect(job.watcher, &QFutureWatcher<RunEvent>::finished, this, [this, jobId] { onJobDone(jobId); });

    job.watcher->setFuture(QtConcurrent::run(
        &m_pool, [work = std::move(work), jobId, storePath = m_storePath, cancel = job.cancel](
                     QPromise<RunEvent>& promise) { work(promise, jobId, storePath, cancel); }));
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
