#pragma once

#include "ui/jobs/CheckpointJobs.h"

#include <QStringList>
#include <QWidget>

#include <filesystem>
#include <optional>

class QAction;
class QBoxLayout;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QSplitter;
class QStackedWidget;
class QTableView;
class QToolBar;
class QToolButton;

namespace sb::ui {

class CheckpointListModel;
class DiffFileModel;
class DiffView;
class SandboxListModel;

// The checkpoint browser: the store's sandboxes, the selected sandbox's checkpoint graph, and the diff of
// one checkpoint against the live workspace or of two checkpoints (Ctrl-click) against each other, with
// New sandbox, Destroy, Open folder, Create checkpoint, Restore, Fork, Label and Sweep; the selected sandbox's
// governance (state, idle time, usage against its quota, policy, datasets) in a line under the list. Every engine call runs in
// CheckpointJobRunner off the GUI thread; dialogs open window-modal without a nested event loop.
class CheckpointBrowser : public QWidget {
    Q_OBJECT
public:
    explicit CheckpointBrowser(QWidget* parent = nullptr);

    // Where the store is; std::nullopt when it could not be opened (the browser then stays empty).
    void setStorePath(std::optional<std::filesystem::path> path);
    // Reads sandboxes and checkpoints again and redoes the diff shown.
    void reload();
    // The store was written by someone else (StoreFollower): reads sandboxes and checkpoints again, keeping the
    // selection and scroll; a diff against the live workspace is redone, one between two checkpoints (which never
    // change) is kept.
    void follow();
    // Destroys expired sandboxes and archives idle ones in the background; `automatic` for the sweep at start.
    void sweep(bool automatic);
    // The demo's sandboxes (core/demo/demo_sandboxes.h), made in the background (after the task that runs, if one
    // does).
    void seedDemo();

    CheckpointJobRunner* jobs() const { return m_jobs; }
    QString currentSandbox() const { return m_sandbox; }
    // The store's sandboxes as last read (reset on every reading).
    SandboxListModel* sandboxModel() const { return m_sandboxModel; }
    // Selects a sandbox by name (when it is listed) and shows its checkpoints.
    bool selectSandbox(const QString& name);
    // Selects these checkpoints of the current sandbox (one or two), which starts their diff.
    bool selectCheckpoints(const QStringList& ids);
    // Selects a sandbox and, once its checkpoints are read, the checkpoint `id` (false: no such sandbox).
    bool showCheckpoint(const QString& sandbox, const QString& id);
    QString shownDiffText() const;

    QAction* newSandboxAction() const { return m_newSandbox; }
    QAction* sweepAction() const { return m_sweep; }
    QAction* promoteAction() const { return m_promote; }
    QAction* labelAction() const { return m_label; }
    QAction* settingsAction() const { return m_settings; }
    // Opens the promotion review dialog for the current sandbox (into main, or `target`).
    void promote(const QString& target = QStringLiteral("main"));

protected:
    void resizeEvent(QResizeEvent* event) override;

signals:
    // For the window's status bar.
    void statusMessage(const QString& text, int timeoutMs);
    // A task changed the store (and appended to its audit log).
    void storeChanged();

private:
    // The constructor's steps, in the order it calls them.
    void createActions();
    void setUpToolBar();
    QBoxLayout* buildTopRow();
    void setUpSandboxView();
    void setUpCheckpointView();
    void setUpDiffViews();
    void layOutPanes(QBoxLayout* top);
    void connectSignals();

    void onSandboxesLoaded(const SandboxesSnapshot& snapshot);
    void onCheckpointsLoaded(const CheckpointsSnapshot& snapshot);
    void onSandboxSelected();
    void onCheckpointsSelected();
    void onDiffReady(const DiffSnapshot& snapshot);
    void onFileSelected();
    void onTaskStarted(CheckpointTask task);
    void onTaskProgress(const JobProgress& progress);
    void onDiffProgress(const JobProgress& progress);
    void onTaskFinished(const TaskOutcome& outcome);

    void newSandbox();
    void destroySandbox();
    void openFolder();
    void createCheckpoint();
    void restoreCheckpoint();
    void forkCheckpoint();
    void labelCheckpoint();
    void editSettings();
    void cancel();
    bool started(bool started);

    QStringList selectedCheckpoints() const; // newest first
    const sb::SandboxInfo* currentSandboxInfo() const;
    QString checkpointText(const QString& id) const;
    void startDiff();
    void clearDiff(const QString& message);
    void showMessage(const QString& text);
    void showProgress(const JobProgress& progress, bool cancellable);
    void updateActions();

    CheckpointJobRunner* m_jobs = nullptr;
    SandboxListModel* m_sandboxModel = nullptr;
    CheckpointListModel* m_checkpointModel = nullptr;
    DiffFileModel* m_fileModel = nullptr;

    QToolBar* m_toolBar = nullptr;        // the sandboxes: make, destroy, open, settings, sweep, refresh
    QToolBar* m_checkpointBar = nullptr;  // the selected checkpoint: checkpoint, restore, fork, label, promote
    QSplitter* m_split = nullptr;
    QSplitter* m_left = nullptr;
    QSplitter* m_right = nullptr;
    QTableView* m_sandboxView = nullptr;
    QLabel* m_sandboxDetails = nullptr;
    QTableView* m_checkpointView = nullptr;
    QLabel* m_diffSummary = nullptr;
    QTableView* m_fileView = nullptr;
    QStackedWidget* m_diffStack = nullptr;
    DiffView* m_diffView = nullptr;
    QLabel* m_diffMessage = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QToolButton* m_cancel = nullptr;

    QAction* m_newSandbox = nullptr;
    QAction* m_destroy = nullptr;
    QAction* m_openFolder = nullptr;
    QAction* m_checkpoint = nullptr;
    QAction* m_restore = nullptr;
    QAction* m_fork = nullptr;
    QAction* m_label = nullptr;
    QAction* m_settings = nullptr;
    QAction* m_sweep = nullptr;
    QAction* m_promote = nullptr;
    QAction* m_refresh = nullptr;

    QString m_sandbox;                 // the sandbox shown
    QString m_selectAfterLoad;         // a sandbox to select when the list comes back
    QStringList m_checkpointsToSelect; // checkpoints to select again when the list comes back
    QString m_diffFrom;                // the diff asked for last
    QString m_diffTo;
    QString m_fileToSelect;            // the changed path to show again after a reload
    bool m_storeUsable = false;
    bool m_following = false;          // the read under way is follow()'s
    bool m_laidOut = false;            // the splitters got their first sizes
};

} // namespace sb::ui
