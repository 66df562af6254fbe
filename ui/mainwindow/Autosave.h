#pragma once
// Autosave of the snippet editor's unsaved text, so that a crash loses nothing: a few seconds after a change
// the text, its file and its language are written (atomically, QSaveFile) to the window's own recovery file in
// the application's data folder (QStandardPaths::AppDataLocation, which honours the test mode). A save, a clean
// exit or an editor with nothing unsaved removes it; a later start offers what it holds.
//
// Every window has a file of its own, recovery/snippet-ID.json, and holds recovery/snippet-ID.lock (a QLockFile)
// while it lives, so that windows open at once never overwrite or remove each other's. A recovery file whose lock
// nobody holds (its window crashed or was killed: QLockFile finds a lock of a dead process stale) is an orphan; a
// new window claims the newest orphan by taking its lock, so two windows starting together never offer the same
// one, and releases it unanswered when it closes.

#include "isolation/policy.h"

#include <QFrame>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QLockFile;

namespace sb::ui {

class CodeEditor;

// What the recovery file holds.
struct RecoveredSnippet {
    QString text;
    QString path; // the file the text was opened from or saved to; empty: untitled
    sb::Language language = sb::Language::Python;
};

class Autosave : public QObject {
    Q_OBJECT
public:
    // `currentFile` tells the file the editor's text belongs to when the recovery is written.
    Autosave(CodeEditor* editor, std::function<QString()> currentFile, QObject* parent = nullptr);
    ~Autosave() override;

    // The folder of every window's recovery file: AppDataLocation/recovery.
    static QString recoveryFolder();
    // This window's recovery file.
    QString recoveryPath() const { return m_path; }

    // Claims the newest orphaned recovery file that can be read (its lock taken, so no other window offers it)
    // and returns what it holds; nothing when there is none. Unreadable orphans are left where they are.
    std::optional<RecoveredSnippet> claimOrphan();
    // The claimed orphan's file, empty when none is claimed.
    QString claimedPath() const { return m_claimedPath; }
    // The claimed orphan was restored into the editor (and is written to this window's file at once) or
    // discarded: its file goes.
    void settleClaim();

    // Writes the recovery file at once; false (with errorString()) when it cannot be written.
    bool writeNow();
    // Removes the recovery file: the text is saved, or was discarded on purpose.
    void discard();
    QString errorString() const { return m_error; }
    // The pause after a change before the recovery is written.
    static constexpr int kDelayMs = 2000;

signals:
    // The recovery file could not be written (once per failure streak, not on every change).
    void failed(const QString& message);

private:
    void changed();

    CodeEditor* m_editor;
    std::function<QString()> m_currentFile;
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
    QString m_claimedPath;
    std::unique_ptr<QLockFile> m_claim;
    QTimer m_timer;
    bool m_failing = false;
    QString m_error;
};

// The bar above the editor that offers what the last session left unsaved: it does not block the window.
class RecoveryBar : public QFrame {
    Q_OBJECT
public:
    explicit RecoveryBar(QWidget* parent = nullptr);
    void offer(const RecoveredSnippet& snippet);

signals:
    void restoreRequested();
    void discardRequested();

private:
    QLabel* m_label = nullptr;
};

} // namespace sb::ui
