#include "ui/rules/RuleSetEditor.h"

#include "ui/models/Conversions.h"
#include "ui/rules/RulesLexer.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QToolTip>
#include <QtConcurrent/QtConcurrentRun>

#include <cctype>

namespace sb::ui {

namespace {

constexpr int kCheckDelayMs = 300;
// Rule sets up to this size (a few hundred rules) are checked at once, in well under a millisecond; larger
// ones off the GUI thread, so typing never waits for the checker.
constexpr qsizetype kInlineCheckChars = 32 * 1024;
constexpr int kMarkerMargin = 1;
const QColor kErrorColor(0xc0, 0x39, 0x2b);
const QColor kWarningColor(0xd9, 0x8c, 0x00);

// The checker's findings for a rule-set text: parse, then compile against the dataset's fields.
std::vector<sb::rules::Diagnostic> checkRuleSetText(const std::string& text,
                                                    const std::optional<sb::rules::Schema>& schema)
{
    auto parsed = sb::rules::parseRuleSet(text, "rules.yaml");
    std::vector<sb::rules::Diagnostic> all = parsed.diagnostics;
    if (!parsed.hasErrors()) {
        auto compiled = sb::rules::compileRuleSet(parsed.ruleSet, schema ? &*schema : nullptr);
        all.insert(all.end(), compiled.diagnostics.begin(), compiled.diagnostics.end());
    }
    return all;
}

bool isWordByte(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (static_cast<unsigned char>(c) & 0x80);
}

} // namespace

RuleSetEditor::RuleSetEditor(QWidget* parent)
    : CodeEditor(parent)
    , m_lexer(new RulesLexer(this))
    , m_checkTimer(new QTimer(this))
{
    setIndentationWidth(2);
    setTabWidth(2);
    applyStyle(m_lexer);
    m_lexer->applyPalette(font());
    setLexer(m_lexer);
    restoreChrome();

    m_errorIndicator = indicatorDefine(SquiggleIndicator);
    setIndicatorForegroundColor(kErrorColor, m_errorIndicator);
    m_warningIndicator = indicatorDefine(SquiggleIndicator);
    setIndicatorForegroundColor(kWarningColor, m_warningIndicator);
    m_errorMarker = markerDefine(QsciScintilla::Circle);
    setMarkerBackgroundColor(kErrorColor, m_errorMarker);
    setMarkerForegroundColor(kErrorColor, m_errorMarker);
    m_warningMarker = markerDefine(QsciScintilla::Circle);
    setMarkerBackgroundColor(kWarningColor, m_warningMarker);
    setMarkerForegroundColor(kWarningColor, m_warningMarker);
    setMarginMarkerMask(kMarkerMargin, marginMarkerMask(kMarkerMargin) | (1 << m_errorMarker) | (1 << m_warningMarker));

    // Tooltips: the message of the diagnostic under the mouse.
    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintilla::SCN_DWELLSTART, this, [this](int position, int x, int y) {
        QString message = diagnosticAt(position);
        if (message.isEmpty() && position >= 0) {
            const int line = static_cast<int>(SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(position)));
            for (const auto& d : m_diagnostics) {
                if (d.line == line)
                    message += (message.isEmpty() ? QString() : QStringLiteral("\n")) + d.message;
            }
        }
        if (!message.isEmpty())
            QToolTip::showText(mapToGlobal(QPoint(x, y)), message, this);
    });
    connect(this, &QsciScintilla::SCN_DWELLEND, this, [] { QToolTip::hideText(); });

    m_checkTimer->setSingleShot(true);
    m_checkTimer->setInterval(kCheckDelayMs);
    connect(m_checkTimer, &QTimer::timeout, this, &RuleSetEditor::checkNow);
    connect(this, &QsciScintilla::textChanged, m_checkTimer, qOverload<>(&QTimer::start));
}

void RuleSetEditor::setSchema(std::optional<sb::rules::Schema> schema)
{
    m_schema = std::move(schema);
    checkNow();
}

void RuleSetEditor::checkNow()
{
    m_checkTimer->stop();
    const quint64 generation = ++m_checkGeneration;
    const QString current = this->text();
    if (current.size() <= kInlineCheckChars) {
        showChecked(checkRuleSetText(toStdString(current), m_schema), current);
        return;
    }
    m_checking = true;
    auto* watcher = new QFutureWatcher<std::vector<sb::rules::Diagnostic>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, current] {
        watcher->deleteLater();
        if (generation != m_checkGeneration)
            return; // the text (or the schema) changed meanwhile: a newer check is on its way
        showChecked(watcher->result(), current);
    });
    watcher->setFuture(QtConcurrent::run(
        [text = toStdString(current), schema = m_schema] { return checkRuleSetText(text, schema); }));
}

