#pragma once

#include "ui/agents/AgentLaunchJob.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace sb::ui {

// What to launch: the worked example built into Sandbench, or any command (split as a shell splits words, the
// paths its program reads beside it); the policy (the sandbox's, a preset, a file); the sandbox (a new one, or
// one the store has); step mode. Checked as it is typed: Launch stays disabled while something is wrong, and the
// reason shows.
class LaunchAgentDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchAgentDialog(QWidget* parent = nullptr);

    // The store's sandboxes, offered beside "a new one"; `error`: why they could not be read.
    void setSandboxes(const QStringList& names, const QString& error = {});
    // What the dialog holds now; meaningful while reason() is empty.
    AgentLaunch launch() const;
    // Why Launch is disabled ("" it is not).
    QString reason() const { return m_reasonText; }

private:
    void buildLayout();
    void check();
    void onAgentChanged();
    void addReadPath(bool folder);
    void browsePolicy();
    QString commandReason(const QStringList& words) const;
    QString readPathsReason() const;
    QString policyReason() const;

    QComboBox* m_agent = nullptr;
    QLineEdit* m_command = nullptr;
    QLabel* m_words = nullptr;
    QPlainTextEdit* m_readPaths = nullptr;
    QWidget* m_readRow = nullptr;
    QComboBox* m_policy = nullptr;
    QLineEdit* m_policyFile = nullptr;
    QWidget* m_policyFileRow = nullptr;
    QComboBox* m_sandbox = nullptr;
    QLabel* m_sandboxNote = nullptr;
    QCheckBox* m_stepMode = nullptr;
    QLabel* m_reason = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QFormLayout* m_form = nullptr;
    QString m_reasonText;
};

} // namespace sb::ui
