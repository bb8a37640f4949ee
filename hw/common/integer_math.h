#pragma once
// Integer arithmetic shared by the cost models: tile counts, flit counts, burst counts.
#include <cstdint>
#include <limits>
#include <optional>

namespace mcmsim {

/// The widest accepted value of a 64-bit integer field.
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

/// ceil(a / b) for a >= 0, b > 0.
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// a * b, or nothing when the product does not fit in 64 bits.
inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

}  // namespace mcmsim
