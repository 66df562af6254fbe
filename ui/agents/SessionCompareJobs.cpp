#include "ui/agents/SessionCompareJobs.h"

#include "agents/session_replay.h"
#include "isolation/runner.h"
#include "store/store.h"
#include "ui/models/Conversions.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::ui {

namespace {

using sb::agents::ComparedStep;
using sb::agents::SessionComparison;
using sb::agents::SessionStore;
using sb::agents::StepRecord;

// The step with this index among `steps` (read from `offset` on, in order), else nullptr.
const StepRecord* stepAt(const std::vector<StepRecord>& steps, std::int64_t offset, std::int64_t index)
{
    const std::int64_t i = index - offset - 1;
    if (i < 0 || i >= static_cast<std::int64_t>(steps.size()))
        return nullptr;
    const StepRecord& step = steps[static_cast<std::size_t>(i)];
    return step.index == index ? &step : nullptr;
}

// Both sessions' steps, a batch of each at a time (results and frames are not held longer than a batch), each
// index handed to `compare` with the two steps it has (nullptr: none) until `count` indexes were.
template <typename Compare>
Result<SessionComparison> compareInBatches(SessionStore& sessions, const std::string& leftId,
                                           const std::string& rightId, std::int64_t count, Compare compare)
{
    SessionComparison comparison;
    comparison.steps.reserve(static_cast<std::size_t>(count));
    for (std::int64_t offset = 0; offset < count; offset += SessionCompareRunner::kBatch) {
        auto left = sessions.steps(leftId, offset, SessionCompareRunner::kBatch);
        if (!left)
            return std::unexpected(left.error());
        auto right = sessions.steps(rightId, offset, SessionCompareRunner::kBatch);
        if (!right)
            return std::unexpected(right.error());
        const std::int64_t end = std::min(count, offset + SessionCompareRunner::kBatch);
        for (std::int64_t index = offset + 1; index <= end; ++index) {
            ComparedStep step = compare(index, stepAt(*left, offset, index), stepAt(*right, offset, index));
            comparison.differing += step.differs();
            comparison.steps.push_back(std::move(step));
        }
    }
    return comparison;
}

SessionCompareResult compareInWorker(const std::filesystem::path& path, const QString& leftId,
                                     const QString& rightId)
{
    SessionCompareResult out;
    auto store = sb::Store::open(path);
    if (!store)
        return SessionCompareResult{.error = toQString(store.error().message)};
    SessionStore sessions(*store);
    auto left = sessions.find(toStdString(leftId));
    if (!left)
        return SessionCompareResult{.error = toQString(left.error().message)};
    auto right = sessions.find(toStdString(rightId));
    if (!right)
        return SessionCompareResult{.error = toQString(right.error().message)};
    auto comparison = compareInBatches(sessions, left->id, right->id, std::max(left->steps, right->steps),
                                       [](std::int64_t index, const StepRecord* l, const StepRecord* r) {
                                           return sb::agents::compareStep(index, l, r);
                                       });
    if (!comparison)
        return SessionCompareResult{.error = toQString(comparison.error().message)};
    out.left = std::move(*left);
    out.right = std::move(*right);
    out.comparison = std::make_shared<const SessionComparison>(std::move(*comparison));
    return out;
}

SessionCompareResult replayInWorker(const std::filesystem::path& path, const QString& sessionId,
                                    const QString& policy, const sb::agents::ReplayControl& control)
{
    auto store = sb::Store::open(path);
    if (!store)
        return SessionCompareResult{.replay = true, .policy = policy, .error = toQString(store.error().message)};
    const sb::Runner runner;
    auto report = sb::agents::replaySession(*store, runner, toStdString(sessionId), toStdString(policy), control);
    if (!report)
        return SessionCompareResult{.replay = true, .policy = policy, .error = toQString(report.error().message)};
    SessionStore sessions(*store);
    const auto& replayed = report->steps;
    auto comparison = compareInBatches(
        sessions, report->original.id, report->replay.id, static_cast<std::int64_t>(replayed.size()),
        [&replayed](std::int64_t index, const StepRecord* original, const StepRecord* replay) {
            return sb::agents::compareReplayedStep(replayed[static_cast<std::size_t>(index - 1)], original, replay);
        });
    if (!comparison)
        return SessionCompareResult{.replay = true, .policy = policy, .error = toQString(comparison.error().message)};
    return SessionCompareResult{.replay = true,
                                .policy = toQString(report->policyRef),
                                .left = report->original,
                                .right = report->replay,
                                .comparison = std::make_shared<const SessionComparison>(std::move(*comparison))};
}

StepPair pairInWorker(const std::filesystem::path& path, const QString& leftId, const QString& rightId,
                      std::int64_t index)
{
    StepPair out{.leftId = leftId, .rightId = rightId, .index = index};
    auto store = sb::Store::open(path);
    if (!store) {
        out.error = toQString(store.error().message);
        return out;
    }
    SessionStore sessions(*store);
    for (auto [id, side] : {std::pair{&leftId, &out.left}, std::pair{&rightId, &out.right}}) {
        auto steps = sessions.steps(toStdString(*id), index - 1, 1);
        if (!steps) {
            out.error = toQString(steps.error().message);
            return out;
        }
        if (!steps->empty())
            *side = std::move(steps->front());
    }
    return out;
}

} // namespace

