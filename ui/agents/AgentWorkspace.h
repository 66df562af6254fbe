#pragma once

#include "ui/agents/SessionJobs.h"

#include <QWidget>

#include <filesystem>
#include <optional>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;
class QToolButton;

namespace sb::ui {

class AgentLauncher;
class AgentTimeline;
class SessionCompare;
class SessionControlBar;
class SessionListModel;
class StepDetails;
class StepListModel;

// The agent workspace: the store's agent sessions; the open one's steps as a timeline and a list kept in step
// (one selection), the selected step's details, search within the session, and export as JSON Lines or an HTML
// report. A session still running is followed while the panel shows: its new steps are read off the GUI thread
// every half second.
class AgentWorkspace : public QWidget {
    Q_OBJECT
public:
    static constexpr int kPollMs = 500;

    explicit AgentWorkspace(QWidget* parent = nullptr);

    void setStorePath(std::optional<std::filesystem::path> path);
    // Reads the sessions again (and goes on reading the open one).
    void refresh();
    // Opens the session with this id (it must be in the list).
    bool openSession(const QString& sessionId);
    QString sessionId() const { return m_sessionId; }
    // Selects step `index` (1 ...) in the list and the timeline.
    void selectStep(std::int64_t index);

    // Searches the open session; empty text clears the search.
    void search(const QString& text);
    void nextMatch();
    void previousMatch();

    // A new sandbox `name` from the open session's workspace before step `step`, or the session's sandbox rewound
    // there (the context menu asks for the name or a confirmation first). False: not now (no session, a task runs).
    bool forkAtStep(std::int64_t step, const QString& name);
    bool rewindToStep(std::int64_t step);

    // Writes the open session to `path` (the actions ask for it with a file dialog). False: nothing to export.
    bool exportSession(const QString& path, SessionExportFormat format);

    SessionListModel* sessionModel() const { return m_sessions; }
    StepListModel* stepModel() const { return m_steps; }
    QTableView* stepView() const { return m_stepView; }
    AgentTimeline* timeline() const { return m_timeline; }
    StepDetails* details() const { return m_details; }
    SessionControlBar* controlBar() const { return m_control; }
    SessionJobRunner* jobs() const { return m_jobs; }
    AgentLauncher* launcher() const { return m_launcher; }
    // Replay and compare (AgentWorkspaceCompare.cpp). The session `sessionId` replayed under `policy` (a preset's
    // name or a policy file), then shown beside its replay; two sessions side by side. The actions ask for the
    // policy or the other session first. False: not now (no store, a replay or comparison runs).
    bool replaySession(const QString& sessionId, const QString& policy);
    bool compareSessions(const QString& leftId, const QString& rightId);
    void askReplay(const QString& sessionId);
    void askCompare(const QString& sessionId);
    // The compare view, once a replay or a comparison opened it; else nullptr.
    SessionCompare* compareView() const { return m_compare; }

    // Whether the open session's steps are all read (the latest load finished).
    bool isLoaded() const { return !m_jobs->isLoadingSteps(); }

signals:
    void statusMessage(const QString& text, int timeoutMs);
    void exportFinished(const QString& path, const QString& error);
    // A sandbox or checkpoint was made (fork, rewind): the checkpoint browser reads the store again.
    void storeChanged();
    void workspaceTaskFinished(const sb::ui::SessionWorkspaceTask& outcome);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildLayout();
    void onSessionsLoaded(const SessionsSnapshot& snapshot);
    void onStepsLoaded(const StepBatch& batch);
    void onStepLoaded(const StepDetail& detail);
    void onSearched(const StepSearch& search);
    void onExported(const SessionExport& outcome);
    void onCurrentStepChanged();
    void onSessionSelected();
    void poll();
    void updateHeader();
    void jumpToMatch(bool forward);
    void askExport(SessionExportFormat format);
    void showStepMenu(const QPoint& globalPos, int row);
    void askFork(std::int64_t step);
    void askRewind(std::int64_t step);
    void onWorkspaceChanged(const SessionWorkspaceTask& outcome);
    void buildCompareActions(QHBoxLayout* bar);
    void showSessionMenu(const QPoint& globalPos, int row);
    SessionCompare* openCompareView();

    SessionJobRunner* m_jobs = nullptr;
    SessionListModel* m_sessions = nullptr;
    StepListModel* m_steps = nullptr;
    QTableView* m_sessionView = nullptr;
    QTableView* m_stepView = nullptr;
    AgentTimeline* m_timeline = nullptr;
    StepDetails* m_details = nullptr;
    QLabel* m_header = nullptr;
    SessionControlBar* m_control = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_searchStatus = nullptr;
    QToolButton* m_export = nullptr;
    QToolButton* m_replay = nullptr;
    SessionCompare* m_compare = nullptr;
    QTimer* m_poll = nullptr;
    QTimer* m_searchDelay = nullptr;
    AgentLauncher* m_launcher = nullptr;
    QString m_launchedId; // a launched session to open once the list holds it
    std::optional<std::filesystem::path> m_storePath;
    QString m_sessionId;
    std::optional<sb::agents::SessionInfo> m_session;
    int m_pollTicks = 0;
};

} // namespace sb::ui
