#include "cel/types.h"

#include "cel/lexer.h"

namespace sb::cel {

Type Type::list(Type elem)
{
    Type t(Kind::List);
    t.m_params.push_back(std::move(elem));
    return t;
}

Type Type::map(Type key, Type value)
{
    Type t(Kind::Map);
    t.m_params.push_back(std::move(key));
    t.m_params.push_back(std::move(value));
    return t;
}

Type Type::typeOf(Type inner)
{
    Type t(Kind::Type);
    t.m_params.push_back(std::move(inner));
    return t;
}

Type Type::param(int id)
{
    Type t(Kind::Param);
    t.m_param = id;
    return t;
}

std::string Type::toString() const
{
    switch (m_kind) {
    case Kind::Dyn: return "dyn";
    case Kind::Null: return "null_type";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Uint: return "uint";
    case Kind::Double: return "double";
    case Kind::String: return "string";
    case Kind::Bytes: return "bytes";
    case Kind::Timestamp: return "google.protobuf.Timestamp";
    case Kind::Duration: return "google.protobuf.Duration";
    case Kind::List: return "list(" + elem().toString() + ")";
    case Kind::Map: return "map(" + key().toString() + ", " + value().toString() + ")";
    case Kind::Type: return m_params.empty() ? "type" : "type(" + elem().toString() + ")";
    case Kind::Param: return std::string(1, static_cast<char>('A' + m_param % 26));
    case Kind::Error: return "*error*";
    }
    return "?";
}

namespace {

class TypeParser {
public:
    explicit TypeParser(std::string_view s) : m_s(s) {}

    sb::Result<Type> run()
    {
        auto t = parseType();
        if (!t)
            return t;
        skipSpace();
        if (m_at != m_s.size())
            return sb::fail("unexpected '" + std::string(m_s.substr(m_at)) + "' in type '" + std::string(m_s) + "'");
        return t;
    }

private:
    void skipSpace()
    {
        while (m_at < m_s.size() && (m_s[m_at] == ' ' || m_s[m_at] == '\t'))
            ++m_at;
    }
    bool accept(char c)
    {
        skipSpace();
        if (m_at < m_s.size() && m_s[m_at] == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    std::string_view word()
    {
        skipSpace();
        const std::size_t start = m_at;
        while (m_at < m_s.size()) {
            const char c = m_s[m_at];
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.')
                ++m_at;
            else
                break;
        }
        return m_s.substr(start, m_at - start);
    }

    sb::Result<Type> parseType()
    {
        if (++m_depth > 32)
            return sb::fail("type nests too deeply: '" + std::string(m_s) + "'");
        const std::string_view w = word();
        if (w == "int" || w == "int64")
            return Type::integer();
        if (w == "uint" || w == "uint64")
            return Type::uinteger();
        if (w == "double" || w == "float")
            return Type::real();
        if (w == "bool")
            return Type::boolean();
        if (w == "string")
            return Type::string();
        if (w == "bytes")
            return Type::bytes();
        if (w == "timestamp" || w == "google.protobuf.Timestamp")
            return Type::timestamp();
        if (w == "duration" || w == "google.protobuf.Duration")
            return Type::duration();
        if (w == "dyn" || w == "any")
            return Type::dyn();
        if (w == "null" || w == "null_type")
            return Type::null();
        if (w == "list") {
            if (!accept('('))
                return Type::list(Type::dyn());
            auto e = parseType();
            if (!e)
                return e;
            if (!accept(')'))
                return sb::fail("expected ')' in type '" + std::string(m_s) + "'");
            return Type::list(*e);
        }
        if (w == "map") {
            if (!accept('('))
                return Type::map(Type::dyn(), Type::dyn());
            auto k = parseType();
            if (!k)
                return k;
            if (!accept(','))
                return sb::fail("expected ',' in type '" + std::string(m_s) + "'");
            auto v = parseType();
            if (!v)
                return v;
            if (!accept(')'))
                return sb::fail("expected ')' in type '" + std::string(m_s) + "'");
            return Type::map(*k, *v);
        }
        if (w.empty())
            return sb::fail("expected a type name in '" + std::string(m_s) + "'");
        return sb::fail(
            "unknown type '" + std::string(w)
            + "' (known: int, uint, double, bool, string, bytes, timestamp, duration, dyn, list(T), map(K, V))");
    }

    std::string_view m_s;
    std::size_t m_at = 0;
    int m_depth = 0;
};

bool validName(std::string_view name)
{
    if (name.empty())
        return false;
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t dot = name.find('.', start);
        const std::string_view part =
            name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (part.empty() || (part[0] >= '0' && part[0] <= '9') || isReservedWord(part) || part == "true"
            || part == "false" || part == "null" || part == "in")
            return false;
        for (const char c : part) {
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
                return false;
        }
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    return true;
}

} // namespace

sb::Result<Type> Type::parse(std::string_view text)
{
    return TypeParser(text).run();
}

sb::Result<int> Declarations::add(std::string name, Type type)
{
    if (!validName(name))
        return sb::fail("'" + name
                        + "' is not a valid CEL variable name (letters, digits and '_', not starting "
                          "with a digit, not a reserved word; dots separate parts)");
    if (m_index.contains(name))
        return sb::fail("'" + name + "' is declared twice");
    const int slot = static_cast<int>(m_vars.size());
    m_index.emplace(name, m_vars.size());
    m_vars.push_back(Variable{std::move(name), std::move(type), slot});
    return slot;
}

const Variable* Declarations::find(std::string_view name) const
{
    const auto it = m_index.find(std::string(name));
    return it == m_index.end() ? nullptr : &m_vars[it->second];
}

} // namespace sb::cel
