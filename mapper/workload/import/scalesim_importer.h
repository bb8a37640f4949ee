#pragma once
// SCALE-Sim topology CSV import (scale-sim-v2 conventions, scalesim/topology_utils.py).
#include "mapper/workload/workload.h"

#include <cstdint>
#include <string>

namespace mcmsim {

/// Reads a SCALE-Sim topology file; the header row picks the format:
///   convolution: "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width,
///                 Channels, Num Filter, Strides," (an optional ninth column gives a separate
///                 column stride; mcmsim needs both strides equal)
///   GEMM:        "Layer, M, N, K,"  ->  a fully connected layer: M rows, K in, N out.
/// Columns after SCALE-Sim's are annotations, ignored with one note for the file. The ninth
/// column of a convolution file is Stride Width when the header names a stride there or names
/// no ninth column (SCALE-Sim reads a ninth number so), an annotation otherwise.
/// Conventions kept from SCALE-Sim v2: the IFMAP sizes already include any padding; the output
/// size is ceil((IFMAP − Filter + Stride) / Stride) per axis (its windows start at the first
/// row and column and read zeros past the bottom and right edges), so p, q and the MAC count
/// are SCALE-Sim's. mcmsim's layer has one symmetric pad: the smallest one giving both output
/// sizes, or, where none does (an even stride, one axis's windows ending at its edge and the
/// other's running stride − 1 past it), pad 0 with those trailing zeros added to the IFMAP,
/// which is noted per layer. A
/// layer whose name contains "DP" is depthwise (each of its Channels input channels gets Num
/// Filter filters: groups = Channels); trailing commas and a trailing "#comment" field are
/// ignored. mcmsim additions: a layer reads the previous one's output when the channels
/// match, else the network input from DRAM (a note lists those); blank rows and section rows
/// (a name with no numbers, or a line starting with '#') are skipped with a note. `batch`
/// multiplies every layer (SCALE-Sim has none). Every number and `batch` is an integer in
/// [1, 2^30] (the workload JSON bound), a depthwise layer's Channels x Num Filter too, and a
/// layer's MAC count and tensor sizes, and the file's total MACs, must fit in 64 bits.
/// A malformed row throws InputError naming the file, "line N", the field and the accepted
/// range.
Workload import_scalesim_csv(const std::string& path, std::int64_t batch = 1);
/// The same reader over the file's text already in memory; `file` names it in errors and
/// gives the workload its name.
Workload import_scalesim_text(const std::string& text, const std::string& file, std::int64_t batch = 1);

}  // namespace mcmsim
