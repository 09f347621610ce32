#include "rivals/core/params.h"

#include <stdexcept>

namespace rivals {
namespace {

bool same_kind(const Json& expected, const Json& given) {
  if (expected.is_int()) return given.is_int();
  if (expected.is_number()) return given.is_number();
  if (expected.is_null()) return true;
  return expected.variant().index() == given.variant().index();
}

std::string accepted_list(const std::vector<ParamSpec>& specs) {
  std::string out;
  for (const auto& spec : specs) {
    if (!out.empty()) out += ", ";
    out += spec.name + " (" + spec.accepted + ", default " + spec.default_value.dump() + ")";
  }
  return out.empty() ? "none" : out;
}

}  // namespace

Json resolve_params(std::string_view game, const std::vector<ParamSpec>& specs, const Json& given) {
  if (!given.is_null() && !given.is_object())
    throw std::invalid_argument(std::string(game) + ": parameters must be an object");
  Json resolved = Json::object();
  for (const auto& spec : specs) resolved.set(spec.name, spec.default_value);
  if (given.is_null()) return resolved;
  for (const auto& [name, value] : given.as_object()) {
    const ParamSpec* match = nullptr;
    for (const auto& spec : specs)
      if (spec.name == name) match = &spec;
    if (match == nullptr)
      throw std::invalid_argument(std::string(game) + ": unknown parameter '" + name +
                                  "'; accepted: " + accepted_list(specs));
    if (!value.is_null() && !same_kind(match->default_value, value)) bad_param(game, *match, value);
    if (!value.is_null()) resolved.set(name, value);
  }
  return resolved;
}

void bad_param(std::string_view game, const ParamSpec& spec, const Json& value) {
  throw std::invalid_argument(std::string(game) + ": parameter " + spec.name + " must be " +
                              spec.accepted + ", got " + value.dump());
}

}  // namespace rivals
