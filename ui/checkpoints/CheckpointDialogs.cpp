#include "ui/checkpoints/CheckpointDialogs.h"

#include "ui/models/Conversions.h"
#include "util/size_text.h"
#include "util/time_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

const QString kImport = QStringLiteral("import");
const QString kSandboxPrefix = QStringLiteral("sandbox:");
const QString kCheckpointPrefix = QStringLiteral("checkpoint:");

QLabel* problemLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #8a1c12;"));
    return label;
}

// OK (with its text and object name) and Cancel, wired to accept and reject.
QDialogButtonBox* okCancelButtons(QDialog* dialog, const QString& okText, const QString& okName)
{
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(okText);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(okName);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return buttons;
}

// The quota and idle-timeout fields, as the new-sandbox and settings dialogs both show them.
void setUpQuotaField(QLineEdit* quota, const QString& objectName)
{
    quota->setObjectName(objectName);
    quota->setPlaceholderText(NewSandboxDialog::tr("none (e.g. 500M, 2G)"));
}

void setUpIdleField(QComboBox* idle, const QString& objectName)
{
    idle->setObjectName(objectName);
    idle->setEditable(true);
    idle->addItem(NewSandboxDialog::tr("never"), QString());
    for (const char* duration : {"1d", "7d", "30d"})
        idle->addItem(QString::fromLatin1(duration), QString::fromLatin1(duration));
    idle->setToolTip(NewSandboxDialog::tr("Unused this long, the sandbox is archived by the next sweep: its work is "
                                          "checkpointed, its folder removed until it is used again"));
}

QString nameProblem(const QString& name)
{
    if (name.isEmpty())
        return NewSandboxDialog::tr("Give the sandbox a name.");
    if (auto ok = sb::SandboxEngine::validateName(toStdString(name)); !ok)
        return toQString(ok.error().message);
    return {};
}

} // namespace

std::vector<std::string> splitGlobs(const QString& text)
{
    std::vector<std::string> globs;
    static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
    for (const QString& glob : text.split(separators, Qt::SkipEmptyParts))
        globs.push_back(toStdString(glob));
    return globs;
}

