#include "ui/agents/ReplayPolicyDialog.h"

#include "agents/session_replay.h"
#include "isolation/policy.h"
#include "ui/models/Conversions.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace sb::ui {

ReplayPolicyDialog::ReplayPolicyDialog(const QString& sessionLabel, QWidget* parent)
    : QDialog(parent)
    , m_choice(new QComboBox(this))
    , m_file(new QLineEdit(this))
    , m_browse(new QToolButton(this))
    , m_error(new QLabel(this))
{
    setObjectName(QStringLiteral("replayPolicyDialog"));
    setWindowTitle(tr("Replay under a policy"));
    auto* intro = new QLabel(tr("Session %1's calls run again, in order, from its first checkpoint in a new sandbox, "
                                "ruled by the policy chosen here. The replay is recorded as a session of its own "
                                "and compared with the original step by step.")
                                 .arg(sessionLabel),
                             this);
    intro->setWordWrap(true);

    m_choice->setObjectName(QStringLiteral("replayPolicyChoice"));
    for (const auto& name : sb::builtinPresetNames())
        m_choice->addItem(tr("preset %1").arg(toQString(name)), toQString(name));
    m_choice->addItem(tr("Policy file…"), QString());
    if (const int agent = m_choice->findData(QStringLiteral("agent")); agent >= 0)
        m_choice->setCurrentIndex(agent);

    m_file->setObjectName(QStringLiteral("replayPolicyFile"));
    m_file->setPlaceholderText(tr("A policy YAML file (its agent: section rules the calls)"));
    m_browse->setObjectName(QStringLiteral("replayPolicyBrowse"));
    m_browse->setText(tr("Browse…"));
    connect(m_browse, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Policy file"), m_file->text(),
                                                          tr("Policies (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            setPolicyFile(path);
    });
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(m_browse);

    m_error->setObjectName(QStringLiteral("replayPolicyError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();

    auto* form = new QFormLayout;
    form->addRow(tr("Policy:"), m_choice);
    form->addRow(tr("File:"), fileRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Replay"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this] {
        m_error->hide();
        updateFileRow();
    });
    connect(m_file, &QLineEdit::textEdited, m_error, &QWidget::hide);
    updateFileRow();
    resize(520, sizeHint().height());
}

QString ReplayPolicyDialog::policy() const
{
    const QString preset = m_choice->currentData().toString();
    return preset.isEmpty() ? m_file->text().trimmed() : preset;
}

void ReplayPolicyDialog::setPolicyFile(const QString& path)
{
    m_choice->setCurrentIndex(m_choice->count() - 1);
    m_file->setText(path);
    m_error->hide();
}

QString ReplayPolicyDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void ReplayPolicyDialog::updateFileRow()
{
    const bool file = m_choice->currentData().toString().isEmpty();
    m_file->setEnabled(file);
    m_browse->setEnabled(file);
}

void ReplayPolicyDialog::accept()
{
    // A small YAML file read and its rules compiled: quick enough for the GUI thread, and the person waits on it.
    if (auto checked = sb::agents::checkReplayPolicy(toStdString(policy())); !checked) {
        m_error->setText(tr("This policy cannot rule a replay: %1").arg(toQString(checked.error().message)));
        m_error->show();
        return;
    }
    m_error->hide();
    QDialog::accept();
}

} // namespace sb::ui
