// Jinja2's `random` filter and `lipsum` global (randomness.cpp): not seeded, so their output
// changes from run to run, as in Jinja2.
#pragma once

#include "tool/core/jinja/values/calls.h"

namespace gkebuild::jinja {

class Interpreter;

Value random_filter(Interpreter& in, const Value& v, CallArgs& a);
Value lipsum_global(Interpreter& in, CallArgs& a);

}  // namespace gkebuild::jinja
