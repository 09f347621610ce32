// Conversions between the engine's JSON values and Python objects.
#pragma once

#include <nanobind/nanobind.h>

#include "rivals/core/json.h"

namespace rivals::bindings {

nanobind::object to_python(const Json& value);
// Accepts None, bool, int, float, str, list/tuple and dict with str keys; anything else raises
// ValueError naming the offending type and where it sits.
Json from_python(nanobind::handle value, const std::string& where = "value");

}  // namespace rivals::bindings
