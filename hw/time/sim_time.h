#pragma once
// Time is data: models compute with integer picoseconds (Tick) and touch sc_time only to
// schedule their next wake-up. Integer ticks keep arithmetic exact and runs reproducible.
#include <systemc>

#include <cmath>
#include <cstdint>
#include <limits>

namespace mcmsim {

using Tick = std::uint64_t;  ///< picoseconds
constexpr Tick kNever = std::numeric_limits<Tick>::max();

/// Call once before any sc_time is built; the whole simulator assumes 1 ps resolution.
void init_time_resolution();

inline Tick now_ticks() { return sc_core::sc_time_stamp().value(); }
inline sc_core::sc_time to_sc_time(Tick t) { return sc_core::sc_time::from_value(t); }
inline Tick ns_to_ticks(double ns) { return static_cast<Tick>(std::llround(ns * 1000.0)); }
inline double ticks_to_ns(Tick t) { return static_cast<double>(t) / 1000.0; }
/// Time to move `bytes` at `gbps` GB/s (= bytes per ns), rounded up to a whole picosecond.
inline Tick transfer_ticks(double bytes, double gbps) { return static_cast<Tick>(std::ceil(bytes * 1000.0 / gbps - 1e-9)); }

}  // namespace mcmsim
