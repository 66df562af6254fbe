#pragma once

// Static types for the checker, and the declarations an expression is checked against (a rule set's
// fields: name and type, each with the slot its value has in a record).

#include "util/error.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sb::cel {

class Type {
public:
    enum class Kind : std::uint8_t {
        Dyn,
        Null,
        Bool,
        Int,
        Uint,
        Double,
        String,
        Bytes,
        Timestamp,
        Duration,
        List,
        Map,
        Type,
        Param,
        Error
    };

    Type() = default;
    static Type dyn() { return Type(Kind::Dyn); }
    static Type null() { return Type(Kind::Null); }
    static Type boolean() { return Type(Kind::Bool); }
    static Type integer() { return Type(Kind::Int); }
    static Type uinteger() { return Type(Kind::Uint); }
    static Type real() { return Type(Kind::Double); }
    static Type string() { return Type(Kind::String); }
    static Type bytes() { return Type(Kind::Bytes); }
    static Type timestamp() { return Type(Kind::Timestamp); }
    static Type duration() { return Type(Kind::Duration); }
    static Type error() { return Type(Kind::Error); }
    static Type list(Type elem);
    static Type map(Type key, Type value);
    static Type typeOf(Type t);
    static Type param(int id);

    // "int", "list(string)", "map(string, dyn)", "timestamp" (or "google.protobuf.Timestamp"), ...
    static sb::Result<Type> parse(std::string_view text);

    Kind kind() const { return m_kind; }
    int paramId() const { return m_param; }
    const std::vector<Type>& params() const { return m_params; }
    const Type& elem() const { return m_params[0]; }  // List; Type
    const Type& key() const { return m_params[0]; }   // Map
    const Type& value() const { return m_params[1]; } // Map

    // "int", "list(string)", "map(string, int)", "google.protobuf.Timestamp", "type(int)"
    std::string toString() const;
    bool operator==(const Type& other) const = default;

private:
    explicit Type(Kind kind) : m_kind(kind) {}
    Kind m_kind = Kind::Dyn;
    int m_param = -1;
    std::vector<Type> m_params;
};

struct Variable {
    std::string name; // may be dotted ("merchant.country"): CEL resolves the longest declared prefix
    Type type;
    int slot = 0; // index of its value in an Activation
};

class Declarations {
public:
    // Declares a variable; its slot is the number of variables declared before it. Refuses names that are
    // not (dotted) identifiers, CEL's reserved words, and names already declared.
    sb::Result<int> add(std::string name, Type type);
    const Variable* find(std::string_view name) const;
    std::span<const Variable> variables() const { return m_vars; }
    std::size_t size() const { return m_vars.size(); }

private:
    std::vector<Variable> m_vars;
    std::unordered_map<std::string, std::size_t> m_index;
};

} // namespace sb::cel
