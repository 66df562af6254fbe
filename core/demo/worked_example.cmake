# Compiles the worked example of examples/agents into sandbench_demo: the agent program and the MCP client it
# imports, its policy, and the repository it works on. The files under examples/ stay the single source of truth;
# the library carries their text (demo/worked_example.h), so the demo needs no source checkout at run time.
# Included from core/demo/CMakeLists.txt after sandbench_demo exists; a file that comes, goes or changes re-runs
# the configure step.
set(_sb_example_root "${PROJECT_SOURCE_DIR}/examples/agents")
file(GLOB_RECURSE _sb_example_repo CONFIGURE_DEPENDS RELATIVE "${_sb_example_root}"
     "${_sb_example_root}/upgrade-repo/*")
list(SORT _sb_example_repo)
set(_sb_example_files upgrade_agent.py mcp_stdio.py policy.yaml ${_sb_example_repo})
set(SANDBENCH_WORKED_EXAMPLE_ENTRIES "")
foreach(_sb_path IN LISTS _sb_example_files)
  if(_sb_path MATCHES "(^|/)(__pycache__|[^/]*\\.pyc)(/|$)")
    continue() # bytecode a local run of the example left: not part of it
  endif()
  set(_sb_file "${_sb_example_root}/${_sb_path}")
  if(NOT EXISTS "${_sb_file}")
    message(FATAL_ERROR "the worked example has no ${_sb_file}")
  endif()
  file(READ "${_sb_file}" _sb_text)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_sb_file}")
  # The text goes in a raw string literal; its delimiter must not occur in it.
  string(FIND "${_sb_text}" ")sbexample\"" _sb_clash)
  if(NOT _sb_clash EQUAL -1)
    message(FATAL_ERROR "${_sb_file} contains ')sbexample\"', which ends the embedded string early")
  endif()
  string(APPEND SANDBENCH_WORKED_EXAMPLE_ENTRIES "    {\"${_sb_path}\", R\"sbexample(${_sb_text})sbexample\"},\n")
endforeach()
# configure_file rewrites the header only when a file changed, so nothing rebuilds needlessly.
configure_file("${CMAKE_CURRENT_LIST_DIR}/worked_example_files.h.in"
               "${CMAKE_CURRENT_BINARY_DIR}/generated/demo/worked_example_files.h" @ONLY)
target_include_directories(sandbench_demo PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/generated")
