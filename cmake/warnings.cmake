# warlog_warnings(target): the house warning set, applied per target so that
# generated Cap'n Proto sources and third-party headers stay out of it.
function(warlog_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(WARLOG_WERROR)
    # GCC 12's -Wmaybe-uninitialized misfires on std::optional inside
    # tl::expected at -O2 (GCC bug 80635); it stays a warning, not an error.
    target_compile_options(${target} PRIVATE -Werror -Wno-error=maybe-uninitialized)
  endif()
endfunction()
