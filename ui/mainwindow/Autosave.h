#pragma once
// Autosave of the snippet editor's unsaved text, so that a crash loses nothing: a few seconds after a change
// the text, its file and its language are written (atomically, QSaveFile) to a recovery file in the
// application's data folder (QStandardPaths::AppDataLocation, which honours the test mode). A save, a clean
// exit or an editor with nothing unsaved removes it; the next start offers what it holds.

#include "isolation/policy.h"

#include <QFrame>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <optional>

class QLabel;

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

    // The recovery file: AppDataLocation/recovery/snippet.json.
    static QString recoveryPath();
    // What the recovery file holds, if there is one that can be read.
    static std::optional<RecoveredSnippet> pending();

    // While held, nothing is written (the recovery of the previous session waits for an answer and must not
    // be overwritten by the new one).
    void setHeld(bool held);
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
    QTimer m_timer;
    bool m_held = false;
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
