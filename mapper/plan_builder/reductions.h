#pragma once
// Partial sums after a C split (used by the plan builder). Pure C++.
//
// Chiplets whose boxes cover the same output region (the same n, k, p, q ranges) each hold
// partial sums of it. They reduce-scatter them: the region's K range is split evenly over the
// members, and each member's K-slice is reduced onto it along the layer's collective's trees
// run backwards (TransferBatch::reduce): under direct every other member sends it its partial
// sums and it adds them all; under ring, 2d, tree or synth the partial sums are added on
// their way, each chiplet adding its children's into its own before it sends the sum on
// (synth: chunked and synthesised with the phase's other slices). A member's own partial sums
// stay on chip. Afterwards every member owns its summed K-slice; a box without partners owns
// its whole output.
#include "hw/common/id_vector.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/partition.h"
#include "mapper/plan_builder/micro_batch_order.h"
#include "mapper/plan_builder/op_sink.h"
#include "mapper/plan_builder/owned_pieces.h"
#include "mapper/plan_builder/transfer_batch.h"
#include "traces/plan/plan.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

class Reductions {
public:
    /// `partial_sum_bytes`: bytes per partial sum exchanged (the accumulators' width).
    Reductions(OpSink& sink, TransferBatch& batch, int chiplets, std::int64_t partial_sum_bytes);

    /// Reduces the partial sums of a step split into `boxes` whose compute ops are `compute`
    /// (per chiplet): transfers and sums go into `layer` under `policy`; `owned` becomes, per
    /// chiplet, the pieces of the step's output it holds; each sum counts as a compute of the
    /// step in `order`; the owners' own partial sums count as on-chip bytes in `info`.
    void reduce(PlanLayer& layer, const IdVector<WorkBox>& boxes, const IdVector<std::int64_t>& compute, RoutePolicy policy,
                OwnedPieces& owned, PlanLayerMapping& info, MicroBatchOrder& order);

private:
    /// A member's summed K-slice, made after the transfers it waits for.
    struct Slice {
        int owner;
        WorkBox piece;
    };

    OpSink& sink_;
    TransferBatch& batch_;
    int n_;
    std::int64_t partial_sum_bytes_;
    // Scratch, kept to reuse its memory: the chiplets holding partial sums of one output
    // region; per chiplet, the recvs of its partial sums.
    IdVector<int> group_;
    ChipletDeps recv_;
};

}  // namespace mcmsim
