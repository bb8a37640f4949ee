#pragma once
// Time is data: models compute with integer picoseconds (Tick). Integer ticks keep arithmetic
// exact and runs reproducible; only sim_time.h turns them into SystemC time.
#include <cmath>
#include <cstdint>
#include <limits>

namespace mcmsim {

using Tick = std::uint64_t;  ///< picoseconds
constexpr Tick kNever = std::numeric_limits<Tick>::max();

inline Tick ns_to_ticks(double ns) { return static_cast<Tick>(std::llround(ns * 1000.0)); }
inline double ticks_to_ns(Tick t) { return static_cast<double>(t) / 1000.0; }
/// Time to move `bytes` at `gbps` GB/s (= bytes per ns), rounded up to a whole picosecond.
inline Tick transfer_ticks(double bytes, double gbps) { return static_cast<Tick>(std::ceil(bytes * 1000.0 / gbps - 1e-9)); }

}  // namespace mcmsim
