#pragma once

#include "ui/agents/SessionCompareJobs.h"

#include <QDialog>

#include <filesystem>
#include <optional>

class QLabel;
class QProgressBar;
class QTableView;
class QToolButton;
class QTreeView;

namespace sb::ui {

class JsonTreeModel;
class SessionCompareModel;

// Two agent sessions side by side, steps aligned by index: a replay beside its original (each step as the replay
// ruled it) or any two sessions. The rows that differ are tinted and marked, counted in a summary line, and
// reached with Previous/Next difference; the selected row's two steps show below in full (arguments and result
// as JSON trees, verdict, rule and message). A replay runs and the sessions are read off the GUI thread; while one
// runs the view says so.
class SessionCompare : public QDialog {
    Q_OBJECT
public:
    explicit SessionCompare(QWidget* parent = nullptr);

    void setStorePath(std::optional<std::filesystem::path> path);

    // Replays `sessionId` under `policy` and shows it beside its replay. False: not now (another job runs).
    bool replay(const QString& sessionId, const QString& policy, const QString& sessionLabel);
    // Shows two sessions side by side. False: not now.
    bool compare(const QString& leftId, const QString& rightId);

    SessionCompareRunner* jobs() const { return m_jobs; }
    SessionCompareModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // What the last job gave (the comparison, or its error); empty before the first.
    const SessionCompareResult& result() const { return m_result; }
    QString summaryText() const;
    QString statusText() const;
    // The selected step's details, each side's text (verdict, rule, message).
    QString detailsText(bool left) const;
    bool isBusy() const { return m_jobs->isBusy(); }
    bool isLoadingDetails() const { return m_jobs->isLoadingStepPair(); }

    void nextDifference();
    void previousDifference();
    void selectRow(int row);

signals:
    // A replay was recorded as a new session: the session list reads the store again.
    void sessionRecorded(const QString& sessionId);

private:
    void onStarted(bool replay);
    void onFinished(const SessionCompareResult& result);
    void onStepPairLoaded(const StepPair& pair);
    void onCurrentRowChanged();
    void jumpToDifference(bool forward);
    void setSideLabels();

    SessionCompareRunner* m_jobs = nullptr;
    SessionCompareModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_leftTitle = nullptr;
    QLabel* m_rightTitle = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr; // stops a replay between two steps
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_leftDetails = nullptr;
    QLabel* m_rightDetails = nullptr;
    JsonTreeModel* m_leftTree = nullptr;
    JsonTreeModel* m_rightTree = nullptr;
    QTreeView* m_leftTreeView = nullptr;
    QTreeView* m_rightTreeView = nullptr;
    SessionCompareResult m_result;
    QString m_pending;    // what the running job does, in words
    QString m_doneStatus; // what the last job that succeeded did, in words
};

} // namespace sb::ui
