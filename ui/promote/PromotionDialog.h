#pragma once

#include "ui/jobs/PromotionJobs.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <optional>

class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace sb::ui {

class DiffPane;

// The promotion review dialog: previews promoting a sandbox into a target (main by default) off the GUI
// thread, then shows what would land — source, target and ancestor, the changed files with their diffs
// (unified or side by side; a binary file as its size and checksum), the impact, the decisions each changed
// rule set flips on the sandbox's data, the risk level with its reasons, conflicts (each settled by taking the
// source's or the target's side, or by editing the sandbox and previewing again), the compatibility checks
// and the approval (name and note) the engine requires from the configured risk level on. Promote, Export…
// and Save patch… run the engine again with the same choices, off the GUI thread; the dialog never computes
// anything itself.
class PromotionDialog : public QDialog {
    Q_OBJECT
public:
    // `targets`: the sandboxes the source may be promoted into (the source itself is left out).
    PromotionDialog(std::filesystem::path storePath, const QString& source, const QString& target,
                    const QStringList& targets, QWidget* parent);

    PromotionJobRunner* jobs() const { return m_jobs; }
    const std::optional<sb::PromotionReport>& report() const { return m_report; }

    // A seam for tests and scripts: the next Export…/Save patch… takes this path instead of asking.
    static void setNextPath(const QString& path);

    void reject() override;

signals:
    // The promotion was applied: `checkpoint` is the target's new 'promote' checkpoint.
    void promoted(const QString& target, const QString& checkpoint);
    // Something was written to the store (auto checkpoints of a preview, a promotion): the browser reloads.
    void storeChanged();

private:
    void preview();
    void run(sb::PromotionRequest::Mode mode, const QString& output);
    void onProgress(const JobProgress& progress);
    void onFinished(const PromotionOutcome& outcome);
    void showReport();
    void showConflicts();
    void showRuleImpact();
    void fitScreen();
    int firstReviewableFile() const;
    void onFileSelected();
    void onConflictSelected();
    void updateState();
    void exportFolder();
    void savePatch();
    void askPath(bool folder);
    bool approvalComplete() const;
    QString approvalProblem() const;
    sb::PromotionRequest request(sb::PromotionRequest::Mode mode) const;
    void setStatus(const QString& text, bool error);

    PromotionJobRunner* m_jobs = nullptr;
    QString m_source;
    QComboBox* m_target = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelJob = nullptr;
    QPushButton* m_again = nullptr;
    QLabel* m_risk = nullptr;
    QLabel* m_riskReasons = nullptr;
    QLabel* m_impact = nullptr;
    QLabel* m_ruleImpact = nullptr;
    QGroupBox* m_conflictBox = nullptr;
    QLabel* m_conflictHelp = nullptr;
    QTreeWidget* m_conflicts = nullptr;
    QTreeWidget* m_files = nullptr;
    DiffPane* m_diff = nullptr;
    QTreeWidget* m_checks = nullptr;
    QGroupBox* m_approvalBox = nullptr;
    QLineEdit* m_approvalBy = nullptr;
    QLineEdit* m_approvalNote = nullptr;
    QLabel* m_approvalHint = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_patch = nullptr;
    QPushButton* m_promote = nullptr;
    QPushButton* m_close = nullptr;

    std::optional<sb::PromotionReport> m_report;  // the last preview
    std::vector<QString> m_diffs;                 // its changes' diffs
    std::vector<QString> m_conflictDiffs;         // its conflicts' diffs (target against source)
    QString m_dataName;                           // the data its rule sets were measured on ("": none)
    QString m_dataSource;
    sb::MergeResolutions m_resolutions;           // conflicts settled in the dialog
    sb::PromotionRequest::Mode m_running = sb::PromotionRequest::Mode::Preview;
    bool m_applied = false;
};

} // namespace sb::ui
