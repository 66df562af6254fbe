#include "strict_json.h"

#include <utility>
#include <vector>

namespace sb::agents {

namespace {

// A member's name for a message: as a JSON string, its first bytes only when it is long.
std::string quotedName(const std::string& name)
{
    constexpr std::size_t kShown = 60;
    if (name.size() <= kShown)
        return Json(name).dump(-1, ' ', false, Json::error_handler_t::replace);
    std::size_t cut = kShown;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return Json(name.substr(0, cut)).dump(-1, ' ', false, Json::error_handler_t::replace) + "...";
}

// What nlohmann's parse error says is wrong, without its prefix and without the text it last read (which
// can be a whole long string of the peer's): "syntax error while parsing value - invalid literal".
std::string describeParseError(const std::string& what)
{
    std::size_t begin = what.find("column ");
    begin = begin == std::string::npos ? std::string::npos : what.find(": ", begin);
    begin = begin == std::string::npos ? 0 : begin + 2;
    const std::size_t end = what.find("; last read", begin);
    std::string description = what.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (description.size() > 200)
        description.resize(200);
    return description;
}

// Builds the value from nlohmann's SAX events, refusing what parse() would take silently: a member named
// twice (parse() keeps the last) and nesting past the limit. The containers being filled are held by
// pointer: only the innermost one grows while it is open, so the pointers to the outer ones stay valid.
class StrictBuilder {
public:
    explicit StrictBuilder(std::size_t maxDepth)
        : m_maxDepth(maxDepth)
    {
    }

    bool null() { return put(Json(nullptr)) != nullptr; }
    bool boolean(bool value) { return put(Json(value)) != nullptr; }
    bool number_integer(Json::number_integer_t value) { return put(Json(value)) != nullptr; }
    bool number_unsigned(Json::number_unsigned_t value) { return put(Json(value)) != nullptr; }
    bool number_float(Json::number_float_t value, const Json::string_t&) { return put(Json(value)) != nullptr; }
    bool string(Json::string_t& value) { return put(Json(std::move(value))) != nullptr; }
    bool binary(Json::binary_t&) { return fail("binary data, which JSON text cannot hold"); }
    bool start_object(std::size_t) { return open(Json::object()); }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(Json::string_t& name)
    {
        if (m_open.back()->contains(name))
            return fail("the member " + quotedName(name) + " appears twice in one object");
        m_key = std::move(name);
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const Json::exception& error)
    {
        return fail("not JSON at byte " + std::to_string(position) + ": " + describeParseError(error.what()));
    }

    Json takeValue() { return std::move(m_root); }
    const std::string& error() const { return m_error; }

private:
    Json* put(Json value)
    {
        if (m_open.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        Json& container = *m_open.back();
        if (container.is_array()) {
            container.push_back(std::move(value));
            return &container.back();
        }
        Json& member = container[m_key];
        member = std::move(value);
        return &member;
    }

    bool open(Json container)
    {
        if (m_open.size() >= m_maxDepth)
            return fail("arrays and objects nested more than " + std::to_string(m_maxDepth) + " deep");
        m_open.push_back(put(std::move(container)));
        return true;
    }

    bool close()
    {
        m_open.pop_back();
        return true;
    }

    bool fail(std::string message)
    {
        m_error = std::move(message);
        return false;
    }

    std::size_t m_maxDepth;
    Json m_root;
    std::vector<Json*> m_open; // the arrays and objects being filled, outermost first
    std::string m_key;         // the member whose value comes next
    std::string m_error;
};

} // namespace

std::expected<Json, std::string> parseStrictJson(std::string_view text, std::size_t maxDepth)
{
    StrictBuilder builder(maxDepth);
    const bool strict = true;           // nothing but whitespace after the value
    const bool ignoreComments = false;  // comments are not JSON
    if (!Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json, strict, ignoreComments))
        return std::unexpected(builder.error());
    return builder.takeValue();
}

} // namespace sb::agents
