#include "ui/agents/LaunchAgentDialog.h"

#include "demo/worked_example.h"
#include "isolation/policy.h"
#include "ui/models/Conversions.h"
#include "usecases/policy_reference.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

// The policy choice's item data: "" the sandbox's own, else "preset:NAME" or "file".
const QString kPresetPrefix = QStringLiteral("preset:");
const QString kPolicyFile = QStringLiteral("file");

QStringList nonEmptyLines(const QString& text)
{
    QStringList lines;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            lines << line.trimmed();
    }
    return lines;
}

} // namespace

LaunchAgentDialog::LaunchAgentDialog(QWidget* parent)
    : QDialog(parent)
    , m_agent(new QComboBox(this))
    , m_command(new QLineEdit(this))
    , m_words(new QLabel(this))
    , m_readPaths(new QPlainTextEdit(this))
    , m_policy(new QComboBox(this))
    , m_policyFile(new QLineEdit(this))
    , m_sandbox(new QComboBox(this))
    , m_sandboxNote(new QLabel(this))
    , m_stepMode(new QCheckBox(tr("Step mode: pause before every call until Step or Continue"), this))
    , m_reason(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("launchAgentDialog"));
    setWindowTitle(tr("Launch an agent"));
    buildLayout();
    setSandboxes({}, {});
    onAgentChanged();
}

