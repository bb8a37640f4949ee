#include "mapper/plan_builder.h"

#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace mcmsim {

namespace {

/// Part of a layer's output a chiplet holds, and the op after which it is ready there.
struct OwnedPiece {
    WorkBox box;  ///< n, k, p, q meaningful (c is the full reduction)
    std::int64_t ready = -1;
};

/// Bump allocator per memory: every tensor gets its own address range.
class AddressSpace {
public:
    explicit AddressSpace(std::size_t memories) : next_(memories, 0) {}
    std::uint64_t take(int memory, std::int64_t bytes) {
        std::uint64_t a = next_[static_cast<std::size_t>(memory)];
        // Tensors start on 4 KiB boundaries, i.e. on a fresh DRAM page.
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

/// Maps a producer's output range (rows or columns) onto the consumer's input grid, which
/// differs when pooling sits between them. floor on both ends keeps the images of adjacent
/// ranges adjacent, so ownership still tiles the consumer input exactly.
Range scale(Range r, std::int64_t from, std::int64_t to) {
    if (from == to) return r;
    return Range{r.lo * to / from, r.hi * to / from};
}

/// The input a chiplet needs for its box, in the consumer's input coordinates.
struct InputNeed {
    Range n, c, h, w;
    std::int64_t volume() const { return n.size() * c.size() * h.size() * w.size(); }
};

InputNeed input_need(const Layer& L, const WorkBox& b) {
    InputNeed need;
    need.n = b.n;
    if (L.groups == 1) {
        need.c = b.c;
    } else {
        // Output channels of group g read input channels [g*C/G, (g+1)*C/G); the box's c range is
        // per group.
        std::int64_t kg = L.k / L.groups, cg = L.c / L.groups;
        std::int64_t g0 = b.k.lo / kg, g1 = (b.k.hi - 1) / kg;
        need.c = Range{g0 * cg + b.c.lo, g1 * cg + b.c.hi};
    }
    auto halo = [](Range out, std::int64_t stride, std::int64_t pad, std::int64_t filter, std::int64_t in) {
        return Range{std::max<std::int64_t>(0, out.lo * stride - pad),
                     std::min<std::int64_t>(in, (out.hi - 1) * stride - pad + filter)};
    };
    need.h = halo(b.p, L.stride, L.pad, L.r, L.h);
    need.w = halo(b.q, L.stride, L.pad, L.s, L.w);
    return need;
}

class Builder {
public:
    Builder(const ArchConfig& arch, const Workload& w, const Mapping& m)
        : arch_(arch), w_(w), m_(m), topo_(arch.package.rows, arch.package.cols, Routing::XY),
          n_(arch.chiplet_count()), mem_(arch.memories.size()), owned_(w.layers.size()),
          compute_(w.layers.size(), std::vector<std::int64_t>(static_cast<std::size_t>(n_), -1)) {
        for (int c = 0; c < n_; ++c) home_.push_back(nearest_memory(arch, topo_, c));
        plan_.arch = arch.name;
        plan_.workload = w.name;
        plan_.optimizer = m.optimizer;
        plan_.seed = m.seed;
        plan_.chiplets = n_;
        plan_.memories = static_cast<int>(arch.memories.size());
    }

    Plan run() {
        if (m_.layers.size() != w_.layers.size()) throw std::invalid_argument("mapping: one partition per layer");
        std::vector<bool> is_output = w_.is_output_layer();
        for (std::size_t l = 0; l < w_.layers.size(); ++l) layer(l, is_output[l]);
        return std::move(plan_);
    }

private:
    PlanOp& add(PlanLayer& layer, int chiplet, OpKind kind, std::vector<std::int64_t> deps) {
        PlanOp op;
        op.id = next_id_++;
        op.chiplet = chiplet;
        op.kind = kind;
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        op.deps = std::move(deps);
        layer.ops.push_back(std::move(op));
        return layer.ops.back();
    }

    /// A point-to-point transfer; returns the recv's id.
    std::int64_t transfer(PlanLayer& layer, int from, int to, std::int64_t bytes, std::vector<std::int64_t> deps) {
        std::int64_t flow = next_flow_++;
        PlanOp& s = add(layer, from, OpKind::Send, std::move(deps));
        s.bytes = bytes, s.flow = flow, s.peer = to;
        PlanOp& r = add(layer, to, OpKind::Recv, {});
        r.bytes = bytes, r.flow = flow, r.peer = from;
        return r.id;
    }

    /// Whether all producers hold their outputs in the same places (then a residual sum is
    /// formed where it lies and sent once).
    bool same_ownership(const std::vector<int>& producers) const {
        const auto& first = owned_[static_cast<std::size_t>(producers.front())];
        for (int p : producers) {
            const auto& o = owned_[static_cast<std::size_t>(p)];
            for (int c = 0; c < n_; ++c) {
                const auto& a = first[static_cast<std::size_t>(c)];
                const auto& b = o[static_cast<std::size_t>(c)];
                if (a.size() != b.size()) return false;
                for (std::size_t i = 0; i < a.size(); ++i)
                    if (!a[i].box.same_output(b[i].box)) return false;
            }
        }
        return true;
    }

    /// Moves the producers' outputs to where layer L needs them; returns per-chiplet deps.
    std::vector<std::vector<std::int64_t>> gather_inputs(PlanLayer& layer, const Layer& L,
                                                         const std::vector<WorkBox>& boxes) {
        std::vector<std::vector<std::int64_t>> deps(static_cast<std::size_t>(n_));
        std::vector<std::vector<int>> groups;
        if (same_ownership(L.inputs)) groups.push_back(L.inputs);
        else
            for (int p : L.inputs) groups.push_back({p});
        for (const auto& group : groups) {
            const Layer& P = w_.layers[static_cast<std::size_t>(group.front())];
            const auto& owners = owned_[static_cast<std::size_t>(group.front())];
            // Sources first, then destinations: each owner sends to every chiplet that needs
            // part of what it holds.
            for (int o = 0; o < n_; ++o) {
                for (std::size_t pi = 0; pi < owners[static_cast<std::size_t>(o)].size(); ++pi) {
                    const WorkBox& own = owners[static_cast<std::size_t>(o)][pi].box;
                    std::vector<std::int64_t> ready;
                    for (int p : group) ready.push_back(owned_[static_cast<std::size_t>(p)][static_cast<std::size_t>(o)][pi].ready);
                    for (int c = 0; c < n_; ++c) {
                        const WorkBox& b = boxes[static_cast<std::size_t>(c)];
                        if (b.empty()) continue;
                        InputNeed need = input_need(L, b);
                        std::int64_t vol = intersect(own.n, need.n).size() * intersect(own.k, need.c).size() *
                                           intersect(scale(own.p, P.p, L.h), need.h).size() *
                                           intersect(scale(own.q, P.q, L.w), need.w).size();
                        if (vol == 0) continue;
                        auto& d = deps[static_cast<std::size_t>(c)];
                        if (o == c) d.insert(d.end(), ready.begin(), ready.end());
                        else d.push_back(transfer(layer, o, c, vol * L.bytes_per_element, ready));
                    }
                }
            }
        }
        return deps;
    }

    void layer(std::size_t l, bool is_output) {
        const Layer& L = w_.layers[l];
        const Partition& part = m_.layers[l].partition;
        std::vector<WorkBox> boxes = partition_layer(L, part, arch_.package.rows, arch_.package.cols);
        PlanLayer layer;
        layer.name = L.name;
        layer.macs = L.macs();

        std::vector<std::vector<std::int64_t>> deps =
            L.inputs.empty() ? std::vector<std::vector<std::int64_t>>(static_cast<std::size_t>(n_)) : gather_inputs(layer, L, boxes);

        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (b.empty()) continue;
            int m = home_[static_cast<std::size_t>(c)];
            auto& d = deps[static_cast<std::size_t>(c)];
            std::vector<std::int64_t> wdeps;
            if (l >= 2 && compute_[l - 2][static_cast<std::size_t>(c)] >= 0) wdeps.push_back(compute_[l - 2][static_cast<std::size_t>(c)]);
            std::int64_t wbytes = b.k.size() * b.c.size() * L.r * L.s * L.bytes_per_element;
            PlanOp& wr = add(layer, c, OpKind::DramRead, wdeps);
            wr.bytes = wbytes, wr.memory = m, wr.address = mem_.take(m, wbytes);
            d.push_back(wr.id);
            InputNeed need = input_need(L, b);
            if (L.inputs.empty()) {
                PlanOp& in = add(layer, c, OpKind::DramRead, {});
                in.bytes = need.volume() * L.bytes_per_element;
                in.memory = m, in.address = mem_.take(m, in.bytes);
                d.push_back(in.id);
            }
            std::int64_t out_bytes = b.n.size() * b.k.size() * b.p.size() * b.q.size() * L.bytes_per_element;
            PlanOp& cp = add(layer, c, OpKind::Compute, d);
            cp.shape = TileShape{b.n.size(), b.k.size(), b.c.size(), b.p.size(), b.q.size(), L.r, L.s, L.stride};
            cp.macs = cp.shape.macs();
            cp.sram_bytes = wbytes + need.volume() * L.bytes_per_element + out_bytes;
            cp.tile = tile_label(b, L);
            compute_[l][static_cast<std::size_t>(c)] = cp.id;
        }
        reduce(layer, L, boxes, l);
        if (is_output) write_outputs(layer, L, l);
        plan_.layers.push_back(std::move(layer));
    }

    /// After a C split, members that computed the same output region hold partial sums:
    /// reduce-scatter them so that each member owns a summed K-slice.
    void reduce(PlanLayer& layer, const Layer& L, const std::vector<WorkBox>& boxes, std::size_t l) {
        auto& owned = owned_[l];
        owned.assign(static_cast<std::size_t>(n_), {});
        std::vector<bool> done(static_cast<std::size_t>(n_), false);
        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (b.empty() || done[static_cast<std::size_t>(c)]) continue;
            std::vector<int> group;
            for (int o = c; o < n_; ++o)
                if (!boxes[static_cast<std::size_t>(o)].empty() && boxes[static_cast<std::size_t>(o)].same_output(b)) {
                    group.push_back(o);
                    done[static_cast<std::size_t>(o)] = true;
                }
            if (group.size() == 1) {
                owned[static_cast<std::size_t>(c)].push_back(OwnedPiece{b, compute_[l][static_cast<std::size_t>(c)]});
                continue;
            }
            auto slices = split_range(b.k.size(), static_cast<int>(group.size()), {});
            const std::int64_t plane = b.n.size() * b.p.size() * b.q.size();
            for (std::size_t j = 0; j < group.size(); ++j) {
                int owner = group[j];
                Range k{b.k.lo + slices[j].lo, b.k.lo + slices[j].hi};
                if (k.empty()) continue;
                std::vector<std::int64_t> deps{compute_[l][static_cast<std::size_t>(owner)]};
                for (int member : group)
                    if (member != owner)
                        deps.push_back(transfer(layer, member, owner, plane * k.size() * kPartialSumBytes,
                                                {compute_[l][static_cast<std::size_t>(member)]}));
                PlanOp& sum = add(layer, owner, OpKind::Compute, deps);
                sum.vector_ops = static_cast<std::int64_t>(group.size() - 1) * plane * k.size();
                sum.sram_bytes = static_cast<std::int64_t>(group.size()) * plane * k.size() * kPartialSumBytes;
                sum.tile = "reduce k[" + std::to_string(k.lo) + ":" + std::to_string(k.hi) + ")";
                WorkBox piece = b;
                piece.k = k;
                owned[static_cast<std::size_t>(owner)].push_back(OwnedPiece{piece, sum.id});
            }
        }
        (void)L;
    }

