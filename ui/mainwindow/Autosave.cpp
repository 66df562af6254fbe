#include "ui/mainwindow/Autosave.h"

#include "ui/editor/CodeEditor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLockFile>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

namespace sb::ui {

namespace {

QString languageName(sb::Language language)
{
    return language == sb::Language::Shell ? QStringLiteral("shell") : QStringLiteral("python");
}

// The lock that says a recovery file's window is alive: snippet-ID.json's is snippet-ID.lock.
QString lockPathOf(const QString& recoveryFile)
{
    QString path = recoveryFile;
    path.chop(static_cast<qsizetype>(sizeof(".json") - 1));
    return path + QStringLiteral(".lock");
}

std::optional<RecoveredSnippet> readRecovery(const QString& path)
{
    QFile file(path);
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

} // namespace

Autosave::Autosave(CodeEditor* editor, std::function<QString()> currentFile, QObject* parent)
    : QObject(parent)
    , m_editor(editor)
    , m_currentFile(std::move(currentFile))
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_path = recoveryFolder() + QStringLiteral("/snippet-%1.json").arg(id);
    // Held from the start, so that no other window takes this one's file for an orphan. Without it (a folder
    // that cannot be written) the writes below fail and say so.
    if (QDir().mkpath(recoveryFolder())) {
        m_lock = std::make_unique<QLockFile>(lockPathOf(m_path));
        m_lock->setStaleLockTime(0); // only a dead owner makes it stale, never its age
        m_lock->tryLock(0);
    }
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
        if (!modified) {
            m_timer.stop();
            discard();
        }
    });
}

Autosave::~Autosave() = default;

QString Autosave::recoveryFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

std::optional<RecoveredSnippet> Autosave::claimOrphan()
{
    const QFileInfoList files = QDir(recoveryFolder())
                                    .entryInfoList({QStringLiteral("snippet*.json")}, QDir::Files, QDir::Time);
    for (const QFileInfo& info : files) { // newest first
        const QString path = info.absoluteFilePath();
        if (path == m_path || path == m_claimedPath)
            continue;
        auto claim = std::make_unique<QLockFile>(lockPathOf(path));
        claim->setStaleLockTime(0);
        if (!claim->tryLock(0))
            continue; // its window is alive, or another new window claimed it
        auto snippet = readRecovery(path);
        if (!snippet)
            continue; // not one that can be offered; its lock goes with `claim`
        m_claim = std::move(claim);
        m_claimedPath = path;
        return snippet;
    }
    return std::nullopt;
}

void Autosave::settleClaim()
{
    if (m_claimedPath.isEmpty())
        return;
    QFile::remove(m_claimedPath);
    m_claim.reset();
    m_claimedPath.clear();
}

void Autosave::changed()
{
    // At most kDelayMs after the first change of a burst, not only once typing stops.
    if (m_editor->isModified() && !m_timer.isActive())
        m_timer.start();
}

bool Autosave::writeNow()
{
    if (!m_editor->isModified())
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
