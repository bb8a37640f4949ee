#include "mapper/model/link_reservation.h"

namespace mcmsim {

void PathStore::clear() {
    pairs_.clear();
    refs_.clear();
    rest_at_.clear();
    pointers_ = false;
}

std::uint32_t PathStore::add(const std::vector<PathStep>& steps, double head_ns) {
    PathRef r{nullptr, 0, -1, 0.0, head_ns};
    rest_at_.push_back(pairs_.size());
    if (!steps.empty()) {
        r.first_link = steps.front().link;
        r.first_hold = steps.front().hold;
        r.records = static_cast<std::uint32_t>(steps.size() / 2);  // of the steps.size() - 1 after the first
        for (std::size_t k = 1; k < steps.size(); k += 2) {
            const PathStep& a = steps[k];
            const PathStep& b = k + 1 < steps.size() ? steps[k + 1] : a;
            pairs_.push_back(StepPair{{a.z, b.z}, {a.hold, b.hold}, {a.link, b.link}});
        }
    }
    refs_.push_back(r);
    pointers_ = false;
    return static_cast<std::uint32_t>(refs_.size() - 1);
}

const PathRef* PathStore::refs() {
    if (!pointers_) {
        for (std::size_t p = 0; p < refs_.size(); ++p) refs_[p].rest = pairs_.data() + rest_at_[p];
        pointers_ = true;
    }
    return refs_.data();
}

}  // namespace mcmsim
