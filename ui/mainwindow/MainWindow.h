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
class QToolBar;
class QToolButton;

namespace sb::ui {

class AgentWorkspace;
class Autosave;
class FindBar;
class RecoveryBar;
class DocsBrowser;
class IsolationStatus;
class WorkspaceModes;
class AuditView;
class CheckpointBrowser;
class ClusterJobsPanel;
class CodeEditor;
class DemoTour;
class LivePanes;
class MetricsDashboard;
class OutputPane;
class RulesWorkspace;
class RunHistoryModel;
class SnapshotReader;
class StoreFollower;

// The workbench window: one workspace per kind of work (snippets, rules, agents, checkpoints, audit, dashboard),
// chosen on the bar at its left, each using the whole window; the sandbox and the policy of the next run are
// chosen in the toolbar, and the status bar sums up the isolation it gets.
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
    FindBar* findBar() const { return m_findBar; }
    Autosave* autosave() const { return m_autosave; }
    // Opens a file dropped on the window where it belongs (DroppedFile); false, with a message, when it cannot.
    bool openDroppedFile(const QString& path);
    JobRunner* jobs() const { return m_jobs; }
    CheckpointBrowser* checkpointBrowser() const { return m_checkpointBrowser; }
    RulesWorkspace* rulesWorkspace() const { return m_rulesWorkspace; }
    AgentWorkspace* agentWorkspace() const { return m_agentWorkspace; }
    ClusterJobsPanel* clusterJobs() const { return m_clusterJobs; }
    WorkspaceModes* workspaces() const { return m_modes; }
    // Each shows its workspace.
    void showSnippets();
    void showCheckpoints();
    void showRules();
    void showAgents();
    void showAudit();
    void showDashboard();
    // What other processes write to the store shows in the panes (StoreFollower, LivePanes).
    StoreFollower* storeFollower() const { return m_follower; }
    LivePanes* livePanes() const { return m_live; }

    // The sandbox the next run works in ("": a fresh folder of its own), as the toolbar has it.
    QString currentSandbox() const;
    // Chooses the sandbox of the next runs; false when the store has no sandbox of that name.
    bool setCurrentSandbox(const QString& name);
    // The policy of the next run: a preset's name or a file's path ("": the default, or the sandbox's own).
    QString currentPolicy() const;

    QTableView* historyView() const { return m_historyView; }
    // The run at `index` of the history view: its snippet in the editor, its result in the output.
    void loadHistoryRow(const QModelIndex& index);

    // Demo mode (sandbench-gui --demo, ui/demo): the window works on a demo store and its title says so.
    void markDemoStore();
    bool isDemoStore() const { return m_demoStore; }
    // Fills the demo store: the demo's cases and its agent session (as Demo does), its sandboxes with their
    // checkpoints, the rules demo compared; then offers Play demo.
    void seedDemoStore();
    // Ends the window's work as a close does, without asking anything (a SIGTERM: a logout, a kill): jobs
    // cancelled, the layout saved, and what is unsaved left in the recovery file for the next start.
    void endWithoutAsking();
    DemoTour* demoTour() const { return m_tour; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    // Files dropped on the editor open as on the window, rather than their paths going into the text.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // What a close and endWithoutAsking() both do: the walk, the store's follower, jobs and the agent worker
    // stopped, the layout saved.
    void shutDown();
    void createActions();
    void createMenus();
    void createToolBar();
    void createDocks();
    void createWorkspaces();
    void createStatusBar();
    // The sandbox chooser's entries: none, then the store's sandboxes (the current one kept when it is there).
    void fillSandboxes();
    void addPolicyFile(const QString& path);
    void choosePolicyFile();
    void onPolicyChosen();
    // The panes that read the store again when another connection wrote to it.
    void createLivePanes();
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
    // What an audit entry is about, shown where the window keeps it (AuditView::openRequested).
    void openAuditSubject(const QString& kind, const QString& id, const QString& sandbox);
    void setLanguage(sb::Language language);
    // Autosave of the editor, and the offer of what the last session left unsaved.
    void setUpRecovery();
    void showSettings();
    // The find bar of the editor with the focus: a rule set's when one has it, else the snippet's.
    FindBar* activeFindBar() const;

    // A new sandbench-gui on a demo store of its own; this window and its store stay as they are.
    void openDemoStore();
    // Play demo: the walk through a demo store; in a window on the person's own store, a demo store opens first.
    void playDemo();
    void about();
    // Help ▸ Documentation, at `path` of the built-in documentation when one is named ("docs/SCALING.md").
    void showDocumentation(const QString& path = {});
    void updateTitle();

    sb::StoreLocation m_store;
    QWidget* m_central = nullptr;
    WorkspaceModes* m_modes = nullptr;
    bool m_storeUsable = false;
    QString m_currentFile;
    bool m_demoRunning = false;
    bool m_runAwaitingOutcome = false; // a snippet's run shown as running, its outcome not in yet
    int m_demoUnexpected = 0;
    bool m_demoStore = false;
    bool m_seedingDemoStore = false;
    DemoTour* m_tour = nullptr;

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
    ClusterJobsPanel* m_clusterJobs = nullptr;
    QTableView* m_historyView = nullptr;
    QComboBox* m_languageCombo = nullptr;
    QSpinBox* m_timeoutSpin = nullptr;
    QSpinBox* m_memorySpin = nullptr;
    QComboBox* m_levelCombo = nullptr;
    QComboBox* m_sandboxCombo = nullptr;
    QComboBox* m_policyCombo = nullptr;
    IsolationStatus* m_isolationStatus = nullptr;
    QLabel* m_storeBanner = nullptr;
    QToolBar* m_storeBannerBar = nullptr;
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
    QAction* m_openDemoStoreAction = nullptr;
    QAction* m_playDemoAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_docsAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    DocsBrowser* m_docs = nullptr;
    QAction* m_findAction = nullptr;
    QAction* m_replaceAction = nullptr;
    QAction* m_findNextAction = nullptr;
    QAction* m_findPreviousAction = nullptr;
    QAction* m_settingsAction = nullptr;
    FindBar* m_findBar = nullptr;
    Autosave* m_autosave = nullptr;
    RecoveryBar* m_recoveryBar = nullptr;
    QAction* m_checkpointsAction = nullptr;
    QAction* m_rulesAction = nullptr;
    QAction* m_agentsAction = nullptr;
    QAction* m_snippetsAction = nullptr;
    QAction* m_auditAction = nullptr;
    QAction* m_dashboardAction = nullptr;
    QAction* m_resetLayoutAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace sb::ui
