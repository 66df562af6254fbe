#include "ui/mainwindow/OutputPane.h"

#include "ui/models/Conversions.h"
#include "ui/models/MetricsChartData.h"
#include "ui/style/OutcomeStyle.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

const QColor kIdleGrey(0x9a, 0xa0, 0xa6);
const QColor kRunningBlue(0x34, 0x6f, 0xc2);
const QColor kHeading(0x5f, 0x66, 0x6d);
const QColor kStderr(0xb0, 0x3a, 0x2e);
const QColor kBlocked(0x8e, 0x44, 0xad);

} // namespace

OutputPane::OutputPane(QWidget* parent)
    : QWidget(parent)
    , m_badge(new QLabel(this))
    , m_timings(new QLabel(this))
    , m_layers(new QLabel(this))
    , m_message(new QLabel(this))
    , m_output(new QPlainTextEdit(this))
{
    m_badge->setObjectName(QStringLiteral("outcomeBadge"));
    m_badge->setAlignment(Qt::AlignCenter);
    m_badge->setMinimumWidth(110);
    m_timings->setObjectName(QStringLiteral("timingsLabel"));
    m_timings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_layers->setObjectName(QStringLiteral("layersLabel"));
    m_layers->setTextFormat(Qt::RichText);
    m_layers->setWordWrap(true); // a strict run lists many layers; never let them widen the window
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #5f666d;"));

    m_output->setObjectName(QStringLiteral("outputView"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_output->setMaximumBlockCount(20000);
    m_output->setPlaceholderText(tr("Output of the run appears here. Press Ctrl+Return to run the snippet."));

    auto* header = new QHBoxLayout;
    header->setSpacing(12);
    header->addWidget(m_badge);
    header->addWidget(m_timings, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addLayout(header);
    layout->addWidget(m_layers);
    layout->addWidget(m_message);
    layout->addWidget(m_output, 1);

    showIdle();
}

void OutputPane::setBadge(const QString& text, const QColor& background, const QColor& foreground)
{
    m_badge->setText(text);
    m_badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: 10px;"
                                          " padding: 3px 12px; font-weight: bold; }")
                               .arg(background.name(), foreground.name()));
}

void OutputPane::showIdle()
{
    setBadge(tr("no run yet"), kIdleGrey, Qt::white);
    m_timings->setText(tr("Run a snippet to see its outcome, timings and isolation layers."));
    m_layers->clear();
    m_layers->hide();
    m_message->hide();
}

void OutputPane::showRunning(const QString& label)
{
    setBadge(tr("running…"), kRunningBlue, Qt::white);
    m_timings->setText(label.isEmpty() ? tr("Running in the sandbox…") : tr("Running %1 in the sandbox…").arg(label));
    m_layers->clear();
    m_layers->hide();
    m_message->hide();
}

void OutputPane::setHeader(const sb::RunResult& result)
{
    setBadge(outcomeName(result.outcome), outcomeColor(result.outcome), outcomeTextColor(result.outcome));
    QString timings = tr("Duration %1 · CPU %2 · Peak RSS %3")
                          .arg(formatDuration(result.durationMs), formatDuration(result.cpuMs),
                               formatKilobytes(result.peakRssKb));
    if (result.exitCode >= 0)
        timings += QStringLiteral(" · ") + tr("exit %1").arg(result.exitCode);
    else if (result.signal > 0)
        timings += QStringLiteral(" · ") + tr("signal %1").arg(result.signal);
    m_timings->setText(timings);

    QStringList chips;
    for (const auto& [name, active] : result.isolation.layers) {
        chips << QStringLiteral("<span style=\"color:%1\">%2&nbsp;%3</span>")
                     .arg(active ? QStringLiteral("#2e9d5b") : QStringLiteral("#9aa0a6"),
                          active ? QStringLiteral("✔") : QStringLiteral("✘"), toQString(name).toHtmlEscaped());
    }
    const QString level = toQString(sb::toString(result.isolation.level));
    m_layers->setText(chips.isEmpty() ? QString()
                                      : tr("<b>%1</b> isolation: %2").arg(level, chips.join(QStringLiteral(" &nbsp;"))));
    m_layers->setToolTip(tr("The isolation layers this run really had"));
    m_layers->setVisible(!chips.isEmpty());

    m_message->setText(toQString(result.message));
    m_message->setVisible(!result.message.empty());
}

void OutputPane::appendSection(const QString& title, const QString& body, const QColor& color)
{
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat heading;
    heading.setForeground(kHeading);
    heading.setFontWeight(QFont::Bold);
    if (!m_output->document()->isEmpty())
        cursor.insertBlock();
    cursor.insertText(QStringLiteral("── ") + title + QStringLiteral(" ──"), heading);
    QTextCharFormat text;
    text.setForeground(color);
    cursor.insertBlock();
    cursor.insertText(body, text);
}

void OutputPane::showResult(const sb::RunResult& result)
{
    setHeader(result);
    m_output->clear();

    QString out = toQString(result.stdoutText);
    if (result.stdoutTruncated)
        out += QLatin1Char('\n') + tr("[output truncated]");
    appendSection(tr("stdout"), out.isEmpty() ? tr("(empty)") : out, QColor(0x1f, 0x23, 0x28));
    if (!result.stderrText.empty() || result.stderrTruncated) {
        QString err = toQString(result.stderrText);
        if (result.stderrTruncated)
            err += QLatin1Char('\n') + tr("[output truncated]");
        appendSection(tr("stderr"), err, kStderr);
    }
    if (!result.blocked.empty()) {
        QStringList lines;
        for (const auto& event : result.blocked)
            lines << toQString(event.kind) + QStringLiteral(": ") + toQString(event.detail);
        appendSection(tr("blocked"), lines.join(QLatin1Char('\n')), kBlocked);
    }
    if (!result.claims.empty()) {
        // The program's own word, shown apart from what the sandbox observed, and never as a verdict.
        QStringList lines;
        for (const auto& claim : result.claims)
            lines << toQString(claim.kind) + QStringLiteral(": ") + toQString(claim.detail);
        appendSection(tr("the program says (not observed by the sandbox)"), lines.join(QLatin1Char('\n')), kStderr);
    }
    m_output->moveCursor(QTextCursor::Start);
}

void OutputPane::beginLog(const QString& title)
{
    m_output->clear();
    appendSection(title, QString(), kHeading);
}

void OutputPane::appendLogLine(const sb::RunResult& result, const QString& label, bool expected)
{
    setHeader(result);
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat mark;
    mark.setForeground(expected ? outcomeColor(sb::Outcome::Ok) : outcomeColor(sb::Outcome::Crashed));
    mark.setFontWeight(QFont::Bold);
    cursor.insertBlock();
    cursor.insertText(expected ? QStringLiteral("✔ ") : QStringLiteral("✘ "), mark);
    QTextCharFormat plain;
    cursor.insertText(label.leftJustified(26) + QLatin1Char(' '), plain);
    QTextCharFormat outcome;
    outcome.setForeground(outcomeColor(result.outcome).darker(115));
    outcome.setFontWeight(QFont::Bold);
    cursor.insertText(outcomeName(result.outcome).leftJustified(15), outcome);
    QTextCharFormat detail;
    detail.setForeground(kHeading);
    QString line = formatDuration(result.durationMs).rightJustified(10);
    if (!result.blocked.empty())
        line += QStringLiteral("   ") + toQString(result.blocked.front().kind) + QStringLiteral(": ") + toQString(result.blocked.front().detail);
    else if (!result.message.empty())
        line += QStringLiteral("   ") + toQString(result.message);
    cursor.insertText(line, detail);
    m_output->ensureCursorVisible();
}

void OutputPane::appendNote(const QString& text)
{
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    format.setForeground(kHeading);
    format.setFontItalic(true);
    cursor.insertBlock();
    cursor.insertText(text, format);
    m_output->setTextCursor(cursor);
    m_output->ensureCursorVisible();
}

} // namespace sb::ui
