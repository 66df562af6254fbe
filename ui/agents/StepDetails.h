#pragma once

#include "ui/agents/SessionJobs.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeView;

namespace sb::ui {

class CheckpointJobRunner;
class DiffFileModel;
class DiffView;
class JsonTreeModel;
struct DiffSnapshot;

// One step in full: what decided its verdict (rule and message), reasoning, cost so far against the policy's
// max_cost; its arguments and result as JSON trees to fold; the raw JSON-RPC frames; and the workspace diff the
// step caused, between the checkpoints around it, in the checkpoint browser's diff view.
class StepDetails : public QWidget {
    Q_OBJECT
public:
    explicit StepDetails(QWidget* parent = nullptr);

    void setStorePath(std::optional<std::filesystem::path> path);
    void clear(const QString& message);
    // `costSoFar`: the session's cost up to and including this step.
    void showStep(const StepDetail& detail, double costSoFar);

    // What is shown, for tests and the status bar.
    QString summaryText() const;
    QString diffText() const;
    bool isDiffing() const;
    QTabWidget* tabs() const { return m_tabs; }

private:
    void onDiffReady(const DiffSnapshot& snapshot);
    void showFile(int row);
    void showDiffMessage(const QString& message);

    CheckpointJobRunner* m_diffJobs = nullptr;
    QLabel* m_summary = nullptr;
    QTabWidget* m_tabs = nullptr;
    JsonTreeModel* m_arguments = nullptr;
    JsonTreeModel* m_result = nullptr;
    QTreeView* m_argumentsView = nullptr;
    QTreeView* m_resultView = nullptr;
    QPlainTextEdit* m_frames = nullptr;
    QLabel* m_diffSummary = nullptr;
    DiffFileModel* m_files = nullptr;
    QTableView* m_fileView = nullptr;
    QStackedWidget* m_diffStack = nullptr;
    DiffView* m_diffView = nullptr;
    QLabel* m_diffMessage = nullptr;
    QString m_diffFrom;
    QString m_diffTo;
};

} // namespace sb::ui
