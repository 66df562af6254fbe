#pragma once

// 128-bit integers for exact arithmetic on times (seconds × 10⁹ + nanos overflows 64 bits before the
// timestamp range ends). A GCC/Clang extension: __extension__ keeps -Wpedantic quiet about it.

namespace sb::cel {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

} // namespace sb::cel
