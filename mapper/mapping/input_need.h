#pragma once
// What part of its inputs a chiplet needs for its share of a layer: the input region of a
// work box (channels of its groups, output rows/columns plus the filter halo), the layer's
// operands and who produces them, and how a producer's output lines up with a consumer's
// input. The plan builder turns these into transfers. Pure C++.
#include "mapper/mapping/partition.h"
#include "mapper/workload/workload.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// Maps a producer's output range (rows or columns) onto the consumer's input grid, which
/// differs when pooling sits between them. floor on both ends keeps the images of adjacent
/// ranges adjacent, so ownership still tiles the consumer input exactly.
Range scale(Range r, std::int64_t from, std::int64_t to);

/// The input a chiplet needs for its box, in the consumer's input coordinates.
struct InputNeed {
    Range n, c, h, w;
    std::int64_t volume() const { return n.size() * c.size() * h.size() * w.size(); }
};

InputNeed input_need(const Layer& L, const WorkBox& b);

/// One input tensor of a layer: made by `producers` (their outputs summed), or read from DRAM
/// when there are none.
struct Operand {
    std::vector<int> producers;
    std::int64_t bytes = 0;  ///< the whole tensor
    int position = 0;        ///< MatMul: 0 = A, 1 = B
};

std::vector<Operand> operands_of(const Layer& L);

/// Share of operand `op` of layer L that box `b` needs.
double need_fraction(const Layer& L, const WorkBox& b, const Operand& op);

/// Whether the producer's output maps element by element onto the consumer's input (then
/// transfers are exact box intersections; otherwise, e.g. a flatten or an attention reshape,
/// they are spread in proportion to what each side holds and needs).
bool maps_exactly(const Layer& L, const Layer& P);

std::int64_t output_volume(const Layer& L);
std::int64_t box_output_volume(const WorkBox& b);

}  // namespace mcmsim
