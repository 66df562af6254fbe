#pragma once

#include "sandboxes/sandbox_engine.h"

#include <QDialog>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sb::ui {

// New sandbox: a name, where it comes from (main, a sandbox, the selected checkpoint, or a folder to
// import), include/exclude globs, an expiry, a size quota and an idle timeout. OK stays disabled until the request is valid; the reason is
// shown under the fields.
class NewSandboxDialog : public QDialog {
    Q_OBJECT
public:
    // `checkpoint`/`checkpointText`: the checkpoint selected in the browser, offered as a source ("" none).
    NewSandboxDialog(const std::vector<sb::SandboxInfo>& sandboxes, const QString& selectedSandbox,
                     const QString& checkpoint, const QString& checkpointText, QWidget* parent);

    sb::CreateSandboxRequest request() const;

private:
    void validate();
    void browse();
    bool importing() const;

    QLineEdit* m_name = nullptr;
    QComboBox* m_from = nullptr;
    QLineEdit* m_folder = nullptr;
    QPushButton* m_browse = nullptr;
    QLineEdit* m_includes = nullptr;
    QLineEdit* m_excludes = nullptr;
    QComboBox* m_expiry = nullptr;
    QLineEdit* m_quota = nullptr;
    QComboBox* m_idle = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

// Create checkpoint: a label and a message (why), both optional.
class CheckpointDialog : public QDialog {
    Q_OBJECT
public:
    CheckpointDialog(const QString& sandbox, QWidget* parent);
    QString label() const;
    QString message() const;

private:
    QLineEdit* m_label = nullptr;
    QLineEdit* m_message = nullptr;
};

// Fork: the new sandbox's name, checked as the engine checks it.
class ForkDialog : public QDialog {
    Q_OBJECT
public:
    ForkDialog(const QString& checkpointText, const QString& suggestedName, QWidget* parent);
    QString name() const;

private:
    void validate();

    QLineEdit* m_name = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

// Label: a checkpoint's label, changed or cleared (empty). Labels are mutable, like tags: the id stays.
class LabelDialog : public QDialog {
    Q_OBJECT
public:
    LabelDialog(const QString& checkpointText, const QString& currentLabel, QWidget* parent);
    QString label() const;

private:
    QLineEdit* m_label = nullptr;
};

// Sandbox settings: the size quota and the idle timeout of an existing sandbox, shown as they are and
// changed as `sandbench sandbox set` changes them (empty quota: none; "never": no idle archiving). OK stays
// disabled until both parse, and until something changed.
class SandboxSettingsDialog : public QDialog {
    Q_OBJECT
public:
    SandboxSettingsDialog(const sb::SandboxInfo& sandbox, QWidget* parent);
    sb::SandboxSettings settings() const;

private:
    void validate();
    std::optional<std::optional<std::uint64_t>> quota() const;
    std::optional<std::optional<std::int64_t>> idle() const;

    sb::SandboxInfo m_sandbox;
    QLineEdit* m_quota = nullptr;
    QComboBox* m_idle = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

// Globs as a person types them: separated by spaces or commas.
std::vector<std::string> splitGlobs(const QString& text);

} // namespace sb::ui
