#pragma once
// Plans the analytical-model tests build op by op (with tests/support/hand_arch.h packages):
// an op maker, and the two-flows case several tests work out by hand under different rules.
#include "traces/plan/plan.h"

#include <cstdint>

namespace mcmsim::test_support {

inline PlanOp op(std::int64_t id, int chiplet, OpKind kind) {
    PlanOp o;
    o.id = id;
    o.chiplet = chiplet;
    o.kind = kind;
    return o;
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
