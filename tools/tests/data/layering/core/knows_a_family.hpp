// A core header that includes a family: the layering test must name it.
#pragma once

#include "families/shuffle/model.hpp"
