#include "ui/agents/SessionJobs.h"

#include "agents/session_export.h"
#include "agents/session_replay.h"
#include "isolation/policy.h"
#include "store/store.h"
#include "ui/models/Conversions.h"

#include <QPromise>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

namespace sb::ui {

namespace {

using sb::agents::SessionStore;

// Runs `work` on the pool; its one result goes to `deliver` on the GUI thread unless a newer job of the same
// kind (a newer `slot` value) superseded it.
template <typename T, typename Work, typename Deliver>
void runLatest(QObject* context, QThreadPool* pool, QFutureWatcher<T>* watcher, quint64& slot, quint64 id, Work work,
               Deliver deliver)
{
    slot = id;
    watcher->disconnect(context);
    QObject::connect(watcher, &QFutureWatcher<T>::finished, context, [watcher, &slot, id, deliver] {
        if (id != slot)
            return;
        slot = 0;
        const auto future = watcher->future();
        if (future.resultCount() > 0)
            deliver(future.result());
    });
    watcher->setFuture(QtConcurrent::run(pool, std::move(work)));
}

std::optional<double> maxCostOf(sb::Store& store, const sb::agents::SessionInfo& session)
{
    if (session.policy.id == 0)
        return std::nullopt;
    auto stored = store.findPolicy(session.policy.name, session.policy.version);
    if (!stored || !*stored)
        return std::nullopt;
    auto policy = sb::parsePolicy((*stored)->yaml, "the session's policy");
    if (!policy || !policy->agent)
        return std::nullopt;
    return policy->agent->maxCost;
}

void loadStepsInWorker(QPromise<StepBatch>& promise, const std::filesystem::path& path, const QString& sessionId,
                       std::int64_t offset)
{
    auto store = sb::Store::open(path);
    if (!store) {
        promise.addResult(StepBatch{.sessionId = sessionId, .offset = offset, .last = true,
                                    .error = toQString(store.error().message)});
        return;
    }
    const std::string id = toStdString(sessionId);
    // The session first: a reader settles one whose gateway died, and its count bounds what is read.
    SessionStore sessions(*store);
    auto session = sessions.find(id);
    if (!session) {
        promise.addResult(StepBatch{.sessionId = sessionId, .offset = offset, .last = true,
                                    .error = toQString(session.error().message)});
        return;
    }
    std::optional<sb::agents::SessionInfo> info = std::move(*session);
    std::int64_t at = offset;
    std::int64_t batch = SessionJobRunner::kFirstBatch;
    while (!promise.isCanceled()) {
        auto steps = sb::agents::stepSummaries(*store, id, at, batch);
        StepBatch out{.sessionId = sessionId, .offset = at, .session = std::move(info)};
        info.reset();
        if (!steps) {
            out.error = toQString(steps.error().message);
            out.last = true;
            promise.addResult(std::move(out));
            return;
        }
        const auto count = static_cast<std::int64_t>(steps->size());
        out.steps = std::move(*steps);
        out.last = count < batch;
        promise.addResult(std::move(out));
        if (count < batch)
            return;
        at += count;
        batch = SessionJobRunner::kBatch;
    }
}

} // namespace

SessionJobRunner::SessionJobRunner(QObject* parent)
    : QObject(parent)
    , m_sessionsWatcher(new QFutureWatcher<SessionsSnapshot>(this))
    , m_stepsWatcher(new QFutureWatcher<StepBatch>(this))
    , m_stepWatcher(new QFutureWatcher<StepDetail>(this))
    , m_searchWatcher(new QFutureWatcher<StepSearch>(this))
    , m_exportWatcher(new QFutureWatcher<SessionExport>(this))
    , m_workspaceWatcher(new QFutureWatcher<SessionWorkspaceTask>(this))
{
    // A load, a step's details, a search and an export at once; superseded ones wind down beside them.
    m_pool.setMaxThreadCount(4);
}

SessionJobRunner::~SessionJobRunner()
{
    m_stepsWatcher->future().cancel();
    for (QFutureWatcherBase* watcher :
         std::initializer_list<QFutureWatcherBase*>{m_sessionsWatcher, m_stepsWatcher, m_stepWatcher,
                                                    m_searchWatcher, m_exportWatcher, m_workspaceWatcher})
        watcher->disconnect(this);
    m_pool.waitForDone();
}

void SessionJobRunner::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
}

