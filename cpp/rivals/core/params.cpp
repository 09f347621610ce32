#include "rivals/core/params.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "rivals/core/error.h"

namespace rivals {
namespace {

std::string number_text(double value) {
  char text[32];
  if (std::abs(value) < 1e15 && value == std::floor(value))
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(value));
  else
    std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string range_text(const ParamSpec& spec) {
  const double lowest = -std::numeric_limits<double>::max();
  const double highest = std::numeric_limits<double>::max();
  if (spec.min > lowest && spec.max < highest)
    return " " + number_text(spec.min) + "-" + number_text(spec.max);
  if (spec.min > lowest) return " >= " + number_text(spec.min);
  if (spec.max < highest) return " <= " + number_text(spec.max);
  return "";
}

// "a", "a or b", "a, b or c".
std::string one_of(const std::vector<std::string>& forms) {
  std::string out;
  for (std::size_t i = 0; i < forms.size(); ++i) {
    if (i > 0) out += i + 1 == forms.size() ? " or " : ", ";
    out += forms[i];
  }
  return out;
}

unsigned kind_bit(const Json& value) {
  if (value.is_null()) return ParamSpec::kNull;
  if (value.is_bool()) return ParamSpec::kBool;
  if (value.is_int()) return ParamSpec::kInt;
  if (value.is_number()) return ParamSpec::kNumber;
  if (value.is_string()) return ParamSpec::kString;
  if (value.is_array()) return ParamSpec::kArray;
  return ParamSpec::kObject;
}

bool kind_accepted(unsigned kinds, const Json& value) {
  const unsigned bit = kind_bit(value);
  return (kinds & bit) != 0 || (bit == ParamSpec::kInt && (kinds & ParamSpec::kNumber) != 0);
}

std::string shown(const Json& value) { return value.shown(200); }

std::string accepted_list(const std::vector<ParamSpec>& specs) {
  std::string out;
  for (const auto& spec : specs) {
    if (!out.empty()) out += ", ";
    out += spec.name + " (" + spec.accepted() + ", default " + spec.default_value.dump() + ")";
  }
  return out.empty() ? "none" : out;
}

}  // namespace

ParamSpec ParamSpec::integer(std::string name, Json default_value, std::int64_t min,
                             std::int64_t max, std::string meaning) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.default_value = std::move(default_value);
  spec.kinds = kInt;
  spec.min = static_cast<double>(min);
  spec.max = static_cast<double>(max);
  spec.meaning = std::move(meaning);
  return spec;
}

ParamSpec ParamSpec::number(std::string name, Json default_value, double min, double max,
                            std::string meaning) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.default_value = std::move(default_value);
  spec.kinds = kNumber;
  spec.min = min;
  spec.max = max;
  spec.meaning = std::move(meaning);
  return spec;
}

ParamSpec ParamSpec::choice(std::string name, Json default_value, std::vector<Json> choices,
                            std::string meaning) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.default_value = std::move(default_value);
  for (const Json& option : choices) spec.kinds |= kind_bit(option);
  spec.choices = std::move(choices);
  spec.meaning = std::move(meaning);
  return spec;
}

ParamSpec ParamSpec::data(std::string name, Json default_value, unsigned kinds, std::string forms,
                          unsigned item_kinds, std::size_t max_items) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.default_value = std::move(default_value);
  spec.kinds = kinds;
  spec.forms = std::move(forms);
  spec.item_kinds = item_kinds;
  spec.max_items = max_items;
  return spec;
}

ParamSpec ParamSpec::or_null(std::string means) && {
  kinds |= kNull;
  null_means = std::move(means);
  return std::move(*this);
}

std::string ParamSpec::accepted() const {
  std::vector<std::string> forms_in_words;
  if ((kinds & kNull) != 0)
    forms_in_words.push_back(null_means.empty() ? "null" : "null (" + null_means + ")");
  if (!choices.empty()) {
    std::vector<std::string> options;
    for (const Json& option : choices) options.push_back(option.dump());
    forms_in_words.push_back(one_of(options));
  } else if ((kinds & kInt) != 0) {
    forms_in_words.push_back("an int" + range_text(*this));
  } else if ((kinds & kNumber) != 0) {
    forms_in_words.push_back("a number" + range_text(*this));
  } else if ((kinds & kBool) != 0) {
    forms_in_words.push_back("true or false");
  }
  if (!forms.empty()) forms_in_words.push_back(forms);
  std::string text = one_of(forms_in_words);
  if (!meaning.empty()) text += " (" + meaning + ")";
  return text;
}

bool ParamSpec::accepts(const Json& value) const {
  if (!kind_accepted(kinds, value)) return false;
  if (value.is_null()) return true;
  if (!choices.empty()) {
    for (const Json& option : choices)
      if (option == value) return true;
    return false;
  }
  if (value.is_number()) {
    const double number = value.as_number();
    return std::isfinite(number) && number >= min && number <= max;
  }
  if (value.is_array()) {
    if (value.as_array().size() > max_items) return false;
    for (const Json& item : value.as_array())
      if (item_kinds != 0 && !kind_accepted(item_kinds, item)) return false;
  }
  return true;
}

Json resolve_params(std::string_view owner, const std::vector<ParamSpec>& specs,
                    const Json& given) {
  if (!given.is_null() && !given.is_object())
    throw InvalidArgument(std::string(owner) + ": parameters must be an object");
  Json resolved = Json::object();
  for (const auto& spec : specs) resolved.set(spec.name, spec.default_value);
  if (given.is_null()) return resolved;
  const auto& entries = given.as_object();
  for (auto entry = entries.begin(); entry != entries.end(); ++entry) {
    const auto& [name, value] = *entry;
    // An object built in code can hold a name twice (parsed text cannot): one would be dropped.
    for (auto earlier = entries.begin(); earlier != entry; ++earlier)
      if (earlier->first == name)
        throw InvalidArgument(std::string(owner) + ": parameter " + quoted(name) +
                              " is given twice");
    const ParamSpec* match = nullptr;
    for (const auto& spec : specs)
      if (spec.name == name) match = &spec;
    if (match == nullptr)
      throw InvalidArgument(std::string(owner) + ": unknown parameter " + quoted(name) +
                            "; accepted: " + accepted_list(specs));
    // null stands for the default unless the parameter gives null a meaning of its own.
    if (value.is_null() && (match->kinds & ParamSpec::kNull) == 0) continue;
    if (!match->accepts(value))
      throw InvalidArgument(std::string(owner) + ": parameter " + name + " must be " +
                            match->accepted() + ", got " + shown(value));
    resolved.set(name, value);
  }
  return resolved;
}

}  // namespace rivals
