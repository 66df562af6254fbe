#include "ui/jobs/CheckpointJobs.h"

#include "demo/demo_sandboxes.h"
#include "ui/models/Conversions.h"
#include "store/store.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <QLocale>
#include <QPromise>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <mutex>

namespace sb::ui {

namespace {

constexpr int kProgressPollMs = 100;

QString shortId(const std::string& id)
{
    return toQString(id).left(10);
}

// A store connection and an engine on it, for one job on one thread.
struct OpenEngine {
    std::unique_ptr<sb::Store> store;
    std::unique_ptr<sb::SandboxEngine> engine;
};

sb::Result<OpenEngine> openEngine(const std::filesystem::path& storePath)
{
    auto store = sb::Store::open(storePath);
    if (!store)
        return std::unexpected(store.error());
    OpenEngine opened;
    opened.store = std::make_unique<sb::Store>(std::move(*store));
    auto engine = sb::SandboxEngine::open(*opened.store);
    if (!engine)
        return std::unexpected(engine.error());
    opened.engine = std::move(*engine);
    return opened;
}

QStringList skippedTexts(const std::vector<sb::Skipped>& skipped)
{
    QStringList out;
    for (const auto& s : skipped)
        out << QStringLiteral("%1: %2").arg(toQString(sb::printable(s.path, 200)), toQString(s.reason));
    return out;
}

} // namespace

bool ProgressChannel::report(const sb::Progress& p)
{
    {
        const std::lock_guard guard(m_lock);
        m_progress.phase = messageText(sb::Message(p.phase));
        m_progress.done = p.done;
        m_progress.total = p.total;
        m_progress.path = toQString(sb::printable(p.path, 200));
        m_changed = true;
    }
    return !cancel.load();
}

std::optional<JobProgress> ProgressChannel::take()
{
    const std::lock_guard guard(m_lock);
    if (!m_changed)
        return std::nullopt;
    m_changed = false;
    return m_progress;
}

struct CheckpointJobRunner::Shared : ProgressChannel {};

CheckpointJobRunner::CheckpointJobRunner(QObject* parent)
    : QObject(parent)
    , m_sandboxesWatcher(new QFutureWatcher<SandboxesSnapshot>(this))
    , m_checkpointsWatcher(new QFutureWatcher<CheckpointsSnapshot>(this))
    , m_diffWatcher(new QFutureWatcher<DiffSnapshot>(this))
    , m_taskWatcher(new QFutureWatcher<TaskOutcome>(this))
    , m_progressTimer(new QTimer(this))
{
    qRegisterMetaType<sb::ui::CheckpointTask>();
    // Two reads, a diff and a task at once; superseded reads and diffs wind down beside them.
    m_pool.setMaxThreadCount(4);
    m_progressTimer->setInterval(kProgressPollMs);
    connect(m_progressTimer, &QTimer::timeout, this, &CheckpointJobRunner::pollProgress);
}

CheckpointJobRunner::~CheckpointJobRunner()
{
    for (const auto& shared : {m_diffShared, m_taskShared}) {
        if (shared)
            shared->cancel = true;
    }
    m_sandboxesWatcher->disconnect(this);
    m_checkpointsWatcher->disconnect(this);
    m_diffWatcher->disconnect(this);
    m_taskWatcher->disconnect(this);
    m_pool.waitForDone();
}

void CheckpointJobRunner::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
}

void CheckpointJobRunner::loadSandboxes()
{
    if (!m_storePath)
        return;
    const quint64 id = m_nextId++;
    m_sandboxesId = id;
    m_sandboxesWatcher->disconnect(this);
    connect(m_sandboxesWatcher, &QFutureWatcher<SandboxesSnapshot>::finished, this, [this, id] {
        if (id != m_sandboxesId)
            return;
        m_sandboxesId = 0;
        const auto future = m_sandboxesWatcher->future();
        if (future.resultCount() > 0)
            emit sandboxesLoaded(future.result());
    });
    m_sandboxesWatcher->setFuture(QtConcurrent::run(&m_pool, [path = *m_storePath](QPromise<SandboxesSnapshot>& promise) {
        SandboxesSnapshot snapshot;
        auto opened = openEngine(path);
        if (!opened) {
            snapshot.error = toQString(opened.error().message);
        } else if (auto list = opened->engine->sandboxes(); !list) {
            snapshot.error = toQString(list.error().message);
        } else {
            snapshot.sandboxes = std::move(*list);
            for (const auto& sandbox : snapshot.sandboxes) {
                if (auto used = opened->engine->usage(sandbox.name))
                    snapshot.usage.emplace(sandbox.name, *used);
            }
        }
        snapshot.nowMs = sb::nowEpochMs();
        promise.addResult(std::move(snapshot));
    }));
}

