#include "ui/mainwindow/Autosave.h"

#include "ui/editor/CodeEditor.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace sb::ui {

namespace {

QString languageName(sb::Language language)
{
    return language == sb::Language::Shell ? QStringLiteral("shell") : QStringLiteral("python");
}

} // namespace

Autosave::Autosave(CodeEditor* editor, std::function<QString()> currentFile, QObject* parent)
    : QObject(parent)
    , m_editor(editor)
    , m_currentFile(std::move(currentFile))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDelayMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (!writeNow() && !m_failing) {
            m_failing = true;
            emit failed(m_error);
        }
    });
    connect(m_editor, &QsciScintilla::textChanged, this, &Autosave::changed);
    // Saved (or reverted to what is on disk): nothing is left to recover.
    connect(m_editor, &QsciScintilla::modificationChanged, this, [this](bool modified) {
        if (!modified && !m_held) {
            m_timer.stop();
            discard();
        }
    });
}

QString Autosave::recoveryPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery/snippet.json");
}

std::optional<RecoveredSnippet> Autosave::pending()
{
    QFile file(recoveryPath());
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    if (!json.value(QStringLiteral("text")).isString())
        return std::nullopt;
    RecoveredSnippet snippet;
    snippet.text = json.value(QStringLiteral("text")).toString();
    snippet.path = json.value(QStringLiteral("path")).toString();
    snippet.language = json.value(QStringLiteral("language")).toString() == QLatin1String("shell")
                           ? sb::Language::Shell
                           : sb::Language::Python;
    return snippet;
}

void Autosave::setHeld(bool held)
{
    m_held = held;
    if (!held && m_editor->isModified())
        changed();
}

void Autosave::changed()
{
    // At most kDelayMs after the first change of a burst, not only once typing stops.
    if (!m_held && m_editor->isModified() && !m_timer.isActive())
        m_timer.start();
}

bool Autosave::writeNow()
{
    if (m_held || !m_editor->isModified())
        return true;
    const QString path = recoveryPath();
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        m_error = tr("Cannot make the folder of %1").arg(path);
        return false;
    }
    const QJsonObject json{{QStringLiteral("text"), m_editor->text()},
                           {QStringLiteral("path"), m_currentFile()},
                           {QStringLiteral("language"), languageName(m_editor->language())}};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(json).toJson()) < 0 || !file.commit()) {
        m_error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    m_failing = false;
    m_error.clear();
    return true;
}

void Autosave::discard()
{
    m_timer.stop();
    QFile::remove(recoveryPath());
}

RecoveryBar::RecoveryBar(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("recoveryBar"));
    setStyleSheet(QStringLiteral("#recoveryBar { background: #fff8c5; border: 1px solid #e9d67a; border-radius: 4px; }"
                                 "#recoveryBar QLabel { color: #3d3000; }"));
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("recoveryLabel"));
    m_label->setWordWrap(true);
    auto* restore = new QPushButton(tr("&Restore"), this);
    restore->setObjectName(QStringLiteral("recoveryRestore"));
    auto* discard = new QPushButton(tr("D&iscard"), this);
    discard->setObjectName(QStringLiteral("recoveryDiscard"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 6, 4);
    layout->addWidget(m_label, 1);
    layout->addWidget(restore);
    layout->addWidget(discard);
    connect(restore, &QPushButton::clicked, this, [this] {
        hide();
        emit restoreRequested();
    });
    connect(discard, &QPushButton::clicked, this, [this] {
        hide();
        emit discardRequested();
    });
    hide();
}

void RecoveryBar::offer(const RecoveredSnippet& snippet)
{
    const int lines = static_cast<int>(snippet.text.count(QLatin1Char('\n')))
                      + (snippet.text.endsWith(QLatin1Char('\n')) ? 0 : 1);
    m_label->setText(snippet.path.isEmpty()
                         ? tr("The last session left an untitled snippet unsaved (%n line(s)). Restore it?", nullptr,
                              lines)
                         : tr("The last session left changes to %1 unsaved (%n line(s)). Restore them?", nullptr, lines)
                               .arg(QFileInfo(snippet.path).fileName()));
    m_label->setToolTip(snippet.path);
    show();
}

} // namespace sb::ui