NewSandboxDialog::NewSandboxDialog(const std::vector<sb::SandboxInfo>& sandboxes, const QString& selectedSandbox,
                                   const QString& checkpoint, const QString& checkpointText, QWidget* parent)
    : QDialog(parent)
    , m_name(new QLineEdit(this))
    , m_from(new QComboBox(this))
    , m_folder(new QLineEdit(this))
    , m_browse(new QPushButton(tr("Browse…"), this))
    , m_includes(new QLineEdit(this))
    , m_excludes(new QLineEdit(this))
    , m_expiry(new QComboBox(this))
    , m_quota(new QLineEdit(this))
    , m_idle(new QComboBox(this))
    , m_problem(problemLabel(this))
    , m_buttons(okCancelButtons(this, tr("Create"), QStringLiteral("newSandboxCreate")))
{
    setObjectName(QStringLiteral("newSandboxDialog"));
    setWindowTitle(tr("New sandbox"));
    m_name->setObjectName(QStringLiteral("newSandboxName"));
    m_name->setPlaceholderText(tr("e.g. try-new-rules"));
    m_from->setObjectName(QStringLiteral("newSandboxFrom"));
    for (const auto& sandbox : sandboxes) {
        const QString name = toQString(sandbox.name);
        m_from->addItem(name == QLatin1String("main") ? tr("main (production)") : tr("sandbox %1").arg(name),
                        QString(kSandboxPrefix + name));
    }
    if (!checkpoint.isEmpty())
        m_from->addItem(tr("checkpoint %1").arg(checkpointText), QString(kCheckpointPrefix + checkpoint));
    m_from->addItem(tr("a folder to import…"), kImport);
    // The selected checkpoint when there is one, else the selected sandbox.
    int current = m_from->findData(checkpoint.isEmpty() ? QString(kSandboxPrefix + selectedSandbox)
                                                           : QString(kCheckpointPrefix + checkpoint));
    m_from->setCurrentIndex(std::max(current, 0));
    m_from->setToolTip(tr("A sandbox's current workspace (unsaved changes are checkpointed first), a checkpoint, "
                          "or a folder copied in (never mounted)"));

    m_folder->setObjectName(QStringLiteral("newSandboxImport"));
    m_folder->setPlaceholderText(tr("folder to copy into the new workspace"));
    m_browse->setObjectName(QStringLiteral("newSandboxBrowse"));
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_browse);

    m_includes->setObjectName(QStringLiteral("newSandboxIncludes"));
    m_includes->setPlaceholderText(tr("all files (e.g. rules/** data/*.csv)"));
    m_includes->setToolTip(tr("Only paths matching one of these globs (separated by spaces or commas)"));
    m_excludes->setObjectName(QStringLiteral("newSandboxExcludes"));
    m_excludes->setPlaceholderText(tr("none (e.g. *.log build/**)"));
    m_excludes->setToolTip(tr("Leave out paths matching one of these globs"));

    m_expiry->setObjectName(QStringLiteral("newSandboxExpiry"));
    m_expiry->setEditable(true);
    m_expiry->addItem(tr("never"), QString());
    for (const char* duration : {"1h", "1d", "7d", "30d"})
        m_expiry->addItem(QString::fromLatin1(duration), QString::fromLatin1(duration));
    m_expiry->setToolTip(tr("After this long the sandbox is destroyed by the next sweep (e.g. 2h, 1d12h, 7d)"));

    setUpQuotaField(m_quota, QStringLiteral("newSandboxQuota"));
    m_quota->setToolTip(tr("The most its workspace may hold: creation, checkpoints and runs are held to it"));
    setUpIdleField(m_idle, QStringLiteral("newSandboxIdle"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&From:"), m_from);
    auto* folderLabel = new QLabel(tr("&Import:"), this);
    folderLabel->setBuddy(m_folder); // a row that is a layout gets no buddy of its own
    form->addRow(folderLabel, folderRow);
    form->addRow(tr("&Include:"), m_includes);
    form->addRow(tr("E&xclude:"), m_excludes);
    form->addRow(tr("&Expires in:"), m_expiry);
    form->addRow(tr("&Quota:"), m_quota);
    form->addRow(tr("Archive when i&dle for:"), m_idle);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    connect(m_name, &QLineEdit::textChanged, this, &NewSandboxDialog::validate);
    connect(m_folder, &QLineEdit::textChanged, this, &NewSandboxDialog::validate);
    connect(m_expiry, &QComboBox::currentTextChanged, this, &NewSandboxDialog::validate);
    connect(m_quota, &QLineEdit::textChanged, this, &NewSandboxDialog::validate);
    connect(m_idle, &QComboBox::currentTextChanged, this, &NewSandboxDialog::validate);
    connect(m_from, &QComboBox::currentIndexChanged, this, &NewSandboxDialog::validate);
    connect(m_browse, &QPushButton::clicked, this, &NewSandboxDialog::browse);
    setMinimumWidth(480);
    validate();
}

bool NewSandboxDialog::importing() const
{
    return m_from->currentData().toString() == kImport;
}

void NewSandboxDialog::browse()
{
    // Not a nested event loop: the chosen folder arrives by signal.
    auto* dialog = new QFileDialog(this, tr("Folder to import"), m_folder->text());
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& folder) {
        m_folder->setText(folder);
        m_from->setCurrentIndex(m_from->findData(kImport));
    });
    dialog->open();
}

