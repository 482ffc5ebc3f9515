// The replacement seam header on its own, first in its file: it compiles with only the harness
// headers it includes (docs/algorithms.md, "The seam's contract").
#include WARPCONF_ALGORITHMS_HEADER
