#pragma once
// The rule-set editor: CodeEditor with Sandbench's rules lexer, checked as you type. A short pause after the
// last keystroke runs the rule-set checker (parse and compile against the dataset's fields when one is
// loaded): at once for a rule set of the usual size (a few hundred microseconds), off the GUI thread for a
// large one, whose result is dropped if the text changed meanwhile. Each error or warning is underlined where
// it points, marked in the margin and explained in a tooltip.

#include "ui/editor/CodeEditor.h"

#include "rules/ruleset.h"
#include "rules/schema.h"

#include <QString>

#include <optional>
#include <vector>

class QTimer;

namespace sb::ui {

class RulesLexer;

struct EditorDiagnostic {
    sb::rules::Severity severity = sb::rules::Severity::Error;
    int line = 0;     // 0-based
    int position = 0; // byte position in the document
    int length = 1;
    QString message; // "3:12: error: undeclared reference to 'amout'"
};

class RuleSetEditor : public CodeEditor {
    Q_OBJECT
public:
    explicit RuleSetEditor(QWidget* parent = nullptr);

    // The dataset's fields the conditions are checked against; empty: the rule set's own `fields:`.
    void setSchema(std::optional<sb::rules::Schema> schema);
    // Warnings an evaluation found for exactly this text (shadowed rules, conditions failing on records):
    // shown with the checker's until the text changes.
    void setDataDiagnostics(const QString& text, std::vector<sb::rules::Diagnostic> diagnostics);
    // Checks now instead of after the pause (a large text: starts the check; checked() follows).
    void checkNow();
    // A check of a large text is running off the GUI thread.
    bool isChecking() const { return m_checking; }
    const std::vector<EditorDiagnostic>& diagnostics() const { return m_diagnostics; }
    // The message of the diagnostic underlined at `position`, if any.
    QString diagnosticAt(int position) const;
    // Whether the error indicator covers `position`.
    bool hasErrorIndicatorAt(int position) const;

signals:
    void checked(int errors, int warnings);

private:
    void showChecked(std::vector<sb::rules::Diagnostic> all, const QString& checkedText);
    void showDiagnostics(const std::vector<sb::rules::Diagnostic>& diagnostics);

    RulesLexer* m_lexer = nullptr;
    QTimer* m_checkTimer = nullptr;
    std::optional<sb::rules::Schema> m_schema;
    std::vector<EditorDiagnostic> m_diagnostics;
    QString m_dataText;
    std::vector<sb::rules::Diagnostic> m_dataDiagnostics;
    quint64 m_checkGeneration = 0;
    bool m_checking = false;
    int m_errorIndicator = 0;
    int m_warningIndicator = 0;
    int m_errorMarker = 0;
    int m_warningMarker = 0;
};

} // namespace sb::ui
