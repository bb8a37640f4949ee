#pragma once
// The small packages the analytical-model tests work out by hand share one shape: 64-MAC
// chiplets at 1 GHz, mesh links of 10 GB/s, 5 ns and 1 pJ/b, 2-cycle routers with 16-byte
// flits at 3 pJ each, packets of at most 64 B, and one memory "m0" on router 0 with a single
// channel, 30 ns access, a flat 2 pJ/b and a PHY of 2 ns and 0.5 pJ/b. Each test states the
// rest (grid, NI, DRAM and PHY bandwidth, chiplet energies) next to its derivations.
#include "hw/config/arch_config.h"

#include <string>

namespace mcmsim::test_support {

inline ArchConfig hand_arch(const std::string& name, int rows, int cols, double ni_gbps, double dram_gbps, double phy_gbps) {
    ArchConfig a;
    a.name = name;
    a.chiplet.pes = 4;
    a.chiplet.macs_per_pe = 16;
    a.chiplet.clock_ghz = 1.0;
    a.chiplet.ni_bandwidth_gbps = ni_gbps;
    a.package.rows = rows;
    a.package.cols = cols;
    a.package.link = LinkConfig{"", 10, 5, 1.0};
    a.package.router = RouterConfig{1.0, 2, 16, 3.0};
    a.package.max_packet_bytes = 64;
    MemoryConfig m;
    m.name = "m0";
    m.dram.channels = 1;
    m.dram.channel_bandwidth_gbps = dram_gbps;
    m.dram.access_latency_ns = 30;
    // DRAM energy as a flat 2 pJ per bit: no per-command or background energy.
    m.dram.energy = DramEnergyConfig{0, 0, 0, 0, 0, 0, 2.0};
    m.attach_row = 0;
    m.attach_col = 0;
    m.phy_bandwidth_gbps = phy_gbps;
    m.phy_latency_ns = 2;
    m.phy_energy_pj_per_bit = 0.5;
    a.memories = {m};
    return a;
}

}  // namespace mcmsim::test_support
