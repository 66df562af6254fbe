#pragma once

#include "ui/jobs/AuditJobs.h"

#include <QWidget>

#include <filesystem>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTimer;
class QToolButton;

namespace sb::ui {

class AuditLogModel;

// The audit log in the window: filters (operation, actor, text), the entries, and Verify, which walks the
// hash chain off the GUI thread with progress and Cancel and then marks the first broken entry.
class AuditView : public QWidget {
    Q_OBJECT
public:
    explicit AuditView(QWidget* parent = nullptr);

    // Where the log is read; std::nullopt when the store could not be opened.
    void setStorePath(std::optional<std::filesystem::path> path);
    // The store was written (a run was recorded): reload, and forget a verification that is now out of date.
    void storeChanged();
    // Reloads with the current filters.
    void reload();

    AuditJobRunner* jobs() const { return m_jobs; }
    AuditLogModel* model() const { return m_model; }

private:
    void onLoaded(const AuditSnapshot& snapshot);
    void onVerifyProgress(qint64 done, qint64 total);
    void onVerified(const AuditCheck& check, bool cancelled);
    void startVerify();
    void setVerifying(bool verifying);
    void showVerdict(const QString& text, const QString& colour);
    void updateCount();
    static void refillCombo(QComboBox* combo, const QString& all, const std::vector<std::string>& values);

    AuditJobRunner* m_jobs = nullptr;
    AuditLogModel* m_model = nullptr;
    QComboBox* m_operation = nullptr;
    QComboBox* m_actor = nullptr;
    QLineEdit* m_text = nullptr;
    QToolButton* m_refresh = nullptr;
    QLabel* m_count = nullptr;
    QTableView* m_table = nullptr;
    QPushButton* m_verify = nullptr;
    QToolButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_verdict = nullptr;
    QTimer* m_textDelay = nullptr;
    bool m_limited = false;
};

} // namespace sb::ui
