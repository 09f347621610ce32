// A small, fast, seedable random number generator shared by playouts, bots and chance sampling.
//
// wyrand passes BigCrush and PractRand and costs one multiply per number; on these machines it
// was faster than xoshiro256++ in full playouts. Ranges use Lemire's multiply-shift with the
// rejection step, so every outcome of a range is exactly equally likely.
#pragma once

#include <cstdint>

namespace rivals {

// splitmix64: turns related seeds (0, 1, 2, ...) into unrelated generator states.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Seeds of independent streams (game i of a batch, seat s in game i) are derived, never
// sequential, so results do not depend on how games are spread over threads.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  return mix64(mix64(seed) ^ mix64(stream + 0x632be59bd9b4e019ULL));
}

class Rng {
 public:
  explicit constexpr Rng(std::uint64_t seed = 0) : state_(mix64(seed)) {}

  constexpr std::uint64_t next() {
    state_ += 0xa0761d6478bd642fULL;
    const __uint128_t product = static_cast<__uint128_t>(state_) * (state_ ^ 0xe7037ed1a0b428dbULL);
    return static_cast<std::uint64_t>(product >> 64) ^ static_cast<std::uint64_t>(product);
  }

  // Uniform in [0, n), n >= 1.
  constexpr std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
    auto low = static_cast<std::uint32_t>(m);
    if (low < n) [[unlikely]] {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next())) * n;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // Uniform in [0, 1) with 53 random bits.
  constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace rivals
