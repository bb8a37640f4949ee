#pragma once
// The order of micro-batches on a chiplet (layer-pipelined placement with micro-batches): a
// layer's micro-batches compute in order, and a micro-batch starts (its first compute, its
// network-input reads) only when the chiplet has finished the micro-batch two before, so that
// at most two are in flight per chiplet (double buffering). Without micro-batches nothing
// waits and nothing is recorded. Pure C++.
#include "hw/common/id_vector.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mcmsim {

class MicroBatchOrder {
public:
    MicroBatchOrder(int chiplets, int micro_batches, std::size_t layers);

    /// The step being built: workload layer `layer` for micro-batch `mb`.
    void begin(std::size_t layer, int mb);
    /// Per chiplet, the last compute it did for the micro-batch two before the current one
    /// (-1: none), which the current micro-batch's first work there waits for. Empty when
    /// nothing waits.
    const IdVector<std::int64_t>& start() const { return start_; }
    /// Adds to `d` what the compute of the current step on chiplet c waits for: the same
    /// layer's previous micro-batch there, and for the micro-batch's first compute there its
    /// start().
    void wait(int c, std::vector<std::int64_t>& d) const;
    /// A compute op made on chiplet c for the current step.
    void computed(int c, std::int64_t id);

private:
    int n_, micro_batches_;
    std::size_t layer_ = 0;
    int mb_ = 0;
    IdVector<IdVector<std::int64_t>> mb_last_;        ///< [chiplet][micro-batch] last compute op
    std::vector<IdVector<std::int64_t>> layer_last_;  ///< [layer][chiplet] last compute op, any micro-batch
    IdVector<std::int64_t> start_;                    ///< start() of the current step
};

}  // namespace mcmsim