void CheckpointJobRunner::loadCheckpoints(const QString& sandbox)
{
    if (!m_storePath)
        return;
    const quint64 id = m_nextId++;
    m_checkpointsId = id;
    m_checkpointsWatcher->disconnect(this);
    connect(m_checkpointsWatcher, &QFutureWatcher<CheckpointsSnapshot>::finished, this, [this, id] {
        if (id != m_checkpointsId)
            return;
        m_checkpointsId = 0;
        const auto future = m_checkpointsWatcher->future();
        if (future.resultCount() > 0)
            emit checkpointsLoaded(future.result());
    });
    m_checkpointsWatcher->setFuture(
        QtConcurrent::run(&m_pool, [path = *m_storePath, sandbox](QPromise<CheckpointsSnapshot>& promise) {
            CheckpointsSnapshot snapshot;
            snapshot.sandbox = sandbox;
            auto opened = openEngine(path);
            if (!opened) {
                snapshot.error = toQString(opened.error().message);
                promise.addResult(std::move(snapshot));
                return;
            }
            const std::string name = toStdString(sandbox);
            auto info = opened->engine->sandbox(name);
            if (!info) {
                snapshot.error = toQString(info.error().message);
                promise.addResult(std::move(snapshot));
                return;
            }
            auto list = opened->engine->checkpoints(name);
            if (list) {
                snapshot.head = info->head;
                snapshot.checkpoints = std::move(*list);
            } else {
                snapshot.error = toQString(list.error().message);
            }
            promise.addResult(std::move(snapshot));
        }));
}

void CheckpointJobRunner::diff(const QString& sandbox, const QString& from, const QString& to)
{
    if (!m_storePath)
        return;
    if (m_diffShared)
        m_diffShared->cancel = true; // the one before is no longer wanted
    const quint64 id = m_nextId++;
    m_diffId = id;
    auto shared = std::make_shared<Shared>();
    m_diffShared = shared;
    m_diffWatcher->disconnect(this);
    connect(m_diffWatcher, &QFutureWatcher<DiffSnapshot>::finished, this, [this, id] {
        if (id != m_diffId)
            return;
        m_diffId = 0;
        m_diffShared.reset();
        const auto future = m_diffWatcher->future();
        if (future.resultCount() > 0)
            emit diffReady(future.result());
    });
    m_progressTimer->start();
    m_diffWatcher->setFuture(QtConcurrent::run(
        &m_pool, [path = *m_storePath, sandbox, from, to, shared](QPromise<DiffSnapshot>& promise) {
            DiffSnapshot snapshot;
            snapshot.sandbox = sandbox;
            snapshot.from = from;
            snapshot.to = to;
            auto opened = openEngine(path);
            if (!opened) {
                snapshot.error = toQString(opened.error().message);
                promise.addResult(std::move(snapshot));
                return;
            }
            const sb::ProgressCallback progress = [shared](const sb::Progress& p) { return shared->report(p); };
            auto diff = opened->engine->diff(toStdString(from), toStdString(to), sb::DiffOptions{}, progress,
                                             to.isEmpty() ? toStdString(sandbox) : std::string());
            if (diff)
                snapshot.diff = std::move(*diff);
            else if (shared->cancel)
                snapshot.cancelled = true;
            else
                snapshot.error = toQString(diff.error().message);
            promise.addResult(std::move(snapshot));
        }));
}

void CheckpointJobRunner::cancelDiff()
{
    if (m_diffShared)
        m_diffShared->cancel = true;
}