void NewSandboxDialog::validate()
{
    m_folder->setEnabled(importing());
    m_browse->setEnabled(importing());
    QString problem = nameProblem(m_name->text().trimmed());
    if (problem.isEmpty() && importing()) {
        const QFileInfo folder(m_folder->text().trimmed());
        if (m_folder->text().trimmed().isEmpty())
            problem = tr("Choose the folder to import.");
        else if (!folder.isDir())
            problem = tr("%1 is not a folder.").arg(m_folder->text().trimmed());
    }
    const QString expiry = m_expiry->currentText().trimmed();
    if (problem.isEmpty() && !expiry.isEmpty() && expiry != tr("never")) {
        if (auto ms = sb::parseLifetimeMs(toStdString(expiry)); !ms)
            problem = toQString(ms.error().message);
    }
    const QString quota = m_quota->text().trimmed();
    if (problem.isEmpty() && !quota.isEmpty()) {
        if (auto bytes = sb::parseSizeBytes(toStdString(quota)); !bytes)
            problem = toQString(bytes.error().message);
    }
    const QString idle = m_idle->currentText().trimmed();
    if (problem.isEmpty() && !idle.isEmpty() && idle != tr("never")) {
        if (auto ms = sb::parseLifetimeMs(toStdString(idle)); !ms)
            problem = toQString(ms.error().message);
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty() && !m_name->text().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

sb::CreateSandboxRequest NewSandboxDialog::request() const
{
    sb::CreateSandboxRequest request;
    request.name = toStdString(m_name->text().trimmed());
    const QString from = m_from->currentData().toString();
    if (from == kImport)
        request.importFrom = std::filesystem::path(toStdString(m_folder->text().trimmed()));
    else if (from.startsWith(kSandboxPrefix))
        request.from = toStdString(from.mid(kSandboxPrefix.size()));
    else if (from.startsWith(kCheckpointPrefix))
        request.from = toStdString(from.mid(kCheckpointPrefix.size()));
    request.includes = splitGlobs(m_includes->text());
    request.excludes = splitGlobs(m_excludes->text());
    const QString expiry = m_expiry->currentText().trimmed();
    if (!expiry.isEmpty() && expiry != tr("never")) {
        if (auto ms = sb::parseLifetimeMs(toStdString(expiry)))
            request.expiresInMs = *ms;
    }
    if (auto bytes = sb::parseSizeBytes(toStdString(m_quota->text().trimmed())))
        request.quotaBytes = *bytes;
    const QString idle = m_idle->currentText().trimmed();
    if (!idle.isEmpty() && idle != tr("never")) {
        if (auto ms = sb::parseLifetimeMs(toStdString(idle)))
            request.idleTimeoutMs = *ms;
    }
    return request;
}

CheckpointDialog::CheckpointDialog(const QString& sandbox, QWidget* parent)
    : QDialog(parent)
    , m_label(new QLineEdit(this))
    , m_message(new QLineEdit(this))
{
    setObjectName(QStringLiteral("checkpointDialog"));
    setWindowTitle(tr("Create checkpoint"));
    m_label->setObjectName(QStringLiteral("checkpointLabel"));
    m_label->setPlaceholderText(tr("e.g. before the velocity rule"));
    m_message->setObjectName(QStringLiteral("checkpointMessage"));
    m_message->setPlaceholderText(tr("why (optional)"));
    auto* intro = new QLabel(tr("Snapshot the workspace of <b>%1</b> as it is now.").arg(sandbox.toHtmlEscaped()), this);
    auto* form = new QFormLayout;
    form->addRow(tr("&Label:"), m_label);
    form->addRow(tr("&Message:"), m_message);
    auto* buttons = okCancelButtons(this, tr("Create checkpoint"), QStringLiteral("checkpointCreate"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setMinimumWidth(420);
}

QString CheckpointDialog::label() const
{
    return m_label->text().trimmed();
}

QString CheckpointDialog::message() const
{
    return m_message->text().trimmed();
}

ForkDialog::ForkDialog(const QString& checkpointText, const QString& suggestedName, QWidget* parent)
    : QDialog(parent)
    , m_name(new QLineEdit(suggestedName, this))
    , m_problem(problemLabel(this))
    , m_buttons(okCancelButtons(this, tr("Fork"), QStringLiteral("forkCreate")))
{
    setObjectName(QStringLiteral("forkDialog"));
    setWindowTitle(tr("Fork checkpoint"));
    m_name->setObjectName(QStringLiteral("forkName"));
    m_name->selectAll();
    auto* intro = new QLabel(tr("A new sandbox whose workspace is checkpoint %1.").arg(checkpointText.toHtmlEscaped()), this);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("New sandbox &name:"), m_name);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_name, &QLineEdit::textChanged, this, &ForkDialog::validate);
    setMinimumWidth(420);
    validate();
}

QString ForkDialog::name() const
{
    return m_name->text().trimmed();
}

void ForkDialog::validate()
{
    const QString problem = nameProblem(name());
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

LabelDialog::LabelDialog(const QString& checkpointText, const QString& currentLabel, QWidget* parent)
    : QDialog(parent)
    , m_label(new QLineEdit(currentLabel, this))
{
    setObjectName(QStringLiteral("labelDialog"));
    setWindowTitle(tr("Label checkpoint"));
    m_label->setObjectName(QStringLiteral("labelText"));
    m_label->setPlaceholderText(tr("e.g. release candidate 2 (empty: no label)"));
    m_label->selectAll();
    auto* intro = new QLabel(tr("The label of checkpoint %1. Labels can change at any time; the checkpoint and its "
                                "id stay as they are.")
                                 .arg(checkpointText.toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("&Label:"), m_label);
    auto* buttons = okCancelButtons(this, tr("Apply"), QStringLiteral("labelApply"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setMinimumWidth(420);
}

QString LabelDialog::label() const
{
    // One line: a pasted newline would be refused by the engine.
    QString text = m_label->text().trimmed();
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

SandboxSettingsDialog::SandboxSettingsDialog(const sb::SandboxInfo& sandbox, QWidget* parent)
    : QDialog(parent)
    , m_sandbox(sandbox)
    , m_quota(new QLineEdit(this))
    , m_idle(new QComboBox(this))
    , m_problem(problemLabel(this))
    , m_buttons(okCancelButtons(this, tr("Apply"), QStringLiteral("settingsApply")))
{
    setObjectName(QStringLiteral("sandboxSettingsDialog"));
    setWindowTitle(tr("Sandbox settings"));
    setUpQuotaField(m_quota, QStringLiteral("settingsQuota"));
    m_quota->setToolTip(tr("The most its workspace may hold: checkpoints, restores and runs are held to it"));
    if (sandbox.quotaBytes)
        m_quota->setText(toQString(sb::formatSizeExact(*sandbox.quotaBytes)));
    setUpIdleField(m_idle, QStringLiteral("settingsIdle"));
    m_idle->setEnabled(sandbox.name != sb::SandboxEngine::kMain);
    if (sandbox.idleTimeoutMs)
        m_idle->setCurrentText(toQString(sb::formatDurationExact(*sandbox.idleTimeoutMs)));
    m_problem->setObjectName(QStringLiteral("settingsProblem"));
    m_problem->hide();

    auto* intro = new QLabel(tr("Governance of <b>%1</b>. A change applies from now on and is recorded in the audit log.")
                                 .arg(toQString(sandbox.name).toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("&Quota:"), m_quota);
    form->addRow(tr("Archive when i&dle for:"), m_idle);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_quota, &QLineEdit::textChanged, this, &SandboxSettingsDialog::validate);
    connect(m_idle, &QComboBox::currentTextChanged, this, &SandboxSettingsDialog::validate);
    setMinimumWidth(420);
    validate();
}

// The quota typed: nullopt when it does not parse; an empty inner value for none.
std::optional<std::optional<std::uint64_t>> SandboxSettingsDialog::quota() const
{
    const QString text = m_quota->text().trimmed();
    if (text.isEmpty())
        return std::optional<std::uint64_t>{};
    auto bytes = sb::parseSizeBytes(toStdString(text));
    if (!bytes)
        return std::nullopt;
    return std::optional<std::uint64_t>{*bytes};
}

std::optional<std::optional<std::int64_t>> SandboxSettingsDialog::idle() const
{
    const QString text = m_idle->currentText().trimmed();
    if (text.isEmpty() || text == NewSandboxDialog::tr("never"))
        return std::optional<std::int64_t>{};
    auto ms = sb::parseLifetimeMs(toStdString(text));
    if (!ms)
        return std::nullopt;
    return std::optional<std::int64_t>{*ms};
}

void SandboxSettingsDialog::validate()
{
    QString problem;
    if (!quota())
        problem = toQString(sb::parseSizeBytes(toStdString(m_quota->text().trimmed())).error().message);
    else if (!idle())
        problem = toQString(sb::parseLifetimeMs(toStdString(m_idle->currentText().trimmed())).error().message);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    const auto s = settings();
    const bool changed = s.quotaBytes || s.idleTimeoutMs;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty() && changed);
}

sb::SandboxSettings SandboxSettingsDialog::settings() const
{
    sb::SandboxSettings settings;
    settings.name = m_sandbox.name;
    if (const auto q = quota(); q && *q != m_sandbox.quotaBytes)
        settings.quotaBytes = *q;
    if (const auto i = idle(); i && m_idle->isEnabled() && *i != m_sandbox.idleTimeoutMs)
        settings.idleTimeoutMs = *i;
    return settings;
}

} // namespace sb::ui
