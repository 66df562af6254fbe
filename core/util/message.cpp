#include "util/message.h"

#include <charconv>
#include <ostream>

namespace sb {

Message Message::plain(std::string text)
{
    Message m;
    m.pattern = "{}";
    m.args.push_back(std::move(text));
    return m;
}

std::string Message::fillPattern(std::string_view pattern, const std::vector<std::string>& args)
{
    std::string out;
    out.reserve(pattern.size() + 16 * args.size());
    std::size_t next = 0; // the argument "{}" stands for
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if ((c == '{' || c == '}') && i + 1 < pattern.size() && pattern[i + 1] == c) {
            out += c;
            ++i;
            continue;
        }
        if (c != '{') {
            out += c;
            continue;
        }
        const auto close = pattern.find('}', i + 1);
        if (close == std::string_view::npos) {
            out.append(pattern.substr(i));
            break;
        }
        const std::string_view inside = pattern.substr(i + 1, close - i - 1);
        std::size_t index = next;
        bool valid = inside.empty();
        if (!inside.empty()) {
            const auto [end, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), index);
            valid = ec == std::errc{} && end == inside.data() + inside.size();
        } else {
            ++next;
        }
        if (valid && index < args.size())
            out += args[index];
        else
            out.append(pattern.substr(i, close - i + 1));
        i = close;
    }
    return out;
}

std::ostream& operator<<(std::ostream& out, const Message& message)
{
    return out << message.text();
}

} // namespace sb
