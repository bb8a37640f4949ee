#pragma once
// Hand-made workloads and packages, and the plan walks, the collective tests share.
#include "hw/common/input_error.h"
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "tests/support/hand_arch.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

namespace mcmsim::collective_test {

using namespace mcmsim;

inline ArchConfig arch_2x2() { return load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json"); }

inline ArchConfig arch_1x4() {
    ArchConfig a = arch_2x2();
    a.package.rows = 1, a.package.cols = 4;  // the memory stays on chiplet 0
    return a;
}

inline ArchConfig arch_4x4() { return load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json"); }

// fc1 (C = 16, K = k1) feeds fc2 (C = k1, K = 16). Under a K split of both, every chiplet
// computes a slice of fc1's outputs and fc2 needs all of them on every chiplet: an
// all-gather of fc1's output (k1 bytes, 1 byte per element).
inline Workload two_fc(std::int64_t k1) {
    Workload w;
    w.name = "two-fc";
    Layer a;
    a.name = "fc1";
    a.kind = LayerKind::FullyConnected;
    a.c = 16;
    a.k = k1;
    Layer b = a;
    b.name = "fc2";
    b.c = k1;
    b.k = 16;  // work for every chiplet of a 4 x 4 package
    b.inputs = {0};
    w.layers = {a, b};
    return w;
}

inline Mapping with(const Workload& w, Collective c, Partition fc2 = Partition{}, std::vector<double> fc1_shares = {}) {
    Mapping m = uniform_mapping(w, Partition{});
    m.layers[0].partition.shares = std::move(fc1_shares);
    m.layers[1].partition = fc2;
    for (auto& l : m.layers) l.collective = c;
    return m;
}

struct Flow {
    int from, to;
    std::int64_t bytes;
    bool operator<(const Flow& o) const { return std::tie(from, to, bytes) < std::tie(o.from, o.to, o.bytes); }
    bool operator==(const Flow& o) const { return from == o.from && to == o.to && bytes == o.bytes; }
};

inline std::vector<Flow> flows_of(const PlanLayer& l) {
    std::vector<Flow> out;
    for (const PlanOp& op : l.ops)
        if (op.kind == OpKind::Send)
            for (std::size_t t = 0; t < op.transfer_count(); ++t) {
                TransferRef x = op.transfer(t);
                EXPECT_EQ(x.route, nullptr);  // XY policy on an XY package: no source routes
                out.push_back(Flow{op.chiplet, x.peer, x.bytes});
            }
    std::sort(out.begin(), out.end());
    return out;
}

/// Columns first, then rows (the package's XY routing), as (router, next router) steps.
inline std::vector<std::pair<int, int>> xy_links(int cols, int from, int to) {
    std::vector<std::pair<int, int>> out;
    int r = from / cols, c = from % cols;
    const int tr = to / cols, tc = to % cols;
    while (c != tc) {
        int nc = c + (tc > c ? 1 : -1);
        out.push_back({r * cols + c, r * cols + nc});
        c = nc;
    }
    while (r != tr) {
        int nr = r + (tr > r ? 1 : -1);
        out.push_back({r * cols + c, nr * cols + c});
        r = nr;
    }
    return out;
}

inline std::map<std::pair<int, int>, std::int64_t> link_loads(int cols, const std::vector<Flow>& flows) {
    std::map<std::pair<int, int>, std::int64_t> load;
    for (const Flow& f : flows)
        for (auto l : xy_links(cols, f.from, f.to)) load[l] += f.bytes;
    return load;
}

/// The same flows built from a hand-written hop list, every hop carrying `bytes`.
inline std::vector<Flow> hops_to_flows(const std::vector<std::pair<int, int>>& hops, std::int64_t bytes) {
    std::vector<Flow> out;
    for (auto [a, b] : hops) out.push_back(Flow{a, b, bytes});
    std::sort(out.begin(), out.end());
    return out;
}

inline bool neighbours(int cols, int a, int b) { return std::abs(a / cols - b / cols) + std::abs(a % cols - b % cols) == 1; }

// A 1 x 4 line for timing by hand: mesh links 10 GB/s per direction, 5 ns, 1 pJ/b; routers
// 2 cycles at 1 GHz (2 ns), 16-byte flits, 3 pJ per flit, packets of at most 64 B; NI 40 GB/s.
// One memory on router 0, unused. No leakage.
inline ArchConfig hand_line_1x4() {
    ArchConfig a = test_support::hand_arch("hand-1x4", 1, 4, /*ni*/ 40, /*dram*/ 64, /*phy*/ 64);
    a.chiplet.leakage_mw = 0;
    return a;
}

/// One relay hop of a hand-written collective: `from` sends `to` a slice at `depth` (hops
/// before it); `relays`: `to` forwards it (it then arrives in a relay recv, else in `to`'s
/// final recv).
struct HandHop {
    int from, to, depth;
    bool relays;
};

/// A one-layer plan of only the hops' sends and recvs, laid out as the plan builder lays out
/// a collective: per depth, one send op per source (depth > 0: waiting for its relay recv of
/// the depth before), then one relay recv per chiplet for the relayed hops that arrived; last,
/// one recv per chiplet for all it keeps. `flow_depth`: the depth of each flow's hop.
inline Plan hand_relay_plan(int chiplets, const std::vector<HandHop>& hops, std::int64_t bytes, std::vector<int>& flow_depth) {
    Plan p;
    p.arch = "hand-1x4";
    p.workload = "relay";
    p.chiplets = chiplets;
    p.memories = 1;
    p.layers.emplace_back();
    PlanLayer& L = p.layers.back();
    L.name = "all-gather";
    std::int64_t id = 0, flow = 0;
    int max_depth = 0;
    for (const HandHop& h : hops) max_depth = std::max(max_depth, h.depth);
    const auto n = static_cast<std::size_t>(chiplets);
    std::vector<std::int64_t> relay_recv(n, -1);  // per chiplet: its relay recv of the depth before
    std::vector<std::vector<Transfer>> kept(n);
    for (int depth = 0; depth <= max_depth; ++depth) {
        std::vector<std::vector<Transfer>> relayed(n);
        for (int c = 0; c < chiplets; ++c) {
            PlanOp s;
            s.kind = OpKind::Send;
            s.chiplet = c;
            for (const HandHop& h : hops)
                if (h.depth == depth && h.from == c) {
                    Transfer t;
                    t.peer = h.to, t.bytes = bytes, t.flow = flow++;
                    flow_depth.push_back(depth);
                    s.transfers.push_back(t);
                    s.bytes += bytes;
                    (h.relays ? relayed : kept)[static_cast<std::size_t>(h.to)].push_back(Transfer{c, bytes, t.flow, {}});
                }
            if (s.transfers.empty()) continue;
            s.id = id++;
            if (depth > 0) s.deps = {relay_recv[static_cast<std::size_t>(c)]};
            L.ops.push_back(s);
        }
        for (int c = 0; c < chiplets; ++c) {
            auto& in = relayed[static_cast<std::size_t>(c)];
            if (in.empty()) continue;
            PlanOp r;
            r.kind = OpKind::Recv;
            r.chiplet = c;
            r.id = id++;
            for (const Transfer& t : in) r.bytes += t.bytes;
            r.transfers = in;
            relay_recv[static_cast<std::size_t>(c)] = r.id;
            L.ops.push_back(r);
        }
    }
    for (int c = 0; c < chiplets; ++c) {
        auto& in = kept[static_cast<std::size_t>(c)];
        if (in.empty()) continue;
        PlanOp r;
        r.kind = OpKind::Recv;
        r.chiplet = c;
        r.id = id++;
        for (const Transfer& t : in) r.bytes += t.bytes;
        r.transfers = in;
        L.ops.push_back(r);
    }
    return p;
}

}  // namespace mcmsim::collective_test
