#pragma once
// Plans the analytical-model tests build op by op (with tests/support/hand_arch.h packages):
// an op maker, one layer of independent flows, and the two-flows case several tests work out
// by hand under different rules.
#include "traces/plan/plan.h"

#include <cstdint>
#include <vector>

namespace mcmsim::test_support {

inline PlanOp op(std::int64_t id, int chiplet, OpKind kind) {
    PlanOp o;
    o.id = id;
    o.chiplet = chiplet;
    o.kind = kind;
    return o;
}

/// One flow of a hand plan: `bytes` from chiplet `from` to chiplet `to`.
struct HandFlow {
    int from, to;
    std::int64_t bytes;
};

/// One layer of `flows` that wait for nothing: every flow's send (ops 0 .. F - 1, flow ids
/// in order), then every flow's recv (ops F .. 2F - 1, in the same order).
inline Plan hand_flows(int chiplets, const std::vector<HandFlow>& flows) {
    Plan p;
    p.chiplets = chiplets;
    p.memories = 1;
    PlanLayer l;
    l.name = "flows";
    const auto n = static_cast<std::int64_t>(flows.size());
    for (std::int64_t i = 0; i < n; ++i) {
        const HandFlow& f = flows[static_cast<std::size_t>(i)];
        PlanOp s = op(i, f.from, OpKind::Send);
        s.bytes = f.bytes, s.flow = i, s.peer = f.to;
        l.ops.push_back(s);
    }
    for (std::int64_t i = 0; i < n; ++i) {
        const HandFlow& f = flows[static_cast<std::size_t>(i)];
        PlanOp r = op(n + i, f.to, OpKind::Recv);
        r.bytes = f.bytes, r.flow = i, r.peer = f.from;
        l.ops.push_back(r);
    }
    p.layers = {l};
    return p;
}

/// On a 1x3 package: chiplet 0 sends 100 B to chiplet 2 (ops 0, 1), then, later in plan
/// order, chiplet 1 sends 100 B to chiplet 2 (ops 2, 3); nothing waits, so all start at 0.
/// Both flows cross the link into chiplet 2's router, the first from two hops away.
inline Plan two_flows_into_one() {
    Plan p;
    p.chiplets = 3;
    p.memories = 1;
    PlanLayer l;
    l.name = "two-flows";
    PlanOp s0 = op(0, 0, OpKind::Send);
    s0.bytes = 100, s0.flow = 0, s0.peer = 2;
    PlanOp r0 = op(1, 2, OpKind::Recv);
    r0.bytes = 100, r0.flow = 0, r0.peer = 0;
    PlanOp s1 = op(2, 1, OpKind::Send);
    s1.bytes = 100, s1.flow = 1, s1.peer = 2;
    PlanOp r1 = op(3, 2, OpKind::Recv);
    r1.bytes = 100, r1.flow = 1, r1.peer = 1;
    l.ops = {s0, r0, s1, r1};
    p.layers = {l};
    return p;
}

}  // namespace mcmsim::test_support
