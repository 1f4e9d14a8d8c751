# cmake -DFILES="a;b" -DNM=nm -P NoCurlCheck.cmake: fails when any of FILES (executables or static
# archives) references or defines a libcurl symbol (curl_*) or names libcurl's shared object (a
# dlopen). watch/CMakeLists.txt: only gentle_watch may use libcurl.
foreach(file IN LISTS FILES)
  execute_process(COMMAND ${NM} ${file} OUTPUT_VARIABLE listing ERROR_QUIET)
  execute_process(COMMAND ${NM} -D ${file} OUTPUT_VARIABLE dynamic ERROR_QUIET)
  string(REGEX MATCH "[ \t]curl_[A-Za-z0-9_]*" hit "${listing}\n${dynamic}")
  if(NOT hit)
    file(STRINGS ${file} named REGEX "libcurl\\.so")
    if(named)
      set(hit "libcurl.so")
    endif()
  endif()
  if(hit)
    message(FATAL_ERROR "${file} reaches libcurl (${hit}): only gentle_watch may")
  endif()
endforeach()
