#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// A pattern of a sentence core says to people, and the context translators find it under. The pattern is
// English, with "{}" for each argument in order; "{0}", "{1}", … name an argument by its place, so that a
// translation may reorder them; "{{" and "}}" are braces.
struct MessagePattern {
    std::string_view context;
    std::string_view pattern;
};

// Marks a pattern for the window's translators. lupdate reads SB_TR as QT_TRANSLATE_NOOP(context, pattern)
// (translations/CMakeLists.txt), so both are string literals and core needs no Qt.
#define SB_TR(context, pattern) (::sb::MessagePattern{context, pattern})

// A sentence for people, kept as its pattern and arguments so that each front end shows it in its user's
// language: the command line, the JSON and the store's text columns show text(), the English sentence; the
// window translates the pattern under its context and fills the translation with the same arguments
// (fillPattern). A message with no context is not translated (plain(): an error from the system, say).
struct Message {
    std::string context;
    std::string pattern;
    std::vector<std::string> args;

    Message() = default;
    Message(MessagePattern p, std::vector<std::string> arguments = {})
        : context(p.context), pattern(p.pattern), args(std::move(arguments))
    {
    }
    static Message plain(std::string text);

    std::string text() const { return fillPattern(pattern, args); }
    bool empty() const { return pattern.empty(); }
    bool operator==(const Message&) const = default;

    // Fills a pattern's placeholders with `args`; a placeholder with no argument is left as written.
    static std::string fillPattern(std::string_view pattern, const std::vector<std::string>& args);
};

// Writes text(): the English sentence.
std::ostream& operator<<(std::ostream& out, const Message& message);

} // namespace sb
