#pragma once
// The plan layers a mapping makes and where each one's work goes. Pure C++.
//
// A step is one plan layer: a workload layer for one micro-batch, or for the whole batch
// without micro-batches. With Mapping::micro_batch > 0 the steps run micro-batch by
// micro-batch, each the whole layer list ("conv1/mb2"), and a step's inputs name the steps of
// its own micro-batch. Placement: a layer runs on its chiplet group; the partition splits it
// over the group's rows x cols, box i going to the group's i-th chiplet.
#include "hw/common/id_vector.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/partition.h"
#include "mapper/workload/workload.h"

#include <cstddef>
#include <vector>

namespace mcmsim {

struct Step {
    std::size_t layer;  ///< workload layer
    int mb;             ///< micro-batch (0 without micro-batches)
    const Layer* L;     ///< its shape for this micro-batch; inputs name steps of the same micro-batch
};

class PlanSteps {
public:
    /// Throws std::invalid_argument when a layer's batch differs from the workload's under micro-batches.
    PlanSteps(const Workload& w, const Mapping& m);
    PlanSteps(const PlanSteps&) = delete;  // steps point into mb_layers_
    PlanSteps& operator=(const PlanSteps&) = delete;

    int size() const { return steps_.size(); }
    const Step& operator[](int s) const { return steps_[s]; }
    int micro_batches() const { return micro_batches_; }
    /// Placement beyond layer-sequential (segments or micro-batches): weights by residency.
    bool pipelined() const { return pipelined_; }
    /// Whether a later step reads step `s`'s output.
    bool consumed(int s) const { return consumed_[s]; }
    /// Each step's shape, in plan order.
    IdVector<const Layer*> shapes() const;

private:
    IdVector<Step> steps_;          ///< in plan order
    std::vector<Layer> mb_layers_;  ///< the layers' shapes per micro-batch (steps point here)
    int micro_batches_ = 1;
    bool pipelined_ = false;
    IdVector<bool> consumed_;  ///< [step]
};

/// One box per package chiplet: the partition of L over the layer's group on a rows x cols
/// package, empty outside the group.
IdVector<WorkBox> boxes_on_package(const Layer& L, const LayerMapping& lm, int rows, int cols);

}  // namespace mcmsim
