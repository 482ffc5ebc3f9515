# Sourced by the SASS checks of tools/sass: skip MESSAGE reports Skipped (exit 77), or, under
# WARPCONF_REQUIRE_GPU=1, where every check must run, fails (exit 1).
skip() {
  if [ "${WARPCONF_REQUIRE_GPU:-}" = "1" ]; then
    echo "$1: WARPCONF_REQUIRE_GPU=1 needs every check to run" >&2
    exit 1
  fi
  echo "Skipped: $1"
  exit 77
}
