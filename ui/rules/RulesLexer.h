#pragma once
// Sandbench's own QScintilla lexer for rule sets: YAML keys, comments, strings and numbers, and inside
// `when:` conditions the CEL tokens of core/cel (cel/lexer.h), so what the editor colours is what the
// rule engine reads.

#include <Qsci/qscilexercustom.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace sb::ui {

class RulesLexer : public QsciLexerCustom {
    Q_OBJECT
public:
    enum Style : std::uint8_t {
        Default,
        Comment,
        Key,
        String,
        Number,
        Punctuation, // YAML's '-', ':', '[', ']'
        CelIdentifier,
        CelKeyword, // true, false, null, in
        CelFunction,
        CelOperator,
        CelError,
        StyleCount
    };

    explicit RulesLexer(QObject* parent);

    const char* language() const override { return "Sandbench rules"; }
    QString description(int style) const override;
    void styleText(int start, int end) override;

    // The colours and fonts of each style (after CodeEditor's shared font and paper).
    void applyPalette(const QFont& font);

    // The style of every byte of a rule-set file: plain code, tested without an editor.
    static std::vector<std::uint8_t> classify(std::string_view text);
};

} // namespace sb::ui
