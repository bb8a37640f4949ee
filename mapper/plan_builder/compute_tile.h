#pragma once
// What one chiplet computes of a layer: its box as a tile shape, vector ops, the bytes
// re-tiling fetches from DRAM again, and the compute op with its SRAM bytes and label (used
// by the plan builder). Pure C++.
#include "hw/compute/compute_work.h"
#include "hw/config/chiplet_config.h"
#include "mapper/mapping/input_need.h"
#include "mapper/mapping/partition.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

/// A box's work before its op exists.
struct BoxWork {
    TileShape shape;              ///< empty for a vector layer
    std::int64_t vector_ops = 0;  ///< a vector layer's, in proportion to the box's output
    /// Bytes the chiplet fetches again when a tile does not fit its buffers (re-tiling).
    std::int64_t refetch = 0;
};

/// Box `b` of layer L on a chiplet `chip`; `out_total`: the layer's output volume.
BoxWork box_work(const ChipletConfig& chip, const Layer& L, const WorkBox& b, double out_total);

/// Fills compute op `cp` for box `b` of L: its shape, MACs, vector ops, SRAM bytes (the weight
/// slice's `weight_bytes`, the box's parts of the `operands`, its output) and its tile label.
void fill_compute(PlanOp& cp, const Layer& L, const WorkBox& b, const BoxWork& work, std::int64_t weight_bytes,
                  const std::vector<Operand>& operands);

/// "k[0:64) p[0:28)": the box's ranges that are not the layer's whole dimension; "all" if none.
std::string tile_label(const WorkBox& b, const Layer& L);

}  // namespace mcmsim
