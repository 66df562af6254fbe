#pragma once

#include "isolation/policy.h"
#include "ui/jobs/RunJob.h"

#include <QMainWindow>
#include <QString>

#include <filesystem>
#include <optional>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QSpinBox;
class QTableView;
class QToolButton;

namespace sb::ui {

class AgentWorkspace;
class DocsBrowser;
class AuditView;
class CheckpointBrowser;
class CodeEditor;
class LivePanes;
class MetricsDashboard;
class OutputPane;
class RulesWorkspace;
class RunHistoryModel;
class SnapshotReader;
class StoreFollower;

// The workbench window: editor in the centre, run console below it, history, audit log, metrics and the
// checkpoint browser in docks.
// It assembles widgets and routes values between them; the work happens in JobRunner and core.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The store at `store` (see sb::StoreLocation: only the default location gets its folders made).
    explicit MainWindow(sb::StoreLocation store, QWidget* parent = nullptr);
    // The store at a path a person named: its folder must exist.
    explicit MainWindow(const std::filesystem::path& storePath, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens the store and shows what it holds. On failure the window stays usable for editing, runs
    // are not recorded, the file is left untouched, and the error is returned for the caller to show.
    std::optional<QString> openStore();

    bool openFile(const QString& path);
    bool saveFile(const QString& path);

    CodeEditor* editor() const { return m_editor; }
    JobRunner* jobs() const { return m_jobs; }
    CheckpointBrowser* checkpointBrowser() const { return m_checkpointBrowser; }
    // Shows the checkpoint browser's dock in front, with room for its diff.
    void showCheckpoints();
    RulesWorkspace* rulesWorkspace() const { return m_rulesWorkspace; }
    // Shows the rules workspace's dock in front, wide enough for an editor beside the charts.
    void showRules();
    AgentWorkspace* agentWorkspace() const { return m_agentWorkspace; }
    // What other processes write to the store shows in the panes (StoreFollower, LivePanes).
    StoreFollower* storeFollower() const { return m_follower; }
    LivePanes* livePanes() const { return m_live; }
    // Shows the agent workspace's dock in front, wide enough for the step list beside a step's details.
    void showAgents();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createDocks();
    // The panes that read the store again when another connection wrote to it.
    void createLivePanes();
    // Shows and raises the dock named `name`, as wide as a workspace may be (rightColumnWidth).
    void showWideDock(const QString& name);
    // The width of the right dock column in a window `windowWidth` wide: a workspace's, or the metrics'.
    static int rightColumnWidth(int windowWidth, bool workspace);
    // Marks the editor's lines that imported what the sandbox blocked in `result`.
    void markBlockedImports(const sb::RunRequest& request, const sb::RunResult& result);
    void restoreSettings();
    void saveSettings() const;

    // What the toolbar asks of a run's policy: its isolation level and limits.
    sb::RunPolicyRequest askedPolicy() const;
    void runSnippet();
    void runDemo();
    void cancelJob();
    void setBusy(bool busy);

    void onRunStarted(const RunEvent& event);
    void onRunFinished(const RunEvent& event);
    void onJobFinished(quint64 jobId, bool cancelled);
    void applySnapshot(const StoreSnapshot& snapshot);
    void showStoreError(const QString& message);

    void newFile();
    void openFileDialog();
    bool save();
    bool saveAs();
    bool maybeSave();
    void setCurrentFile(const QString& path);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void loadHistoryRow(const QModelIndex& index);
    // What an audit entry is about, shown where the window keeps it (AuditView::openRequested).
    void openAuditSubject(const QString& kind, const QString& id, const QString& sandbox);
    void setLanguage(sb::Language language);
    void about();
    void showDocumentation();
    void updateTitle();

    sb::StoreLocation m_store;
    bool m_storeUsable = false;
    QString m_currentFile;
    bool m_demoRunning = false;
    int m_demoUnexpected = 0;

    JobRunner* m_jobs = nullptr;
    RunHistoryModel* m_historyModel = nullptr;
    StoreFollower* m_follower = nullptr;
    SnapshotReader* m_snapshots = nullptr;
    LivePanes* m_live = nullptr;

    CodeEditor* m_editor = nullptr;
    OutputPane* m_output = nullptr;
    MetricsDashboard* m_dashboard = nullptr;
    AuditView* m_auditView = nullptr;
    CheckpointBrowser* m_checkpointBrowser = nullptr;
    RulesWorkspace* m_rulesWorkspace = nullptr;
    AgentWorkspace* m_agentWorkspace = nullptr;
    QTableView* m_historyView = nullptr;
    QComboBox* m_languageCombo = nullptr;
    QSpinBox* m_timeoutSpin = nullptr;
    QSpinBox* m_memorySpin = nullptr;
    QComboBox* m_levelCombo = nullptr;
    QLabel* m_storeBanner = nullptr;
    QLabel* m_statusLabel = nullptr;
    QLabel* m_storeLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_statusCancel = nullptr;

    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_demoAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_docsAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    DocsBrowser* m_docs = nullptr;
    QAction* m_checkpointsAction = nullptr;
    QAction* m_rulesAction = nullptr;
    QAction* m_agentsAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace sb::ui