void RuleSetEditor::showChecked(std::vector<sb::rules::Diagnostic> all, const QString& checkedText)
{
    m_checking = false;
    if (!m_dataDiagnostics.empty() && m_dataText == checkedText)
        all.insert(all.end(), m_dataDiagnostics.begin(), m_dataDiagnostics.end());
    sb::rules::sortDiagnostics(all);
    showDiagnostics(all);
}

void RuleSetEditor::setDataDiagnostics(const QString& text, std::vector<sb::rules::Diagnostic> diagnostics)
{
    m_dataText = text;
    m_dataDiagnostics = std::move(diagnostics);
    checkNow();
}

void RuleSetEditor::showDiagnostics(const std::vector<sb::rules::Diagnostic>& diagnostics)
{
    const int length = static_cast<int>(SendScintilla(SCI_GETLENGTH));
    for (int indicator : {m_errorIndicator, m_warningIndicator}) {
        SendScintilla(SCI_SETINDICATORCURRENT, static_cast<unsigned long>(indicator));
        SendScintilla(SCI_INDICATORCLEARRANGE, 0ul, static_cast<long>(length));
    }
    markerDeleteAll(m_errorMarker);
    markerDeleteAll(m_warningMarker);
    m_diagnostics.clear();

    const QByteArray bytes = text().toUtf8();
    int errors = 0;
    int warnings = 0;
    for (const auto& d : diagnostics) {
        const bool error = d.severity == sb::rules::Severity::Error;
        (error ? errors : warnings) += 1;
        EditorDiagnostic e;
        e.severity = d.severity;
        const QString severity = error ? tr("error") : tr("warning");
        e.message = d.pos.line > 0 ? QStringLiteral("%1:%2: %3: %4").arg(d.pos.line).arg(d.pos.column).arg(severity, toQString(d.message))
                                   : QStringLiteral("%1: %2").arg(severity, toQString(d.message));
        const int line = std::max(0, std::min(d.pos.line - 1, lines() - 1));
        e.line = line;
        const int lineStart = static_cast<int>(SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(line)));
        const int lineEnd = static_cast<int>(SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(line)));
        // The column counts code points: walk the line's UTF-8 bytes.
        int pos = lineStart;
        for (int col = 1; col < std::max(1, d.pos.column) && pos < lineEnd; ++col) {
            ++pos;
            while (pos < lineEnd && (static_cast<unsigned char>(bytes[pos]) & 0xC0) == 0x80)
                ++pos;
        }
        if (d.pos.column <= 0) { // no column: the line's text
            while (pos < lineEnd && bytes[pos] == ' ')
                ++pos;
        }
        int end = pos;
        while (end < lineEnd && isWordByte(bytes[end]))
            ++end;
        if (end == pos)
            end = d.pos.column <= 0 ? lineEnd : std::min(lineEnd, pos + 1);
        if (end == pos && pos > lineStart) // at the end of the line: the character before
            --pos;
        e.position = pos;
        e.length = std::max(1, end - pos);
        SendScintilla(SCI_SETINDICATORCURRENT, static_cast<unsigned long>(error ? m_errorIndicator : m_warningIndicator));
        SendScintilla(SCI_INDICATORFILLRANGE, static_cast<unsigned long>(e.position), static_cast<long>(e.length));
        markerAdd(line, error ? m_errorMarker : m_warningMarker);
        m_diagnostics.push_back(std::move(e));
    }
    emit checked(errors, warnings);
}

QString RuleSetEditor::diagnosticAt(int position) const
{
    QString out;
    for (const auto& d : m_diagnostics) {
        if (position >= d.position && position < d.position + d.length)
            out += (out.isEmpty() ? QString() : QStringLiteral("\n")) + d.message;
    }
    return out;
}

bool RuleSetEditor::hasErrorIndicatorAt(int position) const
{
    return const_cast<RuleSetEditor*>(this)->SendScintilla(SCI_INDICATORVALUEAT, static_cast<unsigned long>(m_errorIndicator),
                                                           static_cast<long>(position)) != 0;
}

} // namespace sb::ui
