#include "mapper/mapper.h"

#include "hw/common/input_error.h"
#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <limits>

namespace mcmsim {

namespace {

/// Bump allocator per memory: every tensor gets its own address range.
class AddressSpace {
public:
    explicit AddressSpace(std::size_t memories) : next_(memories, 0) {}
    std::uint64_t take(int memory, std::int64_t bytes) {
        std::uint64_t a = next_[static_cast<std::size_t>(memory)];
        // Align tensors to 4 KiB so that they start on a fresh DRAM page.
        next_[static_cast<std::size_t>(memory)] += (static_cast<std::uint64_t>(bytes) + 4095) & ~std::uint64_t{4095};
        return a;
    }

private:
    std::vector<std::uint64_t> next_;
};

int nearest_memory(const ArchConfig& arch, const MeshTopology& topo, int chiplet) {
    int best = 0, best_hops = std::numeric_limits<int>::max();
    for (std::size_t m = 0; m < arch.memories.size(); ++m) {
        int h = topo.hops(chiplet, topo.id(arch.memories[m].attach_row, arch.memories[m].attach_col));
        if (h < best_hops) {
            best_hops = h;
            best = static_cast<int>(m);
        }
    }
    return best;
}

/// Output channels of a K-split: the first K % N chiplets take one more.
std::vector<std::int64_t> split_evenly(std::int64_t total, int parts) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(parts), total / parts);
    for (int i = 0; i < total % parts; ++i) ++out[static_cast<std::size_t>(i)];
    return out;
}

struct PlanBuilder {
    Plan plan;
    std::int64_t next_id = 0, next_flow = 0;

    PlanOp& add(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) {
        PlanOp op;
        op.id = next_id++;
        op.chiplet = chiplet;
        op.kind = kind;
        op.deps = std::move(deps);
        layer.ops.push_back(std::move(op));
        return layer.ops.back();
    }
};

}  // namespace

std::vector<std::string> optimizer_names() { return {"uniform"}; }

Plan map_workload(const ArchConfig& arch, const Workload& w, const std::string& optimizer,
                  std::uint64_t seed) {
    if (optimizer == "uniform") return map_uniform(arch, w, seed);
    std::string known;
    for (const auto& n : optimizer_names()) known += (known.empty() ? "" : ", ") + n;
    throw InputError("", "--optimizer", "one of " + known, "\"" + optimizer + "\"");
}

Plan map_uniform(const ArchConfig& arch, const Workload& w, std::uint64_t seed) {
    const int n = arch.chiplet_count();
    MeshTopology topo(arch.package.rows, arch.package.cols, Routing::XY);
    std::vector<int> home(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) home[static_cast<std::size_t>(c)] = nearest_memory(arch, topo, c);

    PlanBuilder b;
    b.plan.arch = arch.name;
    b.plan.workload = w.name;
    b.plan.optimizer = "uniform";
    b.plan.seed = seed;
    b.plan.chiplets = n;
    b.plan.memories = static_cast<int>(arch.memories.size());
    AddressSpace mem(arch.memories.size());
    std::vector<bool> is_output = w.is_output_layer();

    // compute_op[l][c]: id of chiplet c's compute op for layer l (-1 when it has no share).
    std::vector<std::vector<std::int64_t>> compute_op(w.layers.size(), std::vector<std::int64_t>(n, -1));
    std::vector<std::vector<std::int64_t>> k_share(w.layers.size());

    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        const Layer& L = w.layers[l];
        PlanLayer layer;
        layer.name = L.name;
        layer.macs = L.macs();
        k_share[l] = split_evenly(L.k, n);
        const auto& shares = k_share[l];
        std::vector<std::vector<std::int64_t>> inputs_of(static_cast<std::size_t>(n));

        // Input: the network input from DRAM, or every producer-chiplet's slice of the
        // (summed) producer outputs, sent directly to every consumer chiplet (all-gather).
        const std::int64_t spatial = L.n * L.h * L.w * L.bytes_per_element;
        if (!L.inputs.empty()) {
            const auto& pshares = k_share[static_cast<std::size_t>(L.inputs.front())];
            for (int src = 0; src < n; ++src) {
                std::int64_t slice = pshares[static_cast<std::size_t>(src)] * spatial;
                if (slice == 0) continue;
                std::vector<std::int64_t> ready;
                for (int p : L.inputs)
                    if (compute_op[static_cast<std::size_t>(p)][src] >= 0)
                        ready.push_back(compute_op[static_cast<std::size_t>(p)][src]);
                for (int dst = 0; dst < n; ++dst) {
                    if (dst == src || shares[static_cast<std::size_t>(dst)] == 0) continue;
                    std::int64_t flow = b.next_flow++;
                    PlanOp& s = b.add(layer, src, OpKind::Send, ready);
                    s.bytes = slice;
                    s.flow = flow;
                    s.peer = dst;
                    PlanOp& r = b.add(layer, dst, OpKind::Recv, {});
                    r.bytes = slice;
                    r.flow = flow;
                    r.peer = src;
                    inputs_of[static_cast<std::size_t>(dst)].push_back(r.id);
                }
            }
        }

        for (int c = 0; c < n; ++c) {
            std::int64_t k = shares[static_cast<std::size_t>(c)];
            if (k == 0) continue;
            int m = home[static_cast<std::size_t>(c)];
            std::vector<std::int64_t> deps = inputs_of[static_cast<std::size_t>(c)];
            // Weights: prefetched while the previous layer computes (double buffering), so the
            // read waits only for the buffer freed by the compute two layers back.
            std::vector<std::int64_t> wdeps;
            if (l >= 2 && compute_op[l - 2][c] >= 0) wdeps.push_back(compute_op[l - 2][c]);
            std::int64_t wbytes = k * (L.c / L.groups) * L.r * L.s * L.bytes_per_element;
            PlanOp& wr = b.add(layer, c, OpKind::DramRead, wdeps);
            wr.bytes = wbytes;
            wr.memory = m;
            wr.address = mem.take(m, wbytes);
            deps.push_back(wr.id);
            if (L.inputs.empty()) {
                PlanOp& in = b.add(layer, c, OpKind::DramRead, {});
                in.bytes = L.input_bytes();
                in.memory = m;
                in.address = mem.take(m, in.bytes);
                deps.push_back(in.id);
            }
            std::int64_t out_bytes = k * L.n * L.p * L.q * L.bytes_per_element;
            PlanOp& cp = b.add(layer, c, OpKind::Compute, deps);
            cp.macs = L.n * k * L.p * L.q * (L.c / L.groups) * L.r * L.s;
            cp.sram_bytes = wbytes + L.input_bytes() + out_bytes;
            std::int64_t k0 = 0;
            for (int i = 0; i < c; ++i) k0 += shares[static_cast<std::size_t>(i)];
            cp.tile = "k[" + std::to_string(k0) + ":" + std::to_string(k0 + k) + ")";
            cp.shape = TileShape{L.n, k, L.c / L.groups, L.p, L.q, L.r, L.s, L.stride};
            compute_op[l][c] = cp.id;
            if (is_output[l]) {
                PlanOp& out = b.add(layer, c, OpKind::DramWrite, {cp.id});
                out.bytes = out_bytes;
                out.memory = m;
                out.address = mem.take(m, out_bytes);
            }
        }
        b.plan.layers.push_back(std::move(layer));
    }
    return b.plan;
}

}  // namespace mcmsim
