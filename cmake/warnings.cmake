# warlog_warnings(target): the house warning set, applied per target so that
# generated Cap'n Proto sources and third-party headers stay out of it.
function(warlog_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(WARLOG_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
