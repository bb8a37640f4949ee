#pragma once
// The physical ranges of the timing figures every config reads, each far beyond any real
// part on both sides, so that a typo (1e-300 GHz, 1e300 ns) is an input error instead of a
// number that overflows a picosecond clock or runs a simulation for ever.
namespace mcmsim::ranges {

/// Clocks, GHz: 10 MHz to 100 GHz (a period of 10 ps to 100 ns).
constexpr double kMinClockGhz = 0.01, kMaxClockGhz = 100;
/// Bandwidths, GB/s: 1 MB/s to 100 TB/s per direction.
constexpr double kMinBandwidthGbps = 0.001, kMaxBandwidthGbps = 1e5;
/// Link and PHY latencies, ns: up to 1 ms.
constexpr double kMaxLatencyNs = 1e6;

}  // namespace mcmsim::ranges