bool CheckpointJobRunner::cancellable(CheckpointTask task)
{
    // Destroy, sweep, label, settings and revive take no progress callback in the engine: they cannot be
    // stopped midway.
    return task != CheckpointTask::DestroySandbox && task != CheckpointTask::Sweep && task != CheckpointTask::Label
           && task != CheckpointTask::Settings && task != CheckpointTask::Revive;
}

void CheckpointJobRunner::cancelTask()
{
    if (m_taskShared)
        m_taskShared->cancel = true;
}

void CheckpointJobRunner::pollProgress()
{
    if (m_diffShared) {
        if (auto progress = m_diffShared->take())
            emit diffProgress(*progress);
    }
    if (m_taskShared) {
        if (auto progress = m_taskShared->take())
            emit taskProgress(*progress);
    }
    if (!m_diffShared && !m_taskShared)
        m_progressTimer->stop();
}

bool CheckpointJobRunner::startTask(CheckpointTask task, bool automatic, TaskBody body)
{
    return startStoreTask(task, automatic,
                          [body = std::move(body)](sb::Store&, sb::SandboxEngine& engine,
                                                   const sb::ProgressCallback& progress) { return body(engine, progress); });
}

bool CheckpointJobRunner::startStoreTask(CheckpointTask task, bool automatic, StoreTaskBody body)
{
    if (!m_storePath || isBusy())
        return false;
    const quint64 id = m_nextId++;
    m_taskId = id;
    m_task = task;
    auto shared = std::make_shared<Shared>();
    m_taskShared = shared;
    m_taskWatcher->disconnect(this);
    connect(m_taskWatcher, &QFutureWatcher<TaskOutcome>::finished, this, [this, id] {
        if (id != m_taskId)
            return;
        m_taskId = 0;
        m_task.reset();
        m_taskShared.reset();
        const auto future = m_taskWatcher->future();
        if (future.resultCount() > 0)
            emit taskFinished(future.result());
    });
    m_progressTimer->start();
    m_taskWatcher->setFuture(QtConcurrent::run(
        &m_pool, [path = *m_storePath, task, automatic, shared, body = std::move(body)](QPromise<TaskOutcome>& promise) {
            TaskOutcome outcome;
            auto opened = openEngine(path);
            if (!opened) {
                outcome.error = toQString(opened.error().message);
            } else {
                const sb::ProgressCallback progress = [shared](const sb::Progress& p) { return shared->report(p); };
                outcome = body(*opened->store, *opened->engine, progress);
                if (!outcome.error.isEmpty() && shared->cancel) {
                    outcome.cancelled = true;
                    outcome.error.clear();
                }
            }
            outcome.task = task;
            outcome.automatic = automatic;
            promise.addResult(std::move(outcome));
        }));
    emit taskStarted(task);
    return true;
}

bool CheckpointJobRunner::createSandbox(sb::CreateSandboxRequest request)
{
    return createSandbox(sb::SandboxCreation{std::move(request), {}, {}, 1.0, 0});
}

bool CheckpointJobRunner::createSandbox(sb::SandboxCreation creation)
{
    return startStoreTask(CheckpointTask::CreateSandbox, false,
                     [creation = std::move(creation)](sb::Store& store, sb::SandboxEngine& engine,
                                                      const sb::ProgressCallback& progress) {
                         TaskOutcome outcome;
                         auto made = sb::createSandbox(store, engine, creation, progress);
                         if (!made) {
                             outcome.error = toQString(made.error().message);
                             return outcome;
                         }
                         outcome.sandbox = toQString(made->sandbox.name);
                         outcome.checkpoint = toQString(made->checkpoint.id);
                         outcome.skipped = skippedTexts(made->skipped);
                         outcome.summary = tr("Sandbox %1 created from %2: %3 files, %4")
                                               .arg(outcome.sandbox,
                                                    toQString(sb::printable(made->sandbox.origin, 120)).left(80),
                                                    QString::number(made->checkpoint.files),
                                                    byteSizeText(made->checkpoint.bytes));
                         return outcome;
                     });
}