void LaunchAgentDialog::buildLayout()
{
    m_agent->setObjectName(QStringLiteral("launchAgent"));
    m_agent->addItem(tr("Worked example (upgrade a dependency)"));
    m_agent->addItem(tr("Any command"));

    m_command->setObjectName(QStringLiteral("launchCommand"));
    m_command->setPlaceholderText(tr("python3 /path/to/agent.py --flag"));
    m_command->setToolTip(tr("The agent's program and its arguments, split into words at spaces; double quotes keep "
                             "spaces inside a word. It runs in a sandbox of its own with Sandbench as its MCP server "
                             "on stdin and stdout."));
    m_words->setObjectName(QStringLiteral("launchCommandWords"));
    m_words->setWordWrap(true);
    m_words->setTextFormat(Qt::RichText);
    m_words->setForegroundRole(QPalette::PlaceholderText); // secondary text, in the theme's colour

    m_readPaths->setObjectName(QStringLiteral("launchReadPaths"));
    m_readPaths->setPlaceholderText(tr("One absolute path a line: the agent program's own files (its script)"));
    m_readPaths->setToolTip(tr("Added to what the agent's run may read; the agent reaches its sandbox's workspace "
                               "only through the tools"));
    m_readPaths->setTabChangesFocus(true);
    m_readPaths->setFixedHeight(m_readPaths->fontMetrics().height() * 4 + 10);
    auto* addFile = new QPushButton(tr("Add file…"), this);
    addFile->setObjectName(QStringLiteral("launchAddReadFile"));
    auto* addFolder = new QPushButton(tr("Add folder…"), this);
    addFolder->setObjectName(QStringLiteral("launchAddReadFolder"));
    connect(addFile, &QPushButton::clicked, this, [this] { addReadPath(false); });
    connect(addFolder, &QPushButton::clicked, this, [this] { addReadPath(true); });
    m_readRow = new QWidget(this);
    auto* readLayout = new QHBoxLayout(m_readRow);
    readLayout->setContentsMargins(0, 0, 0, 0);
    readLayout->addWidget(m_readPaths, 1);
    auto* readButtons = new QVBoxLayout;
    readButtons->addWidget(addFile);
    readButtons->addWidget(addFolder);
    readButtons->addStretch(1);
    readLayout->addLayout(readButtons);

    m_policy->setObjectName(QStringLiteral("launchPolicy"));
    m_policy->addItem(QString(), QString()); // its text follows the agent (onAgentChanged)
    for (const auto& name : sb::builtinPresetNames())
        m_policy->addItem(tr("Preset: %1").arg(toQString(name)), QString(kPresetPrefix + toQString(name)));
    m_policy->addItem(tr("A policy file…"), kPolicyFile);
    m_policyFile->setObjectName(QStringLiteral("launchPolicyFile"));
    m_policyFile->setPlaceholderText(tr("/path/to/policy.yaml"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(QStringLiteral("launchPolicyBrowse"));
    connect(browse, &QPushButton::clicked, this, &LaunchAgentDialog::browsePolicy);
    m_policyFileRow = new QWidget(this);
    auto* fileLayout = new QHBoxLayout(m_policyFileRow);
    fileLayout->setContentsMargins(0, 0, 0, 0);
    fileLayout->addWidget(m_policyFile, 1);
    fileLayout->addWidget(browse);

    m_sandbox->setObjectName(QStringLiteral("launchSandbox"));
    m_sandboxNote->setObjectName(QStringLiteral("launchSandboxNote"));
    m_sandboxNote->setWordWrap(true);
    m_sandboxNote->setForegroundRole(QPalette::PlaceholderText); // secondary text, in the theme's colour
    m_stepMode->setObjectName(QStringLiteral("launchStepMode"));
    m_stepMode->setToolTip(tr("Every call waits in the control bar of the agent workspace: Step lets one go, "
                              "Continue runs on to a breakpoint or the end"));

    m_reason->setObjectName(QStringLiteral("launchReason"));
    m_reason->setWordWrap(true);
    m_reason->setStyleSheet(QStringLiteral("color: #c0392b;"));
    // Room for a reason of a few lines, so that the dialog does not jump as it comes and goes.
    m_reason->setMinimumHeight(m_reason->fontMetrics().lineSpacing() * 3);
    m_reason->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Launch"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("launchOk"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_form = new QFormLayout;
    m_form->addRow(tr("&Agent:"), m_agent);
    m_form->addRow(tr("&Command:"), m_command);
    m_form->addRow(QString(), m_words);
    m_form->addRow(tr("&Reads:"), m_readRow);
    m_form->addRow(tr("&Policy:"), m_policy);
    m_form->addRow(tr("Policy &file:"), m_policyFileRow);
    m_form->addRow(tr("&Sandbox:"), m_sandbox);
    m_form->addRow(QString(), m_sandboxNote);
    m_form->addRow(QString(), m_stepMode);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addStretch(1);
    layout->addWidget(m_reason);
    layout->addWidget(m_buttons);
    resize(680, 500);

    connect(m_agent, &QComboBox::currentIndexChanged, this, &LaunchAgentDialog::onAgentChanged);
    connect(m_command, &QLineEdit::textChanged, this, &LaunchAgentDialog::check);
    connect(m_readPaths, &QPlainTextEdit::textChanged, this, &LaunchAgentDialog::check);
    connect(m_policy, &QComboBox::currentIndexChanged, this, [this] {
        m_form->setRowVisible(m_policyFileRow, m_policy->currentData().toString() == kPolicyFile);
        check();
    });
    connect(m_policyFile, &QLineEdit::textChanged, this, &LaunchAgentDialog::check);
    connect(m_sandbox, &QComboBox::currentIndexChanged, this, &LaunchAgentDialog::check);
}

void LaunchAgentDialog::setSandboxes(const QStringList& names, const QString& error)
{
    const QString chosen = m_sandbox->currentData().toString();
    const QSignalBlocker blocker(m_sandbox);
    m_sandbox->clear();
    m_sandbox->addItem(tr("A new sandbox from main"), QString());
    for (const QString& name : names)
        m_sandbox->addItem(name, name);
    if (const int at = m_sandbox->findData(chosen); at >= 0)
        m_sandbox->setCurrentIndex(at);
    m_sandbox->setToolTip(error.isEmpty() ? QString() : tr("The store's sandboxes could not be read: %1").arg(error));
    check();
}

void LaunchAgentDialog::onAgentChanged()
{
    const bool example = m_agent->currentIndex() == 0;
    m_form->setRowVisible(m_command, !example);
    m_form->setRowVisible(m_words, !example);
    m_form->setRowVisible(m_readRow, !example);
    m_form->setRowVisible(m_policyFileRow, m_policy->currentData().toString() == kPolicyFile);
    m_policy->setItemText(0, example ? tr("The example's own (examples/agents/policy.yaml)")
                                     : tr("The sandbox's own, else the agent preset"));
    m_sandbox->setEnabled(!example);
    m_sandboxNote->setText(
        example ? tr("The worked example works in its own sandboxes, %1 made from %2; those an earlier demo or launch "
                     "left are replaced (their sessions stay, as history).")
                      .arg(toQString(sb::kWorkedExampleSandbox), toQString(sb::kWorkedExampleRepoSandbox))
                : tr("A new sandbox is named agent-XXXXXXXX; the agent works in its workspace through the tools."));
    check();
}

QString LaunchAgentDialog::commandReason(const QStringList& words) const
{
    if (words.isEmpty())
        return tr("Type the agent's command line.");
    const QString program = words.front();
    if (program.contains(QLatin1Char('/'))) {
        if (!QDir::isAbsolutePath(program))
            return tr("Give the program as an absolute path or a name on PATH: the agent runs in a work dir of its "
                      "own, where %1 means nothing.")
                .arg(program);
        const QFileInfo file(program);
        if (!file.isFile() || !file.isExecutable())
            return tr("%1 is not an executable file.").arg(program);
        return {};
    }
    if (QStandardPaths::findExecutable(program).isEmpty())
        return tr("No program %1 on PATH.").arg(program);
    return {};
}

QString LaunchAgentDialog::readPathsReason() const
{
    for (const QString& path : nonEmptyLines(m_readPaths->toPlainText())) {
        if (!QDir::isAbsolutePath(path))
            return tr("Read path %1: give an absolute path.").arg(path);
        if (!QFileInfo::exists(path))
            return tr("Read path %1 does not exist.").arg(path);
    }
    return {};
}

QString LaunchAgentDialog::policyReason() const
{
    if (m_policy->currentData().toString() != kPolicyFile)
        return {};
    const QString path = m_policyFile->text().trimmed();
    if (path.isEmpty())
        return tr("Choose a policy file.");
    const QFileInfo file(path);
    if (!file.isFile())
        return tr("No policy file %1.").arg(path);
    bool namesLevel = false;
    if (auto policy = sb::loadPolicyOrPreset(toStdString(file.absoluteFilePath()), namesLevel); !policy)
        return tr("The policy file cannot be used: %1").arg(toQString(policy.error().message));
    return {};
}

void LaunchAgentDialog::check()
{
    QString reason;
    if (m_agent->currentIndex() == 1) {
        const QStringList words = QProcess::splitCommand(m_command->text());
        QStringList shown;
        for (const QString& word : words)
            shown << QStringLiteral("<code>%1</code>").arg(word.toHtmlEscaped());
        m_words->setText(words.isEmpty() ? QString()
                                         : tr("%n word(s): %1", nullptr, static_cast<int>(words.size()))
                                               .arg(shown.join(QStringLiteral(" · "))));
        reason = commandReason(words);
        if (reason.isEmpty())
            reason = readPathsReason();
    }
    if (reason.isEmpty())
        reason = policyReason();
    m_reasonText = reason;
    m_reason->setText(reason);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(reason.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(reason);
}

void LaunchAgentDialog::addReadPath(bool folder)
{
    const QString path = folder ? QFileDialog::getExistingDirectory(this, tr("A folder the agent's program reads"))
                                : QFileDialog::getOpenFileName(this, tr("A file the agent's program reads"));
    if (path.isEmpty())
        return;
    QString text = m_readPaths->toPlainText();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    m_readPaths->setPlainText(text + path);
}

void LaunchAgentDialog::browsePolicy()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("A policy for the agent"), m_policyFile->text(),
                                                      tr("Policies (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty())
        m_policyFile->setText(path);
}

AgentLaunch LaunchAgentDialog::launch() const
{
    AgentLaunch out;
    out.agent = m_agent->currentIndex() == 0 ? AgentLaunch::Agent::WorkedExample : AgentLaunch::Agent::Command;
    out.stepMode = m_stepMode->isChecked();
    const QString policy = m_policy->currentData().toString();
    if (policy.startsWith(kPresetPrefix))
        out.policy = policy.mid(kPresetPrefix.size());
    else if (policy == kPolicyFile)
        out.policy = QFileInfo(m_policyFile->text().trimmed()).absoluteFilePath();
    if (out.agent == AgentLaunch::Agent::Command) {
        out.command = QProcess::splitCommand(m_command->text());
        out.readPaths = nonEmptyLines(m_readPaths->toPlainText());
        out.sandbox = m_sandbox->currentData().toString();
    }
    return out;
}

} // namespace sb::ui
