#pragma once
// Grid configs, traffic drivers and runs the VC network tests share.
#include "hw/common/input_error.h"
#include "hw/config/presets.h"
#include "hw/energy/energy_ledger.h"
#include "noc/noc_config.h"
#include "noc/synthetic/synthetic_traffic.h"
#include "noc/synthetic/zero_load_model.h"
#include "noc/vc/vc_network.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <systemc>
#include <vector>

namespace mcmsim::vc_test {

inline NocConfig grid_config(NocTopologyKind kind, int rows, int cols, NocRouting routing = NocRouting::XY) {
    NocConfig c;
    c.topology = kind;
    c.rows = rows;
    c.cols = cols;
    c.routing = routing;
    NocLinkConfig on_die;
    on_die.name = "on_die";
    on_die.width_bits = c.router.flit_bits;
    c.links = {on_die};
    for (NocLinkConfig& l : c.links) resolve_link(l, c.router);
    return c;
}

/// Mean ring distance on a ring of k taking the short way: sum over offsets / k.
inline double ring_mean(int k) {
    double s = 0;
    for (int d = 0; d < k; ++d) s += std::min(d, k - d);
    return s / k;
}

/// Textbook zero-load latency with the simulator's convention (see zero_load_model.h): NI in,
/// (H+1) routers of P cycles, H links of t_link, NI out, L-1 cycles of serialisation.
inline double textbook_t0(const NocConfig& c, double hops, int flits) {
    const double p = c.router.pipeline_cycles(), link = c.links[0].latency_cycles;
    return 2.0 * c.ni_latency_cycles + (hops + 1) * p + hops * link + (flits - 1);
}

struct ZeroLoadCase {
    NocTopologyKind kind;
    int k, flits;
};

class NocVcZeroLoad : public ::testing::TestWithParam<ZeroLoadCase> {};

/// Records the tail-ejection cycle of every packet.
struct TailLog : EjectionListener {
    std::vector<std::pair<const FlitPacket, Cycle>> tails;
    std::vector<Cycle> flits;
    void flit_ejected(const FlitPacket&, const Flit&, Cycle when) override { flits.push_back(when); }
    void packet_ejected(const FlitPacket& p, Cycle tail) override { tails.push_back({p, tail}); }
};

// Every injected flit is ejected exactly once, in order within its packet, at moderate and
// at saturating load (5-flit packets interleave in the VCs and at ejection), with the
// routers stepped by one thread and by two (rows 0-1 and 2-3: flits, credits and ejections
// crossing between the threads must be neither lost nor repeated nor reordered).
class NocVcConservation : public ::testing::TestWithParam<int> {};

/// A ring of 8 routers (8x1 torus), every node sending `packets` 8-flit packets three hops
/// clockwise at once: long worms over shallow buffers close the ring's channel cycle.
struct RingRun {
    bool deadlocked;
    std::vector<std::string> stuck;
    std::int64_t ejected;
};

inline RingRun run_ring(bool dateline, int packets, int threads = 1) {
    init_time_resolution();
    NocConfig c = grid_config(NocTopologyKind::Torus, 1, 8);
    c.dateline = dateline;
    c.router.vcs = 2;
    c.router.buffer_depth = 2;
    c.watchdog_cycles = 2000;
    VcNetwork net("network", c);
    net.set_threads(threads);
    for (int i = 0; i < packets; ++i)
        for (int s = 0; s < 8; ++s) net.create_packet(s, (s + 3) % 8, 8, 0);
    sc_core::sc_start();
    return {net.deadlocked(), net.busy_routers(), net.packets_ejected()};
}

/// Loads `text` as a NoC config and returns the InputError message ("" if none).
inline std::string config_error(const std::string& text) {
    const std::string path = "noc_bad_test.json";
    {
        std::ofstream f(path);
        f << text;
    }
    std::string msg;
    try {
        load_noc_config(path);
    } catch (const InputError& e) {
        msg = e.what();
    }
    std::remove(path.c_str());
    return msg;
}

}  // namespace mcmsim::vc_test
