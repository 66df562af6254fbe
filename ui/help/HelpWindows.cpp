#include "ui/help/HelpWindows.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDirIterator>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QMap>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::ui {

namespace {

// Screenshots are taken at 1440 px; in the browser they are shown no wider than this.
constexpr int kMaxImageWidth = 860;

// The built-in documents, README first, then by path.
QStringList documents()
{
    QStringList paths;
    QDirIterator it(DocsBrowser::root(), {QStringLiteral("*.md")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        paths << it.next().mid(DocsBrowser::root().size());
    std::sort(paths.begin(), paths.end(), [](const QString& a, const QString& b) {
        const bool aReadme = a == QLatin1String("README.md");
        const bool bReadme = b == QLatin1String("README.md");
        return aReadme != bReadme ? aReadme : a < b;
    });
    return paths;
}

// The images of the shown document scaled to fit kMaxImageWidth, keeping their proportions.
void fitImages(QTextDocument* document)
{
    QTextCursor cursor(document);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            if (!image.isValid())
                continue;
            const QVariant loaded = document->resource(QTextDocument::ImageResource, QUrl(image.name()));
            const QImage original = loaded.value<QImage>();
            if (original.isNull() || original.width() <= kMaxImageWidth)
                continue;
            image.setWidth(kMaxImageWidth);
            image.setHeight(static_cast<double>(original.height()) * kMaxImageWidth / original.width());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
    }
}

} // namespace

QString DocsBrowser::root()
{
    return QStringLiteral(":/manual/");
}

DocsBrowser::DocsBrowser(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("docsBrowser"));
    setWindowTitle(tr("Sandbench documentation"));
    setWindowFlag(Qt::WindowMaximizeButtonHint);
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_back = new QToolButton(this);
    m_back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_back->setToolTip(tr("Back"));
    m_back->setAccessibleName(tr("Back"));
    m_forward = new QToolButton(this);
    m_forward->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    m_forward->setToolTip(tr("Forward"));
    m_forward->setAccessibleName(tr("Forward"));
    auto* contents = new QComboBox(this);
    contents->setObjectName(QStringLiteral("docsContents"));
    contents->setAccessibleName(tr("Document"));
    contents->addItems(documents());
    bar->addWidget(m_back);
    bar->addWidget(m_forward);
    bar->addWidget(new QLabel(tr("Document:"), this));
    bar->addWidget(contents, 1);
    layout->addLayout(bar);

    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("docsText"));
    m_browser->setOpenLinks(false);
    layout->addWidget(m_browser, 1);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("docsNote"));
    m_note->setWordWrap(true);
    m_note->hide();
    layout->addWidget(m_note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_back->setEnabled(false);
    m_forward->setEnabled(false);
    connect(m_back, &QToolButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_forward, &QToolButton::clicked, m_browser, &QTextBrowser::forward);
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QToolButton::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, m_forward, &QToolButton::setEnabled);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &DocsBrowser::follow);
    m_contents = contents;
    connect(m_browser, &QTextBrowser::sourceChanged, this, &DocsBrowser::shown);
    connect(contents, &QComboBox::textActivated, this, [this](const QString& path) { openDocument(path); });
    resize(980, 760);
    openDocument(QStringLiteral("README.md"));
}

QString DocsBrowser::currentPath() const
{
    const QString path = m_browser->source().path(); // "/manual/docs/CLI.md"
    const QString prefix = root().mid(1);              // "/manual/"
    return path.startsWith(prefix) ? path.mid(prefix.size()) : QString();
}

QString DocsBrowser::noteText() const
{
    return m_note->isVisible() ? m_note->text() : QString();
}

bool DocsBrowser::openDocument(const QString& path)
{
    const QString clean = QDir::cleanPath(path);
    if (clean.startsWith(QLatin1String("..")) || !QFileInfo::exists(root() + clean)) {
        m_note->setText(tr("%1 is not part of the documentation built into Sandbench; it is in the source tree.").arg(path));
        m_note->show();
        return false;
    }
    m_note->hide();
    m_browser->setSource(QUrl(QStringLiteral("qrc") + root() + clean), QTextDocument::MarkdownResource);
    shown();
    return true;
}

void DocsBrowser::shown()
{
    fitImages(m_browser->document());
    const QSignalBlocker blocker(m_contents);
    m_contents->setCurrentIndex(m_contents->findText(currentPath()));
}

void DocsBrowser::follow(const QUrl& url)
{
    if (!url.scheme().isEmpty() && url.scheme() != QLatin1String("qrc")) {
        QDesktopServices::openUrl(url);
        return;
    }
    if (url.path().isEmpty()) // an anchor of this document: Markdown headings have none to scroll to
        return;
    const QUrl resolved = m_browser->source().resolved(url);
    const QString prefix = root().mid(1);
    const QString path = resolved.path().startsWith(prefix) ? resolved.path().mid(prefix.size()) : url.path();
    if (!path.endsWith(QLatin1String(".md"))) {
        m_note->setText(tr("%1 is not part of the documentation built into Sandbench; it is in the source tree.")
                            .arg(path));
        m_note->show();
        return;
    }
    openDocument(path);
}

ShortcutsDialog::ShortcutsDialog(QWidget* window, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    QMap<QString, QString> rows; // by what the action does: one row each
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcut().isEmpty() || action->text().isEmpty())
            continue;
        QString text = action->text();
        text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
        text.remove(QRegularExpression(QStringLiteral("\\(&?\\w\\)$"))); // 文件(&F): the accelerator's mark
        text = text.trimmed();
        QStringList keys;
        for (const QKeySequence& sequence : action->shortcuts())
            keys << sequence.toString(QKeySequence::NativeText);
        rows.insert(text, keys.join(QStringLiteral(", ")));
    }
    auto* layout = new QVBoxLayout(this);
    m_table = new QTableWidget(static_cast<int>(rows.size()), 2, this);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    int row = 0;
    for (auto it = rows.cbegin(); it != rows.cend(); ++it, ++row) {
        m_table->setItem(row, 0, new QTableWidgetItem(it.key()));
        m_table->setItem(row, 1, new QTableWidgetItem(it.value()));
    }
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    layout->addWidget(m_table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(520, 520);
}

} // namespace sb::ui
