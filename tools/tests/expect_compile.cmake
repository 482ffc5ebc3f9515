# Compiles SOURCE with COMPILER and WARPCONF_REFUSED=<FORM is refused>: the refused form must fail and
# say REFUSED (the diagnostic its first line names), the twin must compile, so that a test of a refusal
# never passes on an error of another kind. FLAGS (a list) are the compiler's other flags.
set(refused_form 0)
if(FORM STREQUAL "refused")
  set(refused_form 1)
endif()
execute_process(COMMAND ${COMPILER} -std=c++17 ${FLAGS} -DWARPCONF_REFUSED=${refused_form} -c ${SOURCE} -o ${OUTPUT}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}${err}" "${REFUSED}" said)
if(FORM STREQUAL "refused")
  if(status EQUAL 0 OR said EQUAL -1)
    message(FATAL_ERROR "want the compile refused with '${REFUSED}'; got exit ${status}: ${out}${err}")
  endif()
  message(STATUS "refused, as wanted: ${REFUSED}")
elseif(NOT status EQUAL 0)
  message(FATAL_ERROR "the twin must compile; got exit ${status}: ${out}${err}")
endif()