SessionCompareRunner::SessionCompareRunner(QObject* parent)
    : QObject(parent)
    , m_compareWatcher(new QFutureWatcher<SessionCompareResult>(this))
    , m_pairWatcher(new QFutureWatcher<StepPair>(this))
{
    m_pool.setMaxThreadCount(2);
    connect(m_compareWatcher, &QFutureWatcher<SessionCompareResult>::finished, this, [this] {
        m_compareId = 0;
        const auto future = m_compareWatcher->future();
        if (future.resultCount() > 0)
            emit finished(future.result());
    });
}

SessionCompareRunner::~SessionCompareRunner()
{
    m_compareWatcher->disconnect(this);
    m_pairWatcher->disconnect(this);
    cancelReplay();
    m_pool.waitForDone();
}

void SessionCompareRunner::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
}

bool SessionCompareRunner::replay(const QString& sessionId, const QString& policy)
{
    if (!m_storePath || isBusy() || sessionId.isEmpty())
        return false;
    m_compareId = m_nextId++;
    m_replaying = true;
    m_stopReplay = std::make_shared<std::atomic<bool>>(false);
    sb::agents::ReplayControl control;
    control.stop = m_stopReplay.get();
    // The job's copy of `control` keeps its flag alive for as long as the job runs.
    control.progress = [self = QPointer<SessionCompareRunner>(this), stop = m_stopReplay](std::size_t done,
                                                                                          std::size_t total) {
        QMetaObject::invokeMethod(
            self, [self, done, total] {
                if (self)
                    emit self->replayProgress(static_cast<int>(done), static_cast<int>(total));
            },
            Qt::QueuedConnection);
    };
    m_compareWatcher->setFuture(QtConcurrent::run(&m_pool, replayInWorker, *m_storePath, sessionId, policy, control));
    emit started(true);
    return true;
}

void SessionCompareRunner::cancelReplay()
{
    if (m_stopReplay)
        m_stopReplay->store(true);
}

bool SessionCompareRunner::compare(const QString& leftId, const QString& rightId)
{
    if (!m_storePath || isBusy() || leftId.isEmpty() || rightId.isEmpty())
        return false;
    m_compareId = m_nextId++;
    m_replaying = false;
    m_compareWatcher->setFuture(QtConcurrent::run(&m_pool, compareInWorker, *m_storePath, leftId, rightId));
    emit started(false);
    return true;
}

void SessionCompareRunner::loadStepPair(const QString& leftId, const QString& rightId, std::int64_t index)
{
    if (!m_storePath)
        return;
    const quint64 id = m_nextId++;
    m_pairId = id;
    m_pairWatcher->disconnect(this);
    connect(m_pairWatcher, &QFutureWatcher<StepPair>::finished, this, [this, id] {
        if (id != m_pairId)
            return;
        m_pairId = 0;
        const auto future = m_pairWatcher->future();
        if (future.resultCount() > 0)
            emit stepPairLoaded(future.result());
    });
    m_pairWatcher->setFuture(QtConcurrent::run(&m_pool, pairInWorker, *m_storePath, leftId, rightId, index));
}

} // namespace sb::ui
