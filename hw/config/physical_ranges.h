#pragma once
// The physical ranges every config field is read within, each far beyond any real part on
// both sides, so that a typo (1e-300 GHz, 1e300 ns, 1e30 pJ) is an input error instead of a
// number that overflows a picosecond clock, a 64-bit byte count or an energy sum, or runs a
// simulation for ever. docs/configuration.md lists them with these reasons.
#include <cstdint>

namespace mcmsim::ranges {

/// Clocks, GHz: 10 MHz to 100 GHz (a period of 10 ps to 100 ns).
constexpr double kMinClockGhz = 0.01, kMaxClockGhz = 100;
/// Bandwidths, GB/s: 1 MB/s to 100 TB/s per direction.
constexpr double kMinBandwidthGbps = 0.001, kMaxBandwidthGbps = 1e5;
/// Link and PHY latencies, ns: up to 1 ms.
constexpr double kMaxLatencyNs = 1e6;
/// Energy per bit moved, pJ: up to 1 nJ, a hundred times a board-level SerDes.
constexpr double kMaxEnergyPjPerBit = 1e3;
/// Energy of one event (a MAC, an SRAM access, a flit hop, a DRAM command), pJ: up to 1 uJ,
/// a thousand times a DRAM row activation.
constexpr double kMaxEnergyPjPerEvent = 1e6;
/// Power, mW: up to 1 kW for one chiplet or one memory.
constexpr double kMaxPowerMw = 1e6;
/// DRAM supply voltage, V, and device currents, mA (up to 100 A).
constexpr double kMinVoltage = 0.1, kMaxVoltage = 10, kMaxCurrentMa = 1e5;
/// Process node, nm: the energy reference scales from it.
constexpr double kMinTechnologyNm = 1, kMaxTechnologyNm = 1000;
/// On-chiplet SRAM, bytes: up to 1 TiB, so that sums over a package stay inside 64 bits.
constexpr std::int64_t kMaxSramBytes = std::int64_t{1} << 40;
/// SRAM banks per buffer and bits per bank access (8 KiB).
constexpr std::int64_t kMaxBanks = 65536, kMaxAccessBits = 65536;
/// Pipeline depths in cycles and vector lanes per chiplet.
constexpr std::int64_t kMaxPipelineCycles = 1 << 20, kMaxVectorLanes = 1 << 20;

}  // namespace mcmsim::ranges
