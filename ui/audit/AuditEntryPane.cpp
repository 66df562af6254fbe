#include "ui/audit/AuditEntryPane.h"

#include "ui/models/AuditLogModel.h"
#include "ui/models/Conversions.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace sb::ui {

namespace {

// Values come from the file, which anyone may have edited: shown escaped, never as markup.
QString shown(std::string_view value, std::size_t maxChars = std::string_view::npos)
{
    return toQString(sb::printable(value, maxChars)).toHtmlEscaped();
}

// The details indented, keys in order; text that is not JSON (a hand edit) as it is stored.
QString prettyDetails(const std::string& details)
{
    const auto json = nlohmann::json::parse(details, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded())
        return shown(details);
    // Printable per line, so that an escape in a value cannot reach the pane while the layout stays.
    const std::string text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    QStringList lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines << shown(std::string_view(text).substr(start, end - start));
        start = end + 1;
    }
    return lines.join(QLatin1Char('\n'));
}

QString openText(const QString& kind)
{
    if (kind == QLatin1String("run"))
        return AuditEntryPane::tr("Open run");
    if (kind == QLatin1String("checkpoint"))
        return AuditEntryPane::tr("Open checkpoint");
    if (kind == QLatin1String("session"))
        return AuditEntryPane::tr("Open session");
    return AuditEntryPane::tr("Open sandbox");
}

} // namespace

AuditEntryPane::AuditEntryPane(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_open(new QPushButton(this))
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("auditDetailPane"));
    m_title->setObjectName(QStringLiteral("auditDetailTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_open->setObjectName(QStringLiteral("auditOpenButton"));
    m_open->hide();
    m_text->setObjectName(QStringLiteral("auditDetailText"));
    m_text->setOpenLinks(false);
    m_text->setFrameShape(QFrame::NoFrame);

    // The title on its own line (it wraps); the button under it, never squeezed by a long title.
    auto* actions = new QHBoxLayout;
    actions->setContentsMargins(0, 0, 0, 0);
    actions->addWidget(m_open);
    actions->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 2, 2);
    layout->setSpacing(3);
    layout->addWidget(m_title);
    layout->addLayout(actions);
    layout->addWidget(m_text, 1);

    connect(m_open, &QPushButton::clicked, this, [this] { emit openRequested(m_kind, m_id, m_sandbox); });
    showEntry(nullptr);
}

QString AuditEntryPane::targetKind(sb::AuditSubjectKind kind)
{
    switch (kind) {
    case sb::AuditSubjectKind::Run: return QStringLiteral("run");
    case sb::AuditSubjectKind::Checkpoint: return QStringLiteral("checkpoint");
    case sb::AuditSubjectKind::Session: return QStringLiteral("session");
    case sb::AuditSubjectKind::Sandbox: return QStringLiteral("sandbox");
    default: return {};
    }
}

void AuditEntryPane::showEntry(const AuditRow* row, const QString& breaks)
{
    if (!row) {
        m_kind.clear();
        m_id.clear();
        m_sandbox.clear();
        m_title->setText(tr("No entry selected"));
        m_open->hide();
        m_text->setHtml(QStringLiteral("<p style='color:#5f666d'>%1</p>")
                            .arg(tr("Select an entry to see all its fields, its details and its hashes.")));
        return;
    }
    const sb::AuditRecord& record = row->record;
    const sb::AuditSubject& subject = row->subject;
    m_kind = targetKind(subject.kind);
    m_id = toQString(subject.id);
    m_sandbox = toQString(subject.sandbox);
    m_title->setText(tr("%1 — %2").arg(toQString(sb::printable(record.operation, 64)), toQString(subject.name)));
    m_open->setVisible(!m_kind.isEmpty());
    m_open->setText(openText(m_kind));
    m_open->setToolTip(tr("Show %1 in the window").arg(toQString(subject.name)));

    const QDateTime at = QDateTime::fromMSecsSinceEpoch(record.atMs);
    QString html;
    const QString problem = !record.problem.empty() ? shown(record.problem) : breaks.toHtmlEscaped();
    if (!problem.isEmpty())
        html += QStringLiteral("<p style='color:#8a1c12; background:#fdecea'><b>%1</b> %2</p>")
                    .arg(tr("This entry breaks the chain:"), problem);
    const auto field = [](const QString& name, const QString& value) {
        return QStringLiteral("<tr><td style='color:#5f666d; padding-right:8px'>%1</td><td>%2</td></tr>").arg(name, value);
    };
    const auto mono = [](const QString& value) { return QStringLiteral("<code>%1</code>").arg(value); };
    html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    html += field(tr("Entry"), QLocale().toString(static_cast<qlonglong>(record.seq)));
    html += field(tr("Time"), QLocale().toString(at, QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")) + QStringLiteral(" (")
                                  + toQString(sb::formatIsoUtc(record.atMs)) + QLatin1Char(')'));
    html += field(tr("Actor"), shown(record.actor));
    html += field(tr("Action"), shown(record.operation));
    html += field(tr("Subject"), toQString(subject.name).toHtmlEscaped());
    if (!subject.sandbox.empty())
        html += field(tr("Sandbox"), shown(subject.sandbox));
    if (subject.id != record.subject)
        html += field(tr("Id"), mono(shown(subject.id)));
    html += field(tr("Recorded subject"), mono(shown(record.subject)));
    html += field(tr("Outcome"), AuditLogModel::outcomeText(subject).toHtmlEscaped());
    html += field(tr("Hash"), mono(shown(record.hash)));
    html += field(tr("Previous hash"), mono(shown(record.prevHash)));
    html += field(tr("MAC"), record.mac.empty() ? tr("none (written before the store had a key)") : mono(shown(record.mac)));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p style='margin-bottom:2px'><b>%1</b></p><pre style='margin-top:0; white-space:pre-wrap'>%2</pre>")
                .arg(tr("Details"), prettyDetails(record.details));
    m_text->setHtml(html);
}

QString AuditEntryPane::text() const
{
    return m_title->text() + QLatin1Char('\n') + m_text->toPlainText();
}

} // namespace sb::ui
