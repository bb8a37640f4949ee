#pragma once
// Spilling workloads and packages, and the plan walks, the output-spill tests share.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/support/plan_bytes.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace mcmsim::spill_test {

using namespace mcmsim;

// mcm-2x2: chiplets 0 1 / 2 3, one HBM stack (memory 0), package flits of 32 bytes. The
// global buffer is cut to 300 bytes: a slice of 512 bytes does not fit, one of 128 does.
inline constexpr std::int64_t kBuffer = 300, kFlit = 32;

inline ArchConfig small_buffer_2x2() {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json");
    a.chiplet.global_buffer_bytes = kBuffer;
    return a;
}

inline Layer conv1x1(const std::string& name, std::int64_t c, std::int64_t k, std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::Conv;
    l.c = c, l.k = k, l.h = l.w = l.p = l.q = 8, l.r = l.s = 1;
    l.inputs = std::move(inputs);
    return l;
}

// a: 4 -> 32 channels on 8 x 8 (input from DRAM), b: 32 -> 8 reads a, c: 8 -> 8 reads b (the
// output). 1 byte per element. Split by K over the 4 chiplets, chiplet i owns:
//   a: channels [8i, 8i + 8) x 64 pixels = 512 bytes  > 300: spills
//   b: channels [2i, 2i + 2) x 64 pixels = 128 bytes <= 300: stays on chip
// b and c need all their input channels on every chiplet (a K split).
inline Workload three_convs() {
    Workload w;
    w.name = "three-convs";
    w.layers = {conv1x1("a", 4, 32, {}), conv1x1("b", 32, 8, {0}), conv1x1("c", 8, 8, {1})};
    validate_workload(w, "three-convs");
    return w;
}

inline Partition split(Dim d) {
    Partition p;
    p.rows_dim = p.cols_dim = d;
    return p;
}

inline const PlanOp* find_op(const Plan& plan, std::int64_t id) {
    for (const PlanLayer& l : plan.layers)
        for (const PlanOp& op : l.ops)
            if (op.id == id) return &op;
    return nullptr;
}

/// A DramRead of a spilled slice: it waits for a write (same chiplet) or a notice's recv,
/// where weight reads wait for computes or nothing.
inline bool is_spill_read(const Plan& plan, const PlanOp& op) {
    if (op.kind != OpKind::DramRead) return false;
    for (std::int64_t d : op.deps) {
        const PlanOp* dep = find_op(plan, d);
        if (dep && (dep->kind == OpKind::Recv || dep->kind == OpKind::DramWrite)) return true;
    }
    return false;
}

inline std::vector<const PlanOp*> ops_of(const PlanLayer& l, OpKind kind) {
    std::vector<const PlanOp*> out;
    for (const PlanOp& op : l.ops)
        if (op.kind == kind) out.push_back(&op);
    return out;
}

/// Flows sent and received in a layer pair up one to one (flow id -> (from, to, bytes)).
inline void expect_flows_pair(const PlanLayer& l) {
    std::map<std::int64_t, std::tuple<int, int, std::int64_t>> sent, received;
    for (const PlanOp& op : l.ops) {
        if (op.kind != OpKind::Send && op.kind != OpKind::Recv) continue;
        for (std::size_t i = 0; i < op.transfer_count(); ++i) {
            const TransferRef t = op.transfer(i);
            auto& side = op.kind == OpKind::Send ? sent : received;
            EXPECT_TRUE(side.count(t.flow) == 0) << "flow " << t.flow << " twice";
            side[t.flow] = op.kind == OpKind::Send ? std::make_tuple(op.chiplet, t.peer, t.bytes)
                                                   : std::make_tuple(t.peer, op.chiplet, t.bytes);
        }
    }
    EXPECT_EQ(sent, received) << l.name;
}

}  // namespace mcmsim::spill_test
