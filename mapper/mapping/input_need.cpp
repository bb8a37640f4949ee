#include "mapper/mapping/input_need.h"

#include <algorithm>

namespace mcmsim {

Range scale(Range r, std::int64_t from, std::int64_t to) {
    if (from == to) return r;
    return Range{r.lo * to / from, r.hi * to / from};
}

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

std::vector<Operand> operands_of(const Layer& L) {
    const std::int64_t tensor = L.n * L.c * L.h * L.w * L.bytes_per_element;
    auto producer = [&](std::size_t i) { return i < L.inputs.size() ? std::vector<int>{L.inputs[i]} : std::vector<int>{}; };
    switch (L.kind) {
        case LayerKind::Conv:
        case LayerKind::FullyConnected:
            return {Operand{L.inputs, tensor, 0}};
        case LayerKind::MatMul:
            return {Operand{producer(0), L.matmul_a_bytes(), 0}, Operand{producer(1), L.matmul_b_bytes(), 1}};
        case LayerKind::Vector: {
            std::vector<Operand> out;
            for (std::int64_t i = 0; i < L.operands; ++i)
                out.push_back(Operand{producer(static_cast<std::size_t>(i)), tensor, static_cast<int>(i)});
            return out;
        }
    }
    return {};
}

double need_fraction(const Layer& L, const WorkBox& b, const Operand& op) {
    if (L.kind == LayerKind::MatMul) {
        const double nh = static_cast<double>(L.n * L.heads);
        if (op.position == 0)  // A: n*heads x M x K
            return static_cast<double>(b.n.size() * b.p.size() * b.c.size()) / (nh * static_cast<double>(L.p * L.c));
        return static_cast<double>(b.n.size() * b.c.size() * b.k.size()) / (nh * static_cast<double>(L.c * L.k));
    }
    return static_cast<double>(input_need(L, b).volume()) / static_cast<double>(L.n * L.c * L.h * L.w);
}

bool maps_exactly(const Layer& L, const Layer& P) {
    if (L.kind == LayerKind::MatMul || P.kind == LayerKind::MatMul) return false;
    if (L.kind == LayerKind::Vector && L.c != L.k) return false;
    return P.k == L.c && P.n == L.n;
}

std::int64_t output_volume(const Layer& L) { return L.n * L.heads * L.k * L.p * L.q; }
std::int64_t box_output_volume(const WorkBox& b) { return b.n.size() * b.k.size() * b.p.size() * b.q.size(); }

}  // namespace mcmsim
