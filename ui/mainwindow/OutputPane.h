#pragma once

#include "isolation/run.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace sb::ui {

// The run console: an outcome badge, timings, a one-line isolation summary (the full list of layers a
// click away) and a blocked run's key event above the run's output (blocked events, stdout, stderr).
class OutputPane : public QWidget {
    Q_OBJECT
public:
    explicit OutputPane(QWidget* parent = nullptr);

    void showIdle();
    void showRunning(const QString& label);
    // A run asked for that ended before its sandbox started (cancelled first): nothing ran, `reason` says why.
    void showNotStarted(const QString& reason);
    // Replaces the console with one run's result.
    void showResult(const sb::RunResult& result);
    // Demo mode: one line per case. The header names the demo, never one of its cases: the editor's
    // snippet is not what ran.
    void beginLog(const QString& title);
    void appendLogLine(const sb::RunResult& result, const QString& label, bool expected);
    void appendNote(const QString& text);
    // Ends the demo's log: the header says what the log is, and that the editor's snippet has not run.
    void finishLog(const QString& summary);

private:
    void setHeader(const sb::RunResult& result);
    void setLayers(const sb::RunResult& result);
    void setBadge(const QString& text, const QColor& background, const QColor& foreground);
    void appendSection(const QString& title, const QString& body, const QColor& color);
    void hideDetails();
    void showLayerSummary();
    // Keeps the newest line of a log in view.
    void followLog();

    QLabel* m_badge = nullptr;
    QLabel* m_timings = nullptr;
    QLabel* m_layers = nullptr;
    QLabel* m_layerDetails = nullptr;
    QLabel* m_message = nullptr;
    QPlainTextEdit* m_output = nullptr;
    QString m_layerSummary; // "<b>strict</b> isolation · 18 of 22 layers active", without the details link
};

} // namespace sb::ui
