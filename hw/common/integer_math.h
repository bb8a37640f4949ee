#pragma once
// Integer arithmetic shared by the cost models: tile counts, flit counts, burst counts.
#include <cstdint>
#include <limits>

namespace mcmsim {

/// The widest accepted value of a 64-bit integer field.
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

/// ceil(a / b) for a >= 0, b > 0.
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace mcmsim
