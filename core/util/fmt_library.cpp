// fmt's compiled part (what libfmt.so holds), built into Sandbench: Debian ships fmt as a shared library only,
// and loading it loads libstdc++.so with it, which the command line otherwise links statically
// (cmake/Dependencies.cmake). The definitions are the ones fmt installs in its public header format-inl.h;
// the templates format.h declares `extern template` are instantiated here, once.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl<char>(locale_ref) -> char;
template auto decimal_point_impl<wchar_t>(locale_ref) -> wchar_t;
} // namespace detail
FMT_END_NAMESPACE
