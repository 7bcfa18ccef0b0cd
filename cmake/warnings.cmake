# warlog_warnings(target): the house warning set, applied per target so that
# generated Cap'n Proto sources and third-party headers stay out of it.
function(warlog_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
    # GCC 12-13 at -O3 warn that std::string's own memcpy "may overlap"
    # (GCC bug 105329, a false positive inside libstdc++), in the Release
    # build the demo prints; no warning of ours is lost with it.
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(WARLOG_WERROR)
    # GCC 12's -Wmaybe-uninitialized misfires on std::optional inside
    # tl::expected at -O2 (GCC bug 80635); it stays a warning, not an error.
    target_compile_options(${target} PRIVATE -Werror -Wno-error=maybe-uninitialized)
  endif()
endfunction()
