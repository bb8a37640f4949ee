#include "traces/plan/plan_causality.h"

#include <algorithm>
#include <set>

namespace mcmsim {

namespace {

// Times are ns as doubles; an evaluator that starts an op exactly when its dependency ends
// may round the two differently in the last bits.
constexpr double kSlackNs = 1e-6;
constexpr std::size_t kFirstKept = 10;

/// The ops each op waits for: its deps, and for a recv the sends of its flows.
std::vector<std::vector<std::size_t>> predecessors(const PlanIndex& index) {
    std::vector<std::vector<std::size_t>> pred(index.size());
    for (std::size_t i = 0; i < index.size(); ++i) {
        const PlanOp& op = *index.ops[i];
        for (std::int64_t d : op.deps) pred[i].push_back(index.index(d));
        if (op.kind != OpKind::Send) continue;
        for (std::size_t t = 0; t < op.transfer_count(); ++t) {
            const std::size_t r = index.recv_of(op.transfer(t).flow);
            if (r != KeyIndex::kNone) pred[r].push_back(i);
        }
    }
    return pred;
}

/// Ops in an order where every op comes after the ops it waits for (Kahn); a cycle leaves the
/// ops on it out, and they then count as unreached.
std::vector<std::size_t> wait_order(const std::vector<std::vector<std::size_t>>& pred) {
    const std::size_t n = pred.size();
    std::vector<std::vector<std::size_t>> succ(n);
    std::vector<std::size_t> missing(n, 0), order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        missing[i] = pred[i].size();
        for (std::size_t p : pred[i]) succ[p].push_back(i);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (missing[i] == 0) order.push_back(i);
    for (std::size_t k = 0; k < order.size(); ++k)
        for (std::size_t s : succ[order[k]])
            if (--missing[s] == 0) order.push_back(s);
    return order;
}

class Checker {
public:
    Checker(const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times)
        : plan_(plan), index_(index), times_(times), pred_(predecessors(index)) {}

    CausalityCheck run() {
        check_order();
        check_data();
        for (int l : named_) out_.layers.push_back(plan_.layers[l].name);
        return std::move(out_);
    }

private:
    std::string op_text(std::size_t i) const {
        const PlanOp& op = *index_.ops[i];
        return std::string(to_string(op.kind)) + " op " + std::to_string(op.id) + " of layer '" +
               plan_.layers[index_.layer_of[i]].name + "' on chiplet " + std::to_string(op.chiplet);
    }

    void note(std::string text, int layer) {
        if (out_.first.size() < kFirstKept) out_.first.push_back(std::move(text));
        named_.insert(layer);
    }

    void check_order() {
        for (std::size_t i = 0; i < index_.size(); ++i) {
            if (!times_[i].done()) continue;
            for (std::size_t p : pred_[i]) {
                if (!times_[p].done()) continue;
                const bool is_flow = index_.ops[p]->kind == OpKind::Send && index_.ops[i]->kind == OpKind::Recv &&
                                     std::find(index_.ops[i]->deps.begin(), index_.ops[i]->deps.end(), index_.ops[p]->id) ==
                                         index_.ops[i]->deps.end();
                // A flow's bytes cannot arrive before they were sent; an op cannot start
                // before what it depends on has ended.
                const bool broken =
                    is_flow ? times_[i].end_ns + kSlackNs < times_[p].start_ns : times_[i].start_ns + kSlackNs < times_[p].end_ns;
                if (!broken) continue;
                ++out_.order_violations;
                note(op_text(i) + (is_flow ? " received its flow before " : " started before ") + op_text(p) +
                         (is_flow ? " sent it" : " ended"),
                     index_.layer_of[i]);
                named_.insert(index_.layer_of[p]);
            }
        }
    }

    /// Per op, the layers whose data reaches it: an op of another layer contributes its layer;
    /// every op but another layer's compute op also passes on what reached it.
    void check_data() {
        const std::size_t n = index_.size();
        std::vector<std::vector<int>> from(n);
        for (std::size_t i : wait_order(pred_)) {
            const int li = index_.layer_of[i];
            std::vector<int>& f = from[i];
            for (std::size_t p : pred_[i]) {
                const int lp = index_.layer_of[p];
                if (lp != li) f.push_back(lp);
                // A compute op of another layer is where that layer's data comes from; the
                // search stops there. Through anything else it goes on.
                if (lp == li || index_.ops[p]->kind != OpKind::Compute) f.insert(f.end(), from[p].begin(), from[p].end());
            }
            std::sort(f.begin(), f.end());
            f.erase(std::unique(f.begin(), f.end()), f.end());
        }
        std::vector<std::vector<int>> fed(plan_.layers.size());  // producers reaching some compute op
        for (std::size_t i = 0; i < n; ++i) {
            const int l = index_.layer_of[i];
            const std::vector<int>& in = plan_.layers[l].inputs;
            if (in.empty() || index_.ops[i]->kind != OpKind::Compute) continue;
            bool any = false;
            for (int p : in)
                if (std::binary_search(from[i].begin(), from[i].end(), p)) {
                    any = true;
                    fed[l].push_back(p);
                }
            if (any) continue;
            ++out_.data_violations;
            note(op_text(i) + " is reached by no compute op of its input layers", l);
        }
        for (std::size_t l = 0; l < plan_.layers.size(); ++l) {
            const PlanLayer& L = plan_.layers[l];
            const bool computes =
                std::any_of(L.ops.begin(), L.ops.end(), [](const PlanOp& o) { return o.kind == OpKind::Compute; });
            if (!computes) continue;
            for (int p : L.inputs) {
                if (std::find(fed[l].begin(), fed[l].end(), p) != fed[l].end()) continue;
                ++out_.data_violations;
                note("layer '" + L.name + "' reads layer '" + plan_.layers[p].name +
                         "', but none of its compute ops waits for that layer's data",
                     static_cast<int>(l));
                named_.insert(p);
            }
        }
    }

    const Plan& plan_;
    const PlanIndex& index_;
    const std::vector<OpTimes>& times_;
    std::vector<std::vector<std::size_t>> pred_;
    CausalityCheck out_;
    std::set<int> named_;
};

}  // namespace

nlohmann::json CausalityCheck::to_json() const {
    return {{"causality_ok", ok()},
            {"causality_order_violations", order_violations},
            {"causality_data_violations", data_violations},
            {"causality_first", first}};
}

CausalityCheck check_causality(const Plan& plan, const PlanIndex& index, const std::vector<OpTimes>& times) {
    return Checker(plan, index, times).run();
}

}  // namespace mcmsim
