# Runs CLI (warpconf, or a test binary) with ARGS and requires exit status 2, nothing on stdout and
# exactly one line on stderr, holding WANT where it is given.
set(STATUS 2)
include(${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake)
