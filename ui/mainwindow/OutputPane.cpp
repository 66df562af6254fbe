#include "ui/mainwindow/OutputPane.h"

#include "ui/models/Conversions.h"
#include "ui/models/MetricsChartData.h"
#include "ui/style/OutcomeStyle.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
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
    , m_layerDetails(new QLabel(this))
    , m_message(new QLabel(this))
    , m_output(new QPlainTextEdit(this))
{
    m_badge->setObjectName(QStringLiteral("outcomeBadge"));
    m_badge->setAlignment(Qt::AlignCenter);
    m_badge->setMinimumWidth(110);
    m_timings->setObjectName(QStringLiteral("timingsLabel"));
    m_timings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long line must never hold the editor's column wider than the docks allow: cut, whole in the tooltip.
    m_timings->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_timings->setMinimumWidth(0);
    // One line: the level and how many layers were active; the list itself is a click (or a tooltip) away.
    m_layers->setObjectName(QStringLiteral("layersLabel"));
    m_layers->setTextFormat(Qt::RichText);
    m_layers->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_layers->setAccessibleName(tr("Isolation of the run"));
    connect(m_layers, &QLabel::linkActivated, this, [this] {
        m_layerDetails->setVisible(!m_layerDetails->isVisible());
        showLayerSummary();
    });
    m_layerDetails->setObjectName(QStringLiteral("layerDetailsLabel"));
    m_layerDetails->setTextFormat(Qt::RichText);
    m_layerDetails->setWordWrap(true); // a strict run lists many layers; never let them widen the window
    m_layerDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_output->setObjectName(QStringLiteral("outputView"));
    m_output->setReadOnly(true);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Output is read line by line (tracebacks, the demo's columns): long lines scroll rather than wrap.
    m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_output->setMaximumBlockCount(20000);
    m_output->setPlaceholderText(tr("Output of the run appears here. Press Ctrl+Return to run the snippet."));

    auto* header = new QHBoxLayout;
    header->setSpacing(12);
    header->addWidget(m_badge);
    header->addWidget(m_timings, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addLayout(header);
    layout->addWidget(m_layers);
    layout->addWidget(m_layerDetails);
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

void OutputPane::hideDetails()
{
    m_layerSummary.clear();
    m_layers->clear();
    m_layers->setToolTip(QString());
    m_layers->hide();
    m_layerDetails->clear();
    m_layerDetails->hide();
    m_message->clear();
    m_message->hide();
}

void OutputPane::showIdle()
{
    setBadge(tr("no run yet"), kIdleGrey, Qt::white);
    m_timings->setText(tr("Run a snippet to see its outcome, timings and isolation layers."));
    hideDetails();
}

void OutputPane::showNotStarted(const QString& reason)
{
    setBadge(tr("not run"), kIdleGrey, Qt::white);
    m_timings->setText(reason);
    hideDetails();
}

void OutputPane::showRunning(const QString& label)
{
    setBadge(tr("running…"), kRunningBlue, Qt::white);
    m_timings->setText(label.isEmpty() ? tr("Running in the sandbox…") : tr("Running %1 in the sandbox…").arg(label));
    hideDetails();
}

void OutputPane::showLayerSummary()
{
    const QString link = m_layerDetails->isVisible() ? tr("hide layers") : tr("show layers");
    m_layers->setText(m_layerSummary + QStringLiteral(" · <a href=\"layers\">%1</a>").arg(link));
}

void OutputPane::setLayers(const sb::RunResult& result)
{
    QStringList chips;
    QStringList plain;
    int active = 0;
    for (const auto& [name, on] : result.isolation.layers) {
        active += on ? 1 : 0;
        chips << QStringLiteral("<span style=\"color:%1\">%2&nbsp;%3</span>")
                     .arg(on ? QStringLiteral("#2e9d5b") : QStringLiteral("#9aa0a6"),
                          on ? QStringLiteral("✔") : QStringLiteral("✘"), toQString(name).toHtmlEscaped());
        plain << (on ? QStringLiteral("✔ ") : QStringLiteral("✘ ")) + toQString(name);
    }
    if (chips.isEmpty()) {
        m_layerSummary.clear();
        m_layers->hide();
        m_layerDetails->hide();
        return;
    }
    const QString level = toQString(sb::toString(result.isolation.level)).toHtmlEscaped();
    m_layerSummary = tr("<b>%1</b> isolation · %2 of %3 layers active")
                         .arg(level)
                         .arg(active)
                         .arg(static_cast<int>(chips.size()));
    m_layerDetails->setText(chips.join(QStringLiteral(" &nbsp;")));
    m_layers->setToolTip(tr("The isolation layers this run really had:") + QLatin1Char('\n')
                         + plain.join(QLatin1Char('\n')));
    showLayerSummary();
    m_layers->show();
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
    m_timings->setToolTip(timings);
    setLayers(result);

    // A blocked run's key line comes first: what the sandbox stopped, then the runner's word on it.
    QStringList message;
    if (!result.blocked.empty()) {
        const auto& first = result.blocked.front();
        QString line = tr("Blocked %1: %2").arg(toQString(first.kind), toQString(first.detail));
        if (result.blocked.size() > 1)
            line += QStringLiteral(" ") + tr("(and %n more)", nullptr, static_cast<int>(result.blocked.size() - 1));
        message << line;
    }
    if (!result.message.empty())
        message << messageText(result.message);
    m_message->setText(message.join(QLatin1Char('\n')));
    m_message->setStyleSheet(result.blocked.empty() ? QStringLiteral("color: %1;").arg(kHeading.name())
                                                    : QStringLiteral("color: %1; font-weight: bold;").arg(kBlocked.name()));
    m_message->setVisible(!message.isEmpty());
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

    // What the sandbox stopped first: it is why a blocked run ended, and stdout may be long.
    if (!result.blocked.empty()) {
        QStringList lines;
        for (const auto& event : result.blocked)
            lines << toQString(event.kind) + QStringLiteral(": ") + toQString(event.detail);
        appendSection(tr("blocked"), lines.join(QLatin1Char('\n')), kBlocked);
    }
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
    setBadge(tr("demo…"), kRunningBlue, Qt::white);
    m_timings->setText(title);
    hideDetails();
    m_output->clear();
    // The title alone: the cases' lines follow it directly.
    QTextCharFormat heading;
    heading.setForeground(kHeading);
    heading.setFontWeight(QFont::Bold);
    QTextCursor(m_output->document()).insertText(QStringLiteral("── ") + title + QStringLiteral(" ──"), heading);
}

void OutputPane::appendLogLine(const sb::RunResult& result, const QString& label, bool expected)
{
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
        line += QStringLiteral("   ") + messageText(result.message);
    cursor.insertText(line, detail);
    followLog();
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
    followLog();
}

void OutputPane::followLog()
{
    // The newest line in view, read from its start: a long line's end would scroll every line's beginning away.
    m_output->ensureCursorVisible();
    m_output->horizontalScrollBar()->setValue(0);
}

void OutputPane::finishLog(const QString& summary)
{
    setBadge(tr("demo"), kIdleGrey, Qt::white);
    m_timings->setText(summary);
    hideDetails();
    m_message->setText(tr("The log below is the demo's; the snippet in the editor has not run."));
    m_message->setStyleSheet(QStringLiteral("color: %1;").arg(kHeading.name()));
    m_message->show();
}

} // namespace sb::ui
