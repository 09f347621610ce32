// rivals::Json::parse on arbitrary bytes: it returns a value or throws std::invalid_argument, never
// anything else; a value dumps to text that parses back to an equal value and dumps identically.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rivals/core/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rivals::Json value;
  try {
    value = rivals::Json::parse(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string dumped = value.dump();
  rivals::Json again;
  try {
    again = rivals::Json::parse(dumped);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "FUZZ FAILURE: dump() gave text that does not parse: %s\n%s\n",
                 error.what(), dumped.c_str());
    std::abort();
  }
  if (!(again == value) || again.dump() != dumped) {
    std::fprintf(stderr, "FUZZ FAILURE: parse(dump(v)) differs from v:\n%s\n%s\n", dumped.c_str(),
                 again.dump().c_str());
    std::abort();
  }
  return 0;
}
