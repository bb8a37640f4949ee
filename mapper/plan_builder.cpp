#include "mapper/plan_builder.h"

#include "hw/compute/compute_cost.h"
#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <cmath>
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
    if (L.kind == LayerKind::Vector) {
        need.c = b.k;  // element-wise and pooling ops keep their channels
    } else if (L.groups == 1) {
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

/// One input tensor of a layer: made by `producers` (their outputs summed), or read from DRAM
/// when there are none.
struct Operand {
    std::vector<int> producers;
    std::int64_t bytes = 0;  ///< the whole tensor
    int position = 0;        ///< MatMul: 0 = A, 1 = B
};

std::vector<Operand> operands_of(const Layer& L) {
    const std::int64_t tensor = L.n * L.c * L.h * L.w * L.bytes_per_element;
    auto producer = [&](std::size_t i) { return i < L.inputs.size() ? std::vector<int>{L.inputs[i]} : std::vector<int>{}; };
    switch (L.kind) {
        case LayerKind::Conv:
        case LayerKind::FullyConnected: return {Operand{L.inputs, tensor, 0}};
        case LayerKind::MatMul: return {Operand{producer(0), L.matmul_a_bytes(), 0}, Operand{producer(1), L.matmul_b_bytes(), 1}};
        case LayerKind::Vector: {
            std::vector<Operand> out;
            for (std::int64_t i = 0; i < L.operands; ++i)
                out.push_back(Operand{producer(static_cast<std::size_t>(i)), tensor, static_cast<int>(i)});
            return out;
        }
    }
    return {};
}

/// Share of operand `op` of layer L that box `b` needs.
double need_fraction(const Layer& L, const WorkBox& b, const Operand& op) {
    if (L.kind == LayerKind::MatMul) {
        const double nh = static_cast<double>(L.n * L.heads);
        if (op.position == 0)  // A: n*heads x M x K
            return static_cast<double>(b.n.size() * b.p.size() * b.c.size()) / (nh * static_cast<double>(L.p * L.c));
        return static_cast<double>(b.n.size() * b.c.size() * b.k.size()) / (nh * static_cast<double>(L.c * L.k));
    }
    return static_cast<double>(input_need(L, b).volume()) / static_cast<double>(L.n * L.c * L.h * L.w);
}

/// Whether the producer's output maps element by element onto the consumer's input (then
/// transfers are exact box intersections; otherwise, e.g. a flatten or an attention reshape,
/// they are spread in proportion to what each side holds and needs).
bool maps_exactly(const Layer& L, const Layer& P) {
    if (L.kind == LayerKind::MatMul || P.kind == LayerKind::MatMul) return false;
    if (L.kind == LayerKind::Vector && L.c != L.k) return false;
    return P.k == L.c && P.n == L.n;
}

std::int64_t output_volume(const Layer& L) { return L.n * L.heads * L.k * L.p * L.q; }
std::int64_t box_output_volume(const WorkBox& b) { return b.n.size() * b.k.size() * b.p.size() * b.q.size(); }

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

    /// Moves the producers' outputs to where layer L needs them, or reads operands without a
    /// producer from DRAM; returns, per chiplet, the ops its compute must wait for.
    std::vector<std::vector<std::int64_t>> gather_inputs(PlanLayer& layer, const Layer& L,
                                                         const std::vector<WorkBox>& boxes) {
        std::vector<std::vector<std::int64_t>> deps(static_cast<std::size_t>(n_));
        for (const Operand& op : operands_of(L)) {
            if (op.producers.empty()) {
                read_from_dram(layer, L, boxes, op, deps);
                continue;
            }
            const Layer& first = w_.layers[static_cast<std::size_t>(op.producers.front())];
            std::vector<std::vector<int>> groups;
            if (op.producers.size() == 1 || same_ownership(op.producers)) groups.push_back(op.producers);
            else
                for (int p : op.producers) groups.push_back({p});
            for (const auto& group : groups) {
                if (maps_exactly(L, first)) send_exact(layer, L, boxes, group, deps);
                else send_proportional(layer, L, boxes, group, op, deps);
            }
        }
        return deps;
    }

    void read_from_dram(PlanLayer& layer, const Layer& L, const std::vector<WorkBox>& boxes, const Operand& op,
                        std::vector<std::vector<std::int64_t>>& deps) {
        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (b.empty()) continue;
            std::int64_t bytes = L.kind == LayerKind::MatMul
                                     ? static_cast<std::int64_t>(std::llround(need_fraction(L, b, op) * static_cast<double>(op.bytes)))
                                     : input_need(L, b).volume() * L.bytes_per_element;
            if (bytes <= 0) continue;
            int m = home_[static_cast<std::size_t>(c)];
            PlanOp& in = add(layer, c, OpKind::DramRead, {});
            in.bytes = bytes, in.memory = m, in.address = mem_.take(m, bytes);
            deps[static_cast<std::size_t>(c)].push_back(in.id);
        }
    }

    /// Each owner sends every chiplet the intersection of what it holds with what that chiplet
    /// needs (in the consumer's coordinates; pooling in between scales rows and columns).
    void send_exact(PlanLayer& layer, const Layer& L, const std::vector<WorkBox>& boxes, const std::vector<int>& group,
                    std::vector<std::vector<std::int64_t>>& deps) {
        const Layer& P = w_.layers[static_cast<std::size_t>(group.front())];
        const auto& owners = owned_[static_cast<std::size_t>(group.front())];
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

    /// When layouts do not line up element by element, an owner holding share g of the
    /// producer's output sends a consumer needing share f of the operand f x g of its bytes.
    void send_proportional(PlanLayer& layer, const Layer& L, const std::vector<WorkBox>& boxes,
                           const std::vector<int>& group, const Operand& op, std::vector<std::vector<std::int64_t>>& deps) {
        const Layer& P = w_.layers[static_cast<std::size_t>(group.front())];
        const auto& owners = owned_[static_cast<std::size_t>(group.front())];
        const double total = static_cast<double>(output_volume(P));
        for (int o = 0; o < n_; ++o) {
            for (std::size_t pi = 0; pi < owners[static_cast<std::size_t>(o)].size(); ++pi) {
                const double g = static_cast<double>(box_output_volume(owners[static_cast<std::size_t>(o)][pi].box)) / total;
                std::vector<std::int64_t> ready;
                for (int p : group) ready.push_back(owned_[static_cast<std::size_t>(p)][static_cast<std::size_t>(o)][pi].ready);
                for (int c = 0; c < n_; ++c) {
                    const WorkBox& b = boxes[static_cast<std::size_t>(c)];
                    if (b.empty()) continue;
                    auto bytes = static_cast<std::int64_t>(std::llround(need_fraction(L, b, op) * g * static_cast<double>(op.bytes)));
                    if (bytes <= 0) continue;
                    auto& d = deps[static_cast<std::size_t>(c)];
                    if (o == c) d.insert(d.end(), ready.begin(), ready.end());
                    else d.push_back(transfer(layer, o, c, bytes, ready));
                }
            }
        }
    }

    void layer(std::size_t l, bool is_output) {
        const Layer& L = w_.layers[l];
        const Partition& part = m_.layers[l].partition;
        std::vector<WorkBox> boxes = partition_layer(L, part, arch_.package.rows, arch_.package.cols);
        PlanLayer layer;
        layer.name = L.name;
        layer.macs = L.macs();
        std::vector<std::vector<std::int64_t>> deps = gather_inputs(layer, L, boxes);
        const double out_total = static_cast<double>(output_volume(L));

        for (int c = 0; c < n_; ++c) {
            const WorkBox& b = boxes[static_cast<std::size_t>(c)];
            if (b.empty()) continue;
            int m = home_[static_cast<std::size_t>(c)];
            auto& d = deps[static_cast<std::size_t>(c)];
            TileShape shape;
            if (L.kind != LayerKind::Vector)
                shape = TileShape{b.n.size(), b.k.size(), b.c.size(), b.p.size(), b.q.size(), L.r, L.s, L.stride};
            std::int64_t vector_ops = 0;
            if (L.kind == LayerKind::Vector)
                vector_ops = static_cast<std::int64_t>(std::llround(static_cast<double>(L.vector_ops()) *
                                                                    static_cast<double>(box_output_volume(b)) / out_total));
            // Weights (conv and fc only), plus whatever re-tiling makes the chiplet fetch again
            // when a tile does not fit its buffers. Prefetched one layer ahead: the read waits
            // only for the buffer freed by the compute two layers back (double buffering).
            std::int64_t wbytes = L.weight_bytes() > 0 ? b.k.size() * b.c.size() * L.r * L.s * L.bytes_per_element : 0;
            std::int64_t refetch = shape.empty() ? 0 : compute_cost(arch_.chiplet, shape, 0).dram_refetch_bytes;
            if (wbytes + refetch > 0) {
                std::vector<std::int64_t> wdeps;
                if (l >= 2 && compute_[l - 2][static_cast<std::size_t>(c)] >= 0) wdeps.push_back(compute_[l - 2][static_cast<std::size_t>(c)]);
                PlanOp& wr = add(layer, c, OpKind::DramRead, wdeps);
                wr.bytes = wbytes + refetch, wr.memory = m, wr.address = mem_.take(m, wr.bytes);
                d.push_back(wr.id);
            }
            std::int64_t in_bytes = 0;
            for (const Operand& op : operands_of(L))
                in_bytes += static_cast<std::int64_t>(std::llround(need_fraction(L, b, op) * static_cast<double>(op.bytes)));
            std::int64_t out_bytes = box_output_volume(b) * L.bytes_per_element;
            PlanOp& cp = add(layer, c, OpKind::Compute, d);
            cp.shape = shape;
            cp.macs = shape.macs();
            cp.vector_ops = vector_ops;
            cp.sram_bytes = wbytes + in_bytes + out_bytes;
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
        part("n", b.n, L.n * L.heads);
        part("k", b.k, L.k);
        part("c", b.c, L.kind == LayerKind::Vector ? 1 : L.c / L.groups);
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
