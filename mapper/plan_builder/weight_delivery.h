#pragma once
// How each chiplet's weight slice (k x c x R x S of its box) reaches it for its compute, plus
// the bytes re-tiling makes it fetch again (used by the plan builder). Pure C++.
//
//  - Layer-sequential placement: read from the chiplet's nearest memory one layer ahead; the
//    read waits only for the compute two layers back (double buffering). With weight
//    multicast (LayerMapping::weight_multicast) chiplets holding the same slice (the same K
//    and C ranges) form a group: the member nearest its memory reads the slice once, one
//    layer ahead like every weight read, and the layer's collective forwards it to the others.
//  - Layer-pipelined placement, per segment and chiplet: weights stay resident when the
//    chiplet's slices of all the segment's layers fit its weight buffers (pes x weight
//    buffer): each slice is read once, one after the other in layer order from the start, and
//    serves every micro-batch; otherwise every micro-batch reads them again, double buffered
//    (a read waits for the compute that used the weights two reads back). Re-tiling reads
//    follow the micro-batch either way. No weight multicast: the residency decides.
#include "hw/common/id_vector.h"
#include "hw/config/arch_config.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/partition.h"
#include "mapper/plan_builder/chiplet_memories.h"
#include "mapper/plan_builder/op_sink.h"
#include "mapper/plan_builder/plan_steps.h"
#include "mapper/plan_builder/transfer_batch.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace mcmsim {

/// Bytes of the weight slice box `b` of layer L reads (0 for layers without weights).
std::int64_t weight_slice_bytes(const Layer& L, const WorkBox& b);

class WeightDelivery {
public:
    /// `compute`: [step][chiplet] the compute op of each step built so far (-1: none), which
    /// the builder fills. Plans the residency of a pipelined mapping's segments.
    WeightDelivery(const ArchConfig& arch, const Mapping& m, const PlanSteps& steps, const ChipletMemories& memories,
                   OpSink& sink, TransferBatch& batch, const IdVector<IdVector<std::int64_t>>& compute);

    /// Weight multicast for step `step` of shape L split into `boxes`: the groups' reads and
    /// the collective's transfers go into `layer`, what each chiplet's compute waits for into
    /// `deps`, what they save into `info`. A step without it only forgets the last step's groups.
    void multicast(PlanLayer& layer, const Layer& L, const LayerMapping& lm, int step, const IdVector<WorkBox>& boxes,
                   ChipletDeps& deps, PlanLayerMapping& info);
    /// The weight read(s) the compute of chiplet c in step `step` waits for, made in `layer`
    /// and added to `d`: `wbytes` of its slice (unless multicast brought them) and `refetch`
    /// bytes re-tiling fetches again.
    void read(PlanLayer& layer, int step, int c, std::int64_t wbytes, std::int64_t refetch, std::vector<std::int64_t>& d);
    /// The compute `id` on chiplet c that the last read() was for.
    void used_by(int c, std::int64_t id);
    /// Whether the weights of pipeline segment `segment` stay resident.
    bool resident(int segment) const { return resident_.at(segment); }

private:
    void plan_residency(const Mapping& m, const PlanSteps& steps);
    void pipelined(PlanLayer& layer, int step, int c, std::int64_t wbytes, std::int64_t refetch, std::vector<std::int64_t>& d);
    /// A DramRead of `bytes` of chiplet c's weights from its nearest memory, waiting for `deps`.
    PlanOp& read_op(PlanLayer& layer, int c, std::int64_t bytes, std::vector<std::int64_t> deps);
    /// The compute two steps before `step` on chiplet c as a dependency list (empty: none).
    std::vector<std::int64_t> two_steps_back(int step, int c) const;

    const ArchConfig& arch_;
    const Mapping& m_;
    const PlanSteps& steps_;
    const ChipletMemories& memories_;
    OpSink& sink_;
    TransferBatch& batch_;
    const IdVector<IdVector<std::int64_t>>& compute_;
    int rows_, cols_, n_;

    IdVector<bool> multicast_;  ///< [chiplet] the current step's weights came by multicast
    std::vector<int> dests_;    ///< scratch of multicast(): a group's members but its reader

    // Pipelined placement.
    std::map<int, bool> resident_;                     ///< segment -> its weights stay resident
    std::vector<IdVector<std::int64_t>> weight_read_;  ///< [layer][chiplet] resident weight read
    IdVector<std::vector<std::int64_t>> weight_uses_;  ///< [chiplet] computes after a streamed weight read
    IdVector<std::int64_t> last_resident_read_;        ///< [chiplet] the latest resident weight read
    bool streamed_read_ = false;                       ///< the compute being made follows a streamed weight read
};

}  // namespace mcmsim
