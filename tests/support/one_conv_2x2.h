#pragma once
// The small case the DRAM-delivery tests (weight and input multicast) work out by hand: the
// mcm-2x2 package (chiplets 0 1 / 2 3, one HBM stack attached at chiplet 0's router, so
// chiplets 0..3 are 0, 1, 1, 2 package hops from it) and one 3x3 conv with C = 4, K = 8 and
// an 8x8 input and output (pad 1), 8-bit, whose input comes from DRAM:
//   input  N x C x H x W = 1 x 4 x 8 x 8 = 256 bytes,
//   filter K x C x R x S = 8 x 4 x 3 x 3 = 288 bytes.
#include "hw/config/arch_config.h"
#include "mapper/mapping/partition.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <cstdint>
#include <map>
#include <string>

namespace mcmsim::test_support {

inline ArchConfig arch_2x2() { return load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json"); }

inline Workload one_conv() {
    Workload w;
    w.name = "one-conv";
    Layer L;
    L.name = "conv";
    L.kind = LayerKind::Conv;
    L.c = 4, L.h = 8, L.w = 8, L.k = 8, L.r = 3, L.s = 3, L.p = 8, L.q = 8, L.pad = 1;
    w.layers = {L};
    return w;
}

/// One dimension along grid rows, one along columns (the same twice: over all chiplets).
inline Partition split(Dim rows, Dim cols) {
    Partition p;
    p.rows_dim = rows, p.cols_dim = cols;
    return p;
}

/// The bytes of the first layer's DRAM reads.
inline std::int64_t dram_read_bytes(const Plan& plan) {
    std::int64_t b = 0;
    for (const PlanOp& op : plan.layers[0].ops)
        if (op.kind == OpKind::DramRead) b += op.bytes;
    return b;
}

/// The first layer's bytes received, per chiplet.
inline std::map<int, std::int64_t> received(const Plan& plan) {
    std::map<int, std::int64_t> r;
    for (const PlanOp& op : plan.layers[0].ops)
        if (op.kind == OpKind::Recv) r[op.chiplet] += op.bytes;
    return r;
}

}  // namespace mcmsim::test_support
