#include "ui/agents/AgentLaunchJob.h"

#include "agents/agent_session.h"
#include "agents/worked_example_session.h"
#include "isolation/runner.h"
#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "ui/models/Conversions.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <string>
#include <vector>

namespace sb::ui {

namespace {

std::vector<std::string> toStdStrings(const QStringList& list)
{
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(list.size()));
    for (const QString& item : list)
        out.push_back(toStdString(item));
    return out;
}

// The worker: touches nothing of the job but what it was given; `started` and `log` post to the GUI thread.
AgentLaunchOutcome runLaunch(const std::filesystem::path& storePath, const AgentLaunch& launch,
                             const std::shared_ptr<std::atomic<bool>>& stop,
                             const std::function<void(const sb::agents::SessionInfo&)>& started,
                             const std::function<void(std::string_view)>& log)
{
    AgentLaunchOutcome outcome;
    auto store = sb::Store::open(storePath);
    if (!store) {
        outcome.error = toQString(store.error().message);
        return outcome;
    }
    const sb::Runner runner;
    sb::Result<sb::agents::AgentSessionResult> run = std::unexpected(sb::Error{});
    if (launch.agent == AgentLaunch::Agent::WorkedExample) {
        sb::agents::WorkedExampleRequest request;
        request.log = log;
        request.started = started;
        request.stop = stop.get();
        request.stepMode = launch.stepMode;
        request.policy = toStdString(launch.policy);
        auto example = sb::agents::runWorkedExample(*store, runner, request);
        if (example)
            run = std::move(example->run);
        else
            run = std::unexpected(example.error());
    } else {
        sb::agents::AgentSessionRequest request;
        request.agentCommand = toStdStrings(launch.command);
        request.readPaths = toStdStrings(launch.readPaths);
        request.policy = toStdString(launch.policy);
        request.sandbox = toStdString(launch.sandbox);
        request.stepMode = launch.stepMode;
        request.log = log;
        request.started = started;
        request.stop = stop.get();
        run = sb::agents::runAgentSession(*store, runner, request);
    }
    outcome.stopped = stop->load();
    if (run)
        outcome.session = std::move(run->session);
    else
        outcome.error = toQString(run.error().message);
    return outcome;
}

SandboxNames readSandboxNames(const std::filesystem::path& storePath)
{
    SandboxNames out;
    auto store = sb::Store::open(storePath);
    if (!store) {
        out.error = toQString(store.error().message);
        return out;
    }
    auto engine = sb::SandboxEngine::open(*store);
    if (!engine) {
        out.error = toQString(engine.error().message);
        return out;
    }
    auto list = (*engine)->sandboxes();
    if (!list) {
        out.error = toQString(list.error().message);
        return out;
    }
    for (const auto& sandbox : *list)
        out.names << toQString(sandbox.name);
    out.names.sort();
    return out;
}

} // namespace

AgentLaunchJob::AgentLaunchJob(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFutureWatcher<AgentLaunchOutcome>(this))
    , m_sandboxWatcher(new QFutureWatcher<SandboxNames>(this))
{
    m_pool.setMaxThreadCount(2); // the session and a sandbox listing beside it
    connect(m_watcher, &QFutureWatcher<AgentLaunchOutcome>::finished, this, [this] {
        m_running = false;
        m_sessionId.clear();
        const auto future = m_watcher->future();
        AgentLaunchOutcome outcome;
        if (future.resultCount() > 0)
            outcome = future.result();
        else
            outcome.error = tr("the launch ended without an outcome");
        emit finished(outcome);
    });
    connect(m_sandboxWatcher, &QFutureWatcher<SandboxNames>::finished, this, [this] {
        const auto future = m_sandboxWatcher->future();
        if (future.resultCount() > 0)
            emit sandboxesLoaded(future.result());
    });
}

AgentLaunchJob::~AgentLaunchJob()
{
    if (m_stop)
        m_stop->store(true);
    m_watcher->disconnect(this);
    m_sandboxWatcher->disconnect(this);
    m_pool.waitForDone();
}

void AgentLaunchJob::setStorePath(std::optional<std::filesystem::path> path)
{
    m_storePath = std::move(path);
}

bool AgentLaunchJob::launch(const AgentLaunch& launch)
{
    if (m_running || !m_storePath)
        return false;
    m_running = true;
    m_sessionId.clear();
    m_stop = std::make_shared<std::atomic<bool>>(false);
    // Posted to this object: delivered on the GUI thread, and dropped if the job is gone (it waits for the worker).
    const QPointer<AgentLaunchJob> self(this);
    auto started = [self](const sb::agents::SessionInfo& session) {
        const QString id = toQString(session.id);
        QMetaObject::invokeMethod(
            self.data(),
            [self, id] {
                if (!self || !self->m_running)
                    return;
                self->m_sessionId = id;
                emit self->sessionStarted(id);
            },
            Qt::QueuedConnection);
    };
    auto log = [self](std::string_view line) {
        const QString text = toQString(std::string(line));
        QMetaObject::invokeMethod(
            self.data(),
            [self, text] {
                if (self)
                    emit self->logLine(text);
            },
            Qt::QueuedConnection);
    };
    m_watcher->setFuture(QtConcurrent::run(&m_pool, [path = *m_storePath, launch, stop = m_stop, started, log] {
        return runLaunch(path, launch, stop, started, log);
    }));
    return true;
}

void AgentLaunchJob::stop()
{
    if (m_running && m_stop)
        m_stop->store(true);
}

void AgentLaunchJob::loadSandboxes()
{
    if (!m_storePath) {
        emit sandboxesLoaded(SandboxNames{.error = tr("the store is not open")});
        return;
    }
    if (m_sandboxWatcher->isRunning())
        return;
    m_sandboxWatcher->setFuture(QtConcurrent::run(&m_pool, [path = *m_storePath] { return readSandboxNames(path); }));
}

} // namespace sb::ui
