#include "ui/agents/EditArgumentsDialog.h"

#include "ui/models/Conversions.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sb::ui {

EditArgumentsDialog::EditArgumentsDialog(std::int64_t step, const QString& tool, const sb::agents::Json& arguments,
                                         QWidget* parent)
    : QDialog(parent)
    , m_step(step)
    , m_editor(new QPlainTextEdit(this))
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("editArgumentsDialog"));
    setWindowTitle(tr("Edit the arguments of step %1").arg(step));
    auto* intro = new QLabel(tr("Step %1 calls <b>%2</b>. It goes on with these arguments instead of the agent's, "
                                "and is recorded as edited.")
                                 .arg(step)
                                 .arg(tool.toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    m_editor->setObjectName(QStringLiteral("editArgumentsText"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setPlainText(toQString(arguments.dump(2, ' ', false, sb::agents::Json::error_handler_t::replace)));
    m_error->setObjectName(QStringLiteral("editArgumentsError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Go on with these"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &EditArgumentsDialog::check);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    resize(560, 380);
    check();
}

void EditArgumentsDialog::check()
{
    const std::string text = toStdString(m_editor->toPlainText());
    QString error;
    try {
        auto parsed = sb::agents::Json::parse(text);
        if (parsed.is_object())
            m_arguments = std::move(parsed);
        else
            error = tr("The arguments must be a JSON object ({ ... }); this is a JSON %1.").arg(toQString(parsed.type_name()));
    } catch (const sb::agents::Json::parse_error& e) {
        error = tr("Not JSON: %1").arg(toQString(e.what()));
    }
    if (!error.isEmpty())
        m_arguments.reset();
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_arguments.has_value());
}

} // namespace sb::ui
