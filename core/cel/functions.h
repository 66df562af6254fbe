#pragma once

// The standard functions and operators CEL defines, by name, as the checker and the evaluator know them.

#include <cstdint>
#include <string_view>

namespace sb::cel {

enum class Fn : std::uint8_t {
    Unknown,
    // operators
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Neg,
    Not,
    And,
    Or,
    Cond,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Index,
    // functions
    Size,
    Contains,
    StartsWith,
    EndsWith,
    Matches,
    ToInt,
    ToUint,
    ToDouble,
    ToString,
    ToBytes,
    ToBool,
    ToTimestamp,
    ToDuration,
    ToDyn,
    TypeOf,
    GetFullYear,
    GetMonth,
    GetDate,
    GetDayOfMonth,
    GetDayOfWeek,
    GetDayOfYear,
    GetHours,
    GetMinutes,
    GetSeconds,
    GetMilliseconds,
    // string extensions analysts reach for
    LowerAscii,
    UpperAscii,
    Trim,
};

// The function a call names: `member` for receiver calls (x.f(...)), whose receiver becomes argument 0.
Fn lookupFunction(std::string_view name, bool member);

} // namespace sb::cel
