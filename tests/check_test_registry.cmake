# Proves that CTest runs every Catch test case, each under its exact name:
#   - every name Catch lists is plain text: none of the characters CTest or Catch's test-spec
#     syntax treats specially (; , [ ] * \ " ~ and a leading or trailing space, "exclude:");
#   - the CTest entries that run TEST_EXE are exactly as many as Catch's test cases, and each one's
#     name is one of Catch's names.
# Usage: cmake -DCTEST=ctest -DBUILD_DIR=build -DTEST_EXE=build/tests/gentle_tests -P this-file
foreach(var CTEST BUILD_DIR TEST_EXE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_test_registry: ${var} is not set")
  endif()
endforeach()

execute_process(COMMAND ${TEST_EXE} --list-test-names-only
  OUTPUT_VARIABLE catch_output RESULT_VARIABLE catch_result)
if(catch_result LESS 1)
  message(FATAL_ERROR "check_test_registry: ${TEST_EXE} lists no test cases")
endif()
# Names are compared as text with ';' kept visible (a CMake list would split at it).
string(REPLACE ";" "<SEMICOLON>" catch_output "${catch_output}")
string(REGEX REPLACE "\n$" "" catch_output "${catch_output}")
string(REPLACE "\n" ";" catch_names "${catch_output}")
list(LENGTH catch_names catch_count)

set(problems "")
foreach(name IN LISTS catch_names)
  if(name MATCHES "<SEMICOLON>|[],[*\\\"~]|^ | $|^exclude:")
    string(APPEND problems "  a test name CTest or Catch would not pass through unchanged: ${name}\n")
  endif()
endforeach()

execute_process(COMMAND ${CTEST} --show-only=json-v1 WORKING_DIRECTORY ${BUILD_DIR}
  OUTPUT_VARIABLE ctest_json RESULT_VARIABLE ctest_result)
if(NOT ctest_result EQUAL 0)
  message(FATAL_ERROR "check_test_registry: ctest --show-only failed (${ctest_result})")
endif()
string(JSON test_count LENGTH "${ctest_json}" tests)
set(registered 0)
math(EXPR last "${test_count} - 1")
foreach(i RANGE ${last})
  string(JSON executable GET "${ctest_json}" tests ${i} command 0)
  if(NOT executable STREQUAL TEST_EXE)
    continue()
  endif()
  math(EXPR registered "${registered} + 1")
  string(JSON name GET "${ctest_json}" tests ${i} name)
  string(REPLACE ";" "<SEMICOLON>" name "${name}")
  list(FIND catch_names "${name}" found)
  if(found EQUAL -1)
    string(APPEND problems "  a CTest entry that is not a Catch test case: ${name}\n")
  endif()
endforeach()
if(NOT registered EQUAL catch_count)
  string(APPEND problems "  ${registered} CTest entries run ${TEST_EXE}, Catch lists ${catch_count}\n")
endif()

if(problems)
  message(FATAL_ERROR "check_test_registry:\n${problems}")
endif()
message(STATUS "check_test_registry: ${registered} CTest entries = ${catch_count} Catch test cases")