bool CheckpointJobRunner::destroySandbox(const QString& name)
{
    return startTask(CheckpointTask::DestroySandbox, false,
                     [name](sb::SandboxEngine& engine, const sb::ProgressCallback&) {
                         TaskOutcome outcome;
                         auto destroyed = engine.destroySandbox(toStdString(name));
                         if (!destroyed) {
                             outcome.error = toQString(destroyed.error().message);
                             return outcome;
                         }
                         outcome.sandbox = toQString(sb::SandboxEngine::kMain);
                         outcome.summary = tr("Sandbox %1 destroyed: %2 checkpoints removed, %3 freed")
                                               .arg(name)
                                               .arg(destroyed->checkpointsRemoved)
                                               .arg(byteSizeText(destroyed->garbage.bytesRemoved));
                         return outcome;
                     });
}

bool CheckpointJobRunner::checkpoint(sb::CheckpointRequest request)
{
    return startTask(CheckpointTask::Checkpoint, false,
                     [request = std::move(request)](sb::SandboxEngine& engine, const sb::ProgressCallback& progress) {
                         TaskOutcome outcome;
                         auto made = engine.checkpoint(request, progress);
                         if (!made) {
                             outcome.error = toQString(made.error().message);
                             return outcome;
                         }
                         outcome.sandbox = toQString(request.sandbox);
                         outcome.checkpoint = toQString(made->checkpoint.id);
                         outcome.skipped = skippedTexts(made->skipped);
                         outcome.summary = tr("Checkpoint %1 of %2: %3 added, %4 modified, %5 removed")
                                               .arg(shortId(made->checkpoint.id), outcome.sandbox)
                                               .arg(made->changes.added)
                                               .arg(made->changes.modified)
                                               .arg(made->changes.removed);
                         return outcome;
                     });
}

bool CheckpointJobRunner::restore(const QString& checkpoint, const QString& sandbox)
{
    return startTask(CheckpointTask::Restore, false,
                     [checkpoint, sandbox](sb::SandboxEngine& engine, const sb::ProgressCallback& progress) {
                         TaskOutcome outcome;
                         auto restored = engine.restore(toStdString(checkpoint), progress, toStdString(sandbox));
                         if (!restored) {
                             outcome.error = toQString(restored.error().message);
                             return outcome;
                         }
                         outcome.sandbox = toQString(restored->sandbox);
                         outcome.checkpoint = toQString(restored->recorded.id);
                         outcome.skipped = skippedTexts(restored->skipped);
                         QString saved;
                         if (restored->saved)
                             saved = tr(" (unsaved changes saved first as %1)").arg(shortId(restored->saved->id));
                         outcome.summary = tr("%1 restored to %2: %3 added, %4 modified, %5 removed%6")
                                               .arg(outcome.sandbox, shortId(restored->restored.id))
                                               .arg(restored->changes.added)
                                               .arg(restored->changes.modified)
                                               .arg(restored->changes.removed)
                                               .arg(saved);
                         return outcome;
                     });
}

bool CheckpointJobRunner::fork(const QString& checkpoint, const QString& newName)
{
    return startTask(CheckpointTask::Fork, false,
                     [checkpoint, newName](sb::SandboxEngine& engine, const sb::ProgressCallback& progress) {
                         TaskOutcome outcome;
                         auto made = engine.fork(toStdString(checkpoint), toStdString(newName), progress);
                         if (!made) {
                             outcome.error = toQString(made.error().message);
                             return outcome;
                         }
                         outcome.sandbox = toQString(made->sandbox.name);
                         outcome.checkpoint = toQString(made->checkpoint.id);
                         outcome.summary = tr("Sandbox %1 forked from checkpoint %2")
                                               .arg(outcome.sandbox, checkpoint.left(10));
                         return outcome;
                     });
}

