#pragma once

#include "ui/jobs/AuditJobs.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace sb::ui {

// One audit entry in full beside the table: every field, its details as indented JSON, its hash and the
// previous one (selectable, to be copied), why it breaks the chain when it does, and a button that opens
// what it is about (the run, checkpoint, session or sandbox) in the window.
class AuditEntryPane : public QWidget {
    Q_OBJECT
public:
    explicit AuditEntryPane(QWidget* parent = nullptr);

    // The entry to show (nullptr: none selected). `breaks`: why verification named it ("" when it did not).
    void showEntry(const AuditRow* row, const QString& breaks = {});
    QString text() const; // what the pane shows, as plain text

    // "run", "checkpoint", "session" or "sandbox": what openRequested names; "" for other subjects.
    static QString targetKind(sb::AuditSubjectKind kind);

signals:
    // Open this subject in the window. `sandbox`: a checkpoint's sandbox ("" for other kinds).
    void openRequested(const QString& kind, const QString& id, const QString& sandbox);

private:
    QLabel* m_title = nullptr;
    QPushButton* m_open = nullptr;
    QTextBrowser* m_text = nullptr;
    QString m_kind;
    QString m_id;
    QString m_sandbox;
};

} // namespace sb::ui
