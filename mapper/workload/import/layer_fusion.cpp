// Views elided, biases folded and element-wise groups fused (see layer_fusion.h). Each step
// marks layers to drop with the layer their readers take instead, then one compaction
// rewrites every input list; the graph stays in topological order because a replacement is
// always an earlier layer.
#include "mapper/workload/import/layer_fusion.h"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mcmsim {

namespace {

constexpr int kKeep = -1;
constexpr int kDrop = -2;  ///< dropped with no reader left (a fused group's inner member)

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// Drops every layer with replace[i] != kKeep; readers of a dropped layer read
// replace[i] (itself resolved) instead, and a kDrop layer may have none. A MatMul keeps its operand positions; other kinds
// list each producer once.
Workload compact(const Workload& wl, const std::vector<int>& replace) {
    const std::size_t n = wl.layers.size();
    std::vector<int> resolved(n), new_index(n, -1);
    Workload out;
    out.name = wl.name;
    out.batch = wl.batch;
    out.notes = wl.notes;
    for (std::size_t i = 0; i < n; ++i) {
        if (replace[i] == kDrop) {
            resolved[i] = kDrop;
            continue;
        }
        resolved[i] = replace[i] == kKeep ? static_cast<int>(i) : resolved[at(replace[i])];
        if (replace[i] != kKeep) continue;
        Layer l = wl.layers[i];
        std::vector<int> inputs;
        for (int src : l.inputs) {
            if (resolved[at(src)] == kDrop) throw std::logic_error("layer fusion dropped a layer that " + l.name + " reads");
            const int to = new_index[at(resolved[at(src)])];
            if (l.kind == LayerKind::MatMul || std::find(inputs.begin(), inputs.end(), to) == inputs.end()) inputs.push_back(to);
        }
        l.inputs = std::move(inputs);
        new_index[i] = static_cast<int>(out.layers.size());
        out.layers.push_back(std::move(l));
    }
    return out;
}

std::vector<std::vector<int>> consumers_of(const Workload& wl) {
    std::vector<std::vector<int>> readers(wl.layers.size());
    for (std::size_t i = 0; i < wl.layers.size(); ++i)
        for (int src : wl.layers[i].inputs)
            if (readers[at(src)].empty() || readers[at(src)].back() != static_cast<int>(i))
                readers[at(src)].push_back(static_cast<int>(i));
    return readers;
}

bool is_view(const Layer& l) { return l.kind == LayerKind::Vector && l.op_class == VectorOpClass::Movement; }

// A layer that may join a vector kernel: element-wise work, not a pooling window (whose
// geometry the consumer's input grid follows) and not a view left with several inputs.
bool fusible(const Layer& l) { return l.kind == LayerKind::Vector && !l.window_op() && !is_view(l); }

// Views with one activation input and at least one reader: the readers take the view's
// producer. A view that ends the graph stays (it is the network's output).
Workload elide_views(const Workload& wl, FusionCounts& counts) {
    const auto readers = consumers_of(wl);
    std::vector<int> replace(wl.layers.size(), kKeep);
    for (std::size_t i = 0; i < wl.layers.size(); ++i) {
        const Layer& l = wl.layers[i];
        if (!is_view(l) || l.inputs.size() != 1 || readers[i].empty()) continue;
        replace[i] = l.inputs[0];
        ++counts.views;
    }
    return compact(wl, replace);
}

Workload fold_biases(const Workload& wl, const std::vector<bool>& bias_add, FusionCounts& counts) {
    const auto readers = consumers_of(wl);
    std::vector<int> replace(wl.layers.size(), kKeep);
    for (std::size_t i = 0; i < wl.layers.size(); ++i) {
        const Layer& l = wl.layers[i];
        if (i >= bias_add.size() || !bias_add[i] || l.inputs.size() != 1) continue;
        const int src = l.inputs[0];
        const Layer& mac = wl.layers[at(src)];
        if (!mac.is_mac_layer() || readers[at(src)].size() != 1) continue;
        if (mac.k * mac.p * mac.q * mac.heads != l.k * l.p * l.q) continue;
        replace[i] = src;
        ++counts.biases;
    }
    return compact(wl, replace);
}

// Groups from the last layer back: a fusible layer whose readers are all fusible and all in
// one group joins that group, so every member but the group's last (its root) is read only
// inside the group.
std::vector<int> vector_groups(const Workload& wl) {
    const auto readers = consumers_of(wl);
    std::vector<int> group(wl.layers.size());
    std::iota(group.begin(), group.end(), 0);
    for (std::size_t i = wl.layers.size(); i-- > 0;) {
        if (!fusible(wl.layers[i]) || readers[i].empty()) continue;
        const int g = group[at(readers[i][0])];
        const bool one_group = std::all_of(readers[i].begin(), readers[i].end(),
                                           [&](int r) { return fusible(wl.layers[at(r)]) && group[at(r)] == g; });
        if (one_group) group[i] = g;
    }
    return group;
}

Workload fuse_groups(const Workload& wl, FusionCounts& counts) {
    const std::vector<int> group = vector_groups(wl);
    std::vector<std::vector<int>> members(wl.layers.size());
    for (std::size_t i = 0; i < wl.layers.size(); ++i) members[at(group[i])].push_back(static_cast<int>(i));
    Workload staged = wl;
    std::vector<int> replace(wl.layers.size(), kKeep);
    for (std::size_t root = 0; root < wl.layers.size(); ++root) {
        const auto& m = members[root];
        if (m.size() < 2) continue;
        Layer& fused = staged.layers[root];
        std::vector<int> external;
        const Layer* first_reader = nullptr;
        std::int64_t ops = 0;
        std::string op;
        for (int i : m) {
            const Layer& l = wl.layers[at(i)];
            ops += l.vector_ops() / std::max<std::int64_t>(1, l.n);
            op += (op.empty() ? "" : "+") + l.op;
            for (int src : l.inputs) {
                if (group[at(src)] == static_cast<int>(root)) continue;
                if (!first_reader) first_reader = &l;
                if (std::find(external.begin(), external.end(), src) == external.end()) external.push_back(src);
            }
            if (i != static_cast<int>(root)) replace[at(i)] = kDrop;
        }
        const Layer& in_shape = first_reader ? *first_reader : wl.layers[at(m.front())];
        fused.set_op(op);
        fused.fused_ops_per_item = std::max<std::int64_t>(1, ops);
        fused.inputs = external;
        fused.operands = std::max<std::int64_t>(1, static_cast<std::int64_t>(external.size()));
        fused.c = in_shape.c;
        fused.h = in_shape.h;
        fused.w = in_shape.w;
        ++counts.fused_layers;
        counts.fused_members += static_cast<int>(m.size());
    }
    // Members are read only inside their group and the root now reads the group's external
    // inputs, so no reader is left for a dropped member.
    return compact(staged, replace);
}

}  // namespace

Workload fuse_layers(const Workload& wl, const std::vector<bool>& bias_add, FusionCounts& counts) {
    // Bias hints are per layer of `wl`: fold them before views change the indices.
    Workload folded = fold_biases(wl, bias_add, counts);
    return fuse_groups(elide_views(folded, counts), counts);
}

}  // namespace mcmsim
