#pragma once

#include "agents/json.h"

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace sb::ui {

// The arguments of a call waiting in a running session, as pretty JSON to edit. The text is checked as it is
// typed (JSON, an object): OK stays disabled while it is not, and the error says where.
class EditArgumentsDialog : public QDialog {
    Q_OBJECT
public:
    EditArgumentsDialog(std::int64_t step, const QString& tool, const sb::agents::Json& arguments,
                        QWidget* parent = nullptr);

    std::int64_t step() const { return m_step; }
    QPlainTextEdit* editor() const { return m_editor; }
    // The edited arguments; nullopt while the text is not a JSON object.
    const std::optional<sb::agents::Json>& arguments() const { return m_arguments; }

private:
    void check();

    std::int64_t m_step = 0;
    QPlainTextEdit* m_editor = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    std::optional<sb::agents::Json> m_arguments;
};

} // namespace sb::ui
