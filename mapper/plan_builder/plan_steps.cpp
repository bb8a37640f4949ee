#include "mapper/plan_builder/plan_steps.h"

#include "mapper/mapping/input_need.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace mcmsim {

PlanSteps::PlanSteps(const Workload& w, const Mapping& m) {
    const std::int64_t batch = w.batch;
    const std::int64_t size = m.micro_batch > 0 ? std::min(m.micro_batch, batch) : batch;
    micro_batches_ = static_cast<int>((batch + size - 1) / size);
    for (const LayerMapping& lm : m.layers) pipelined_ = pipelined_ || lm.segment >= 0;
    pipelined_ = pipelined_ || micro_batches_ > 1;
    const std::size_t nl = w.layers.size();
    if (micro_batches_ == 1) {
        for (std::size_t l = 0; l < nl; ++l) steps_.push_back(Step{l, 0, &w.layers[l]});
    } else {
        mb_layers_.reserve(nl * static_cast<std::size_t>(micro_batches_));  // steps point into it
        for (int b = 0; b < micro_batches_; ++b) {
            const std::int64_t n = std::min(batch, (b + 1) * size) - b * size;
            for (std::size_t l = 0; l < nl; ++l) {
                Layer L = w.layers[l];
                if (L.n != batch)
                    throw std::invalid_argument("micro-batches: layer " + L.name + " has another batch than its workload");
                L.n = n;
                for (int& in : L.inputs) in += b * static_cast<int>(nl);
                mb_layers_.push_back(std::move(L));
                steps_.push_back(Step{l, b, &mb_layers_.back()});
            }
        }
    }
    consumed_.assign(steps_.size(), false);
    for (const Step& st : steps_)
        for (const Operand& op : operands_of(*st.L))
            for (int p : op.producers) consumed_[p] = true;
}

IdVector<const Layer*> PlanSteps::shapes() const {
    IdVector<const Layer*> out;
    for (const Step& st : steps_) out.push_back(st.L);
    return out;
}

IdVector<WorkBox> boxes_on_package(const Layer& L, const LayerMapping& lm, int rows, int cols) {
    const ChipletGroup g = lm.group.on(rows, cols);
    if (g == ChipletGroup{0, 0, rows, cols}) return partition_layer(L, lm.partition, rows, cols);
    const IdVector<WorkBox> local = partition_layer(L, lm.partition, g.rows, g.cols);  // [chiplet of the group]
    IdVector<WorkBox> out(rows * cols);                                                // default boxes are empty
    for (int i = 0; i < g.size(); ++i) out[g.chiplet(i, cols)] = local[i];
    return out;
}

}  // namespace mcmsim
