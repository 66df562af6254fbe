#pragma once

#include "isolation/run.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace sb::ui {

// The run console: an outcome badge, timings and isolation layers above the run's output
// (stdout, stderr and blocked events).
class OutputPane : public QWidget {
    Q_OBJECT
public:
    explicit OutputPane(QWidget* parent = nullptr);

    void showIdle();
    void showRunning(const QString& label);
    // Replaces the console with one run's result.
    void showResult(const sb::RunResult& result);
    // Demo mode: one line per case, then the last case's result in the header.
    void beginLog(const QString& title);
    void appendLogLine(const sb::RunResult& result, const QString& label, bool expected);
    void appendNote(const QString& text);
    void setHeader(const sb::RunResult& result);

private:
    void setBadge(const QString& text, const QColor& background, const QColor& foreground);
    void appendSection(const QString& title, const QString& body, const QColor& color);

    QLabel* m_badge = nullptr;
    QLabel* m_timings = nullptr;
    QLabel* m_layers = nullptr;
    QLabel* m_message = nullptr;
    QPlainTextEdit* m_output = nullptr;
};

} // namespace sb::ui
