#pragma once
// Layer-pipelined placement: which consecutive layers form each pipeline segment, and which
// chiplets each segment gets.
//
// The layer list (topological order) is cut into S contiguous, non-empty segments that
// balance MACs: the largest segment's MACs are as small as any cut allows (linear-partition
// dynamic programme); among the cuts that reach it, each segment takes as many layers as it
// can, front to back, so a MAC-free layer (pooling, an add, a ReLU) stays with the segment of
// the layer before it. Each segment then gets a band of whole grid columns, left to right in
// segment order: one column each, then every further column to the segment whose MACs per
// column are highest (ties: the earlier segment) — the apportionment that minimises the
// slowest segment's MACs per column. Activations flow left to right between the bands.
// Pure C++.
#include "hw/common/id_vector.h"
#include "mapper/mapping/chiplet_group.h"
#include "mapper/mapping/mapping.h"
#include "mapper/workload/workload.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mcmsim {

struct PipelineSegment {
    std::size_t first = 0, last = 0;  ///< layers [first, last)
    std::int64_t macs = 0;
    ChipletGroup group;  ///< a band of columns: rows x cols of the package
};

struct PipelinePlacement {
    IdVector<PipelineSegment> segments;  ///< [segment], in layer order
    std::vector<int> segment_of;         ///< per workload layer
};

/// S MAC-balanced segments on a rows x cols package. InputError (naming --segments) when
/// S < 1, S > cols or S > the number of layers.
PipelinePlacement pipeline_placement(const Workload& w, int rows, int cols, int segments);

/// Segments that start at the given layers (the first segment's start, 0, left out; strictly
/// increasing, each below the layer count), columns apportioned as above.
PipelinePlacement pipeline_placement_at(const Workload& w, int rows, int cols, const std::vector<std::size_t>& starts);

/// Places every layer of `m` on its segment's group and sets the micro-batch size (samples;
/// 0: the whole batch).
void apply_placement(Mapping& m, const PipelinePlacement& p, std::int64_t micro_batch);

}  // namespace mcmsim