bool CheckpointJobRunner::sweep(bool automatic)
{
    return startTask(CheckpointTask::Sweep, automatic, [](sb::SandboxEngine& engine, const sb::ProgressCallback&) {
        TaskOutcome outcome;
        auto swept = engine.sweep();
        if (!swept) {
            outcome.error = toQString(swept.error().message);
            return outcome;
        }
        if (swept->destroyed.empty() && swept->archived.empty()) {
            outcome.summary = tr("Sweep: no expired sandboxes");
        } else if (!swept->destroyed.empty()) {
            QStringList names;
            for (const auto& name : swept->destroyed)
                names << toQString(name);
            outcome.summary = tr("Sweep destroyed the expired sandboxes %1 (%2 checkpoints, %3 freed)")
                                  .arg(names.join(QStringLiteral(", ")))
                                  .arg(swept->checkpointsRemoved)
                                  .arg(byteSizeText(swept->garbage.bytesRemoved));
        }
        if (!swept->archived.empty()) {
            QStringList names;
            for (const auto& name : swept->archived)
                names << toQString(name);
            const QString archived = tr("Sweep archived the idle sandboxes %1 (their work is checkpointed; they "
                                        "come back when used)")
                                         .arg(names.join(QStringLiteral(", ")));
            outcome.summary = swept->destroyed.empty() ? archived : outcome.summary + QStringLiteral("; ") + archived;
        }
        return outcome;
    });
}

bool CheckpointJobRunner::seedDemo()
{
    return startTask(CheckpointTask::Demo, false, [](sb::SandboxEngine& engine, const sb::ProgressCallback& progress) {
        TaskOutcome outcome;
        auto seeded = sb::seedDemoSandboxes(engine, progress);
        if (!seeded) {
            outcome.error = toQString(seeded.error().message);
            return outcome;
        }
        QStringList names;
        for (const auto& name : seeded->sandboxes)
            names << toQString(name);
        outcome.sandbox = names.isEmpty() ? QString() : names.constFirst();
        outcome.summary = tr("Demo sandboxes %1 ready with %2 checkpoints")
                              .arg(names.join(QStringLiteral(", ")))
                              .arg(seeded->checkpoints);
        return outcome;
    });
}

bool CheckpointJobRunner::label(const QString& checkpoint, const QString& text)
{
    return startTask(CheckpointTask::Label, false, [checkpoint, text](sb::SandboxEngine& engine, const sb::ProgressCallback&) {
        TaskOutcome outcome;
        auto labelled = engine.setLabel(toStdString(checkpoint), toStdString(text));
        if (!labelled) {
            outcome.error = toQString(labelled.error().message);
            return outcome;
        }
        outcome.sandbox = toQString(labelled->sandbox);
        outcome.checkpoint = toQString(labelled->id);
        outcome.summary = text.isEmpty() ? tr("Checkpoint %1: label cleared").arg(shortId(labelled->id))
                                         : tr("Checkpoint %1 labelled “%2”").arg(shortId(labelled->id), text);
        return outcome;
    });
}

bool CheckpointJobRunner::settings(sb::SandboxSettings settings)
{
    return this->settings(sb::SandboxChange{std::move(settings), {}, {}});
}

bool CheckpointJobRunner::settings(sb::SandboxChange change)
{
    return startStoreTask(CheckpointTask::Settings, false,
                     [change = std::move(change)](sb::Store& store, sb::SandboxEngine& engine,
                                                  const sb::ProgressCallback&) {
                         TaskOutcome outcome;
                         auto changed = sb::changeSandbox(store, engine, change);
                         if (!changed) {
                             outcome.error = toQString(changed.error().message);
                             return outcome;
                         }
                         outcome.sandbox = toQString(changed->name);
                         outcome.summary = tr("Sandbox %1: settings applied").arg(outcome.sandbox);
                         return outcome;
                     });
}

bool CheckpointJobRunner::revive(const QString& sandbox)
{
    return startTask(CheckpointTask::Revive, false, [sandbox](sb::SandboxEngine& engine, const sb::ProgressCallback&) {
        TaskOutcome outcome;
        auto used = engine.use(toStdString(sandbox));
        if (!used) {
            outcome.error = toQString(used.error().message);
            return outcome;
        }
        outcome.sandbox = sandbox;
        outcome.workspace = toQString(used->workspace.string());
        outcome.summary = tr("Sandbox %1 revived: its workspace is back from checkpoint %2")
                              .arg(sandbox, shortId(used->head));
        return outcome;
    });
}

} // namespace sb::ui
