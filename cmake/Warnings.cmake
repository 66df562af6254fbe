# sandbench_set_warnings(target): the project's warning set; errors when SANDBENCH_WERROR is on (CI).
function(sandbench_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Woverloaded-virtual -Wimplicit-fallthrough -Wformat=2)
  if(SANDBENCH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Strict Qt defines for every target that uses Qt.
function(sandbench_qt_strict target)
  target_compile_definitions(${target} PRIVATE
    QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_FOREACH QT_USE_QSTRINGBUILDER
    QT_NO_URL_CAST_FROM_STRING QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()