void SessionJobRunner::loadSessions()
{
    if (!m_storePath)
        return;
    runLatest(this, &m_pool, m_sessionsWatcher, m_sessionsId, m_nextId++,
              [path = *m_storePath] {
                  SessionsSnapshot snapshot;
                  auto store = sb::Store::open(path);
                  if (!store) {
                      snapshot.error = toQString(store.error().message);
                      return snapshot;
                  }
                  auto list = SessionStore(*store).list();
                  if (list)
                      snapshot.sessions = std::move(*list);
                  else
                      snapshot.error = toQString(list.error().message);
                  return snapshot;
              },
              [this](const SessionsSnapshot& snapshot) { emit sessionsLoaded(snapshot); });
}

void SessionJobRunner::loadSteps(const QString& sessionId, std::int64_t offset)
{
    if (!m_storePath)
        return;
    m_stepsWatcher->future().cancel(); // the load before is no longer wanted
    const quint64 id = m_nextId++;
    m_stepsId = id;
    m_stepsWatcher->disconnect(this);
    connect(m_stepsWatcher, &QFutureWatcher<StepBatch>::resultReadyAt, this, [this, id](int at) {
        if (id != m_stepsId)
            return;
        const StepBatch batch = m_stepsWatcher->future().resultAt(at);
        if (batch.last)
            m_stepsId = 0;
        emit stepsLoaded(batch);
    });
    connect(m_stepsWatcher, &QFutureWatcher<StepBatch>::finished, this, [this, id] {
        if (id == m_stepsId)
            m_stepsId = 0;
    });
    m_stepsWatcher->setFuture(QtConcurrent::run(&m_pool, loadStepsInWorker, *m_storePath, sessionId, offset));
}

void SessionJobRunner::loadStep(const QString& sessionId, std::int64_t index)
{
    if (!m_storePath)
        return;
    runLatest(this, &m_pool, m_stepWatcher, m_stepId, m_nextId++,
              [path = *m_storePath, sessionId, index] {
                  StepDetail detail{.sessionId = sessionId, .index = index};
                  auto store = sb::Store::open(path);
                  if (!store) {
                      detail.error = toQString(store.error().message);
                      return detail;
                  }
                  SessionStore sessions(*store);
                  auto session = sessions.find(toStdString(sessionId));
                  if (!session) {
                      detail.error = toQString(session.error().message);
                      return detail;
                  }
                  auto steps = sessions.steps(session->id, index - 1, 1);
                  if (!steps || steps->empty()) {
                      detail.error = steps ? tr("The session has no step %1.").arg(index)
                                           : toQString(steps.error().message);
                      return detail;
                  }
                  detail.step = std::move(steps->front());
                  detail.sandbox = toQString(session->sandbox);
                  detail.maxCost = maxCostOf(*store, *session);
                  auto change = sb::agents::stepWorkspaceChange(sessions, *store, *session, index);
                  if (change)
                      detail.change = std::move(*change);
                  else
                      detail.changeError = toQString(change.error().message);
                  return detail;
              },
              [this](const StepDetail& detail) { emit stepLoaded(detail); });
}

void SessionJobRunner::search(const QString& sessionId, const QString& text)
{
    if (!m_storePath)
        return;
    runLatest(this, &m_pool, m_searchWatcher, m_searchId, m_nextId++,
              [path = *m_storePath, sessionId, text] {
                  StepSearch search{.sessionId = sessionId, .text = text};
                  auto store = sb::Store::open(path);
                  if (!store) {
                      search.error = toQString(store.error().message);
                      return search;
                  }
                  auto found = sb::agents::searchSteps(*store, toStdString(sessionId), toStdString(text));
                  if (found)
                      search.steps = std::move(*found);
                  else
                      search.error = toQString(found.error().message);
                  return search;
              },
              [this](const StepSearch& search) { emit searched(search); });
}

