#include "mapper/plan_builder/micro_batch_order.h"

namespace mcmsim {

MicroBatchOrder::MicroBatchOrder(int chiplets, int micro_batches, std::size_t layers)
    : n_(chiplets), micro_batches_(micro_batches) {
    if (micro_batches_ == 1) return;
    mb_last_.assign(n_, IdVector<std::int64_t>(micro_batches_, -1));
    layer_last_.assign(layers, IdVector<std::int64_t>(n_, -1));
}

void MicroBatchOrder::begin(std::size_t layer, int mb) {
    layer_ = layer;
    mb_ = mb;
    start_.clear();
    if (micro_batches_ == 1 || mb_ < 2) return;
    for (int c = 0; c < n_; ++c) start_.push_back(mb_last_[c][mb_ - 2]);
}

void MicroBatchOrder::wait(int c, std::vector<std::int64_t>& d) const {
    if (micro_batches_ == 1) return;
    const std::int64_t prev = layer_last_[layer_][c];
    if (prev >= 0) d.push_back(prev);
    if (mb_last_[c][mb_] < 0 && !start_.empty() && start_[c] >= 0) d.push_back(start_[c]);
}

void MicroBatchOrder::computed(int c, std::int64_t id) {
    if (micro_batches_ == 1) return;
    mb_last_[c][mb_] = id;
    layer_last_[layer_][c] = id;
}

}  // namespace mcmsim
