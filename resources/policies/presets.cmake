# Compiles resources/policies/*.yaml into sandbench_policy: the YAML files stay the single source of truth,
# the library carries their text (builtinPreset() in core/isolation/policy.h). Included from
# core/isolation/CMakeLists.txt after sandbench_policy exists; editing or adding a preset re-runs the configure step.
file(GLOB _sb_preset_files CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*.yaml")
list(SORT _sb_preset_files)
set(SANDBENCH_PRESET_ENTRIES "")
foreach(_sb_file IN LISTS _sb_preset_files)
  get_filename_component(_sb_name "${_sb_file}" NAME_WE)
  file(READ "${_sb_file}" _sb_text)
  # The glob re-runs the configure step when a preset comes or goes; this, when one's text changes.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_sb_file}")
  # The text goes in a raw string literal; its delimiter must not occur in it.
  string(FIND "${_sb_text}" ")sbpreset\"" _sb_clash)
  if(NOT _sb_clash EQUAL -1)
    message(FATAL_ERROR "${_sb_file} contains ')sbpreset\"', which ends the embedded string early")
  endif()
  string(APPEND SANDBENCH_PRESET_ENTRIES "    {\"${_sb_name}\", R\"sbpreset(${_sb_text})sbpreset\"},\n")
endforeach()
if(SANDBENCH_PRESET_ENTRIES STREQUAL "")
  message(FATAL_ERROR "no policy presets in ${CMAKE_CURRENT_LIST_DIR}")
endif()
# configure_file rewrites the header only when a preset changed, so nothing rebuilds needlessly.
configure_file("${CMAKE_CURRENT_LIST_DIR}/policy_presets.h.in"
               "${CMAKE_CURRENT_BINARY_DIR}/generated/isolation/policy_presets.h" @ONLY)
target_include_directories(sandbench_policy PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/generated")