void SessionJobRunner::exportSession(const QString& sessionId, const QString& path, SessionExportFormat format,
                                     const QString& timelineImage)
{
    if (!m_storePath)
        return;
    runLatest(this, &m_pool, m_exportWatcher, m_exportId, m_nextId++,
              [storePath = *m_storePath, sessionId, path, format, timelineImage] {
                  SessionExport outcome{.path = path, .format = format};
                  auto store = sb::Store::open(storePath);
                  if (!store) {
                      outcome.error = toQString(store.error().message);
                      return outcome;
                  }
                  SessionStore sessions(*store);
                  auto session = sessions.find(toStdString(sessionId));
                  if (!session) {
                      outcome.error = toQString(session.error().message);
                      return outcome;
                  }
                  // Written beside the target and renamed over it: a failed export leaves no half file.
                  QSaveFile file(path);
                  if (!file.open(QIODevice::WriteOnly)) {
                      outcome.error = tr("Cannot write %1: %2").arg(path, file.errorString());
                      return outcome;
                  }
                  const sb::agents::ShowSink sink = [&file](std::string_view text) -> sb::Result<void> {
                      const auto size = static_cast<qint64>(text.size());
                      if (file.write(text.data(), size) != size)
                          return sb::fail(toStdString(file.errorString()));
                      return {};
                  };
                  auto written = format == SessionExportFormat::JsonLines
                                     ? sb::agents::writeSessionJsonLines(sessions, *session, sink)
                                     : sb::agents::writeSessionHtml(
                                           sessions, *session, sink,
                                           sb::agents::HtmlReportOptions{.timelineImage = toStdString(timelineImage)});
                  if (!written) {
                      file.cancelWriting();
                      outcome.error = tr("Cannot export to %1: %2").arg(path, toQString(written.error().message));
                      return outcome;
                  }
                  if (!file.commit())
                      outcome.error = tr("Cannot write %1: %2").arg(path, file.errorString());
                  return outcome;
              },
              [this](const SessionExport& outcome) { emit exported(outcome); });
}

bool SessionJobRunner::forkAtStep(const QString& sessionId, std::int64_t step, const QString& name)
{
    if (!m_storePath || m_workspaceId != 0)
        return false;
    runLatest(this, &m_pool, m_workspaceWatcher, m_workspaceId, m_nextId++,
              [path = *m_storePath, sessionId, step, name] {
                  SessionWorkspaceTask outcome{.fork = true, .step = step, .sandbox = name};
                  auto store = sb::Store::open(path);
                  if (!store) {
                      outcome.error = toQString(store.error().message);
                      return outcome;
                  }
                  auto forked = sb::agents::forkSession(*store, toStdString(sessionId), step, toStdString(name));
                  if (forked)
                      outcome.checkpoint = toQString(forked->checkpoint.id);
                  else
                      outcome.error = toQString(forked.error().message);
                  return outcome;
              },
              [this](const SessionWorkspaceTask& outcome) { emit workspaceChanged(outcome); });
    return true;
}

bool SessionJobRunner::rewindToStep(const QString& sessionId, std::int64_t step)
{
    if (!m_storePath || m_workspaceId != 0)
        return false;
    runLatest(this, &m_pool, m_workspaceWatcher, m_workspaceId, m_nextId++,
              [path = *m_storePath, sessionId, step] {
                  SessionWorkspaceTask outcome{.fork = false, .step = step};
                  auto store = sb::Store::open(path);
                  if (!store) {
                      outcome.error = toQString(store.error().message);
                      return outcome;
                  }
                  auto rewound = sb::agents::rewindSession(*store, toStdString(sessionId), step);
                  if (rewound) {
                      outcome.sandbox = toQString(rewound->sandbox);
                      outcome.checkpoint = toQString(rewound->restored.id);
                  } else {
                      outcome.error = toQString(rewound.error().message);
                  }
                  return outcome;
              },
              [this](const SessionWorkspaceTask& outcome) { emit workspaceChanged(outcome); });
    return true;
}

} // namespace sb::ui
