#include "mapper/plan_builder/compute_tile.h"

#include "hw/compute/tiling.h"

#include <charconv>
#include <cmath>

namespace mcmsim {

BoxWork box_work(const ChipletConfig& chip, const Layer& L, const WorkBox& b, double out_total) {
    BoxWork w;
    if (L.kind != LayerKind::Vector)
        w.shape = TileShape{b.n.size(), b.k.size(), b.c.size(), b.p.size(), b.q.size(), L.r, L.s, L.stride};
    if (L.kind == LayerKind::Vector)
        w.vector_ops = static_cast<std::int64_t>(
            std::llround(static_cast<double>(L.vector_ops()) * static_cast<double>(box_output_volume(b)) / out_total));
    // (The DRAM tiling alone: the full compute cost would also price every buffer's
    // accesses, which the plan does not need.)
    w.refetch = w.shape.empty() ? 0 : tile_for_dram(chip, w.shape).refetch_bytes();
    return w;
}

void fill_compute(PlanOp& cp, const Layer& L, const WorkBox& b, const BoxWork& work, std::int64_t weight_bytes,
                  const std::vector<Operand>& operands) {
    std::int64_t in_bytes = 0;
    for (const Operand& op : operands)
        in_bytes += static_cast<std::int64_t>(std::llround(need_fraction(L, b, op) * static_cast<double>(op.bytes)));
    const std::int64_t out_bytes = box_output_volume(b) * L.bytes_per_element;
    cp.shape = work.shape;
    cp.macs = work.shape.macs();
    cp.vector_ops = work.vector_ops;
    cp.sram_bytes = weight_bytes + in_bytes + out_bytes;
    cp.tile = tile_label(b, L);
}

std::string tile_label(const WorkBox& b, const Layer& L) {
    // Written into a buffer, the string made once: every compute op has a label.
    char buf[5 * 48];  // per dimension: " x[" + two 20-character numbers + ":)"
    char* at = buf;
    char* const end = buf + sizeof buf;
    // Bounded although the buffer fits the longest label: the compiler cannot see that
    // to_chars never fills it.
    auto put = [&](char ch) {
        if (at != end) *at++ = ch;
    };
    auto part = [&](char name, Range r, std::int64_t full) {
        if (r.lo == 0 && r.hi == full) return;
        if (at != buf) put(' ');
        put(name);
        put('[');
        at = std::to_chars(at, end, r.lo).ptr;
        put(':');
        at = std::to_chars(at, end, r.hi).ptr;
        put(')');
    };
    part('n', b.n, L.n * L.heads);
    part('k', b.k, L.k);
    part('c', b.c, L.kind == LayerKind::Vector ? 1 : L.c / L.groups);
    part('p', b.p, L.p);
    part('q', b.q, L.q);
    return at == buf ? std::string("all") : std::string(buf, at);
}

}  // namespace mcmsim