    void write_outputs(PlanLayer& layer, const Layer& L, std::size_t l) {
        for (int c = 0; c < n_; ++c)
            for (const OwnedPiece& piece : owned_[l][static_cast<std::size_t>(c)]) {
                const WorkBox& b = piece.box;
                std::int64_t bytes = b.n.size() * b.k.size() * b.p.size() * b.q.size() * L.bytes_per_element;
                int m = home_[static_cast<std::size_t>(c)];
                PlanOp& out = add(layer, c, OpKind::DramWrite, {piece.ready});
                out.bytes = bytes, out.memory = m, out.address = mem_.take(m, bytes);
            }
    }

    static std::string tile_label(const WorkBox& b, const Layer& L) {
        std::string s;
        auto part = [&](const char* name, Range r, std::int64_t full) {
            if (r.lo == 0 && r.hi == full) return;
            s += (s.empty() ? "" : " ") + std::string(name) + "[" + std::to_string(r.lo) + ":" + std::to_string(r.hi) + ")";
        };
        part("n", b.n, L.n);
        part("k", b.k, L.k);
        part("c", b.c, L.c / L.groups);
        part("p", b.p, L.p);
        part("q", b.q, L.q);
        return s.empty() ? "all" : s;
    }

    const ArchConfig& arch_;
    const Workload& w_;
    const Mapping& m_;
    MeshTopology topo_;
    int n_;
    std::vector<int> home_;
    AddressSpace mem_;
    std::vector<std::vector<std::vector<OwnedPiece>>> owned_;  ///< [layer][chiplet] pieces
    std::vector<std::vector<std::int64_t>> compute_;           ///< [layer][chiplet] compute op id
    Plan plan_;
    std::int64_t next_id_ = 0, next_flow_ = 0;
};

}  // namespace

Mapping uniform_mapping(const Workload& w, const Partition& p) {
    Mapping m;
    m.layers.assign(w.layers.size(), LayerMapping{p});
    return m;
}

Plan build_plan(const ArchConfig& arch, const Workload& w, const Mapping& m) { return Builder(arch, w, m).run(); }

}  // namespace mcmsim
