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
class QSplitter;
class QTableView;
class QTimer;
class QToolButton;

namespace sb::ui {

class AuditEntryPane;
class AuditLogModel;

// The audit log in the window: filters (action or family of actions, actor, text), the entries newest first
// (read a page at a time as the table scrolls), the selected entry in full beside them, Export of the
// matching entries, and Verify, which walks the hash chain off the GUI thread with progress and Cancel and
// then selects the first broken entry.
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
    // The store was written by someone else (StoreFollower): reloads keeping the entry selected and the rows in
    // view where they are (at the top, the newest show); a verification is out of date when entries were added.
    void follow();
    // Writes the entries matching the filters to `file` in the background (exportFinished tells the end).
    bool exportTo(const QString& file, sb::AuditExportFormat format);

    AuditJobRunner* jobs() const { return m_jobs; }
    AuditLogModel* model() const { return m_model; }
    AuditEntryPane* entryPane() const { return m_pane; }
    // The last verdict as plain text (the label may hold a link).
    QString verdictText() const { return m_verdictText; }

signals:
    // Open this subject in the window: kind "run", "checkpoint", "session" or "sandbox"; `sandbox` is a
    // checkpoint's sandbox.
    void openRequested(const QString& kind, const QString& id, const QString& sandbox);
    void exportFinished(const QString& file, qint64 entries, const QString& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitColumns();
    sb::AuditFilter currentFilter() const;
    void onLoaded(const AuditSnapshot& snapshot);
    void onVerifyProgress(qint64 done, qint64 total);
    void onVerified(const AuditCheck& check, bool cancelled);
    void onExported(const AuditExportDone& done);
    void startVerify();
    void askExport(sb::AuditExportFormat format);
    void setVerifying(bool verifying);
    void setExporting(bool exporting);
    void showVerdict(const QString& text, const QString& colour, const QString& plain = {});
    void showSelected();
    void selectSeq(std::int64_t seq);
    void updateCount();
    void markVerdictOutOfDate();
    // The entry at the top of the table when it is scrolled down; none at the top.
    std::optional<std::int64_t> topSeqScrolled() const;
    static void refillOperations(QComboBox* combo, const QString& all, const std::vector<std::string>& values);
    static void refillCombo(QComboBox* combo, const QString& all, const std::vector<std::string>& values);

    AuditJobRunner* m_jobs = nullptr;
    AuditLogModel* m_model = nullptr;
    QComboBox* m_operation = nullptr;
    QComboBox* m_actor = nullptr;
    QLineEdit* m_text = nullptr;
    QToolButton* m_refresh = nullptr;
    QLabel* m_count = nullptr;
    QSplitter* m_split = nullptr;
    QTableView* m_table = nullptr;
    AuditEntryPane* m_pane = nullptr;
    QToolButton* m_export = nullptr;
    QProgressBar* m_exportProgress = nullptr;
    QToolButton* m_exportCancel = nullptr;
    QPushButton* m_verify = nullptr;
    QToolButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_verdict = nullptr;
    QTimer* m_textDelay = nullptr;
    QString m_verdictText;
    QString m_breakMessage;                  // why the broken entry breaks the chain
    std::optional<std::int64_t> m_selectSeq; // an entry to select once its page is read
    bool m_following = false;                // the load under way is follow()'s
};

} // namespace sb::ui
