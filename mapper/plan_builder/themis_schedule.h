#pragma once
// Chunk scheduling across link classes (after Themis): a collective on a two-dimensional
// package goes along one dimension, then the other (the 2d tree), and the second dimension
// carries the bytes once per chiplet of the first. When the dimensions' links differ in
// bandwidth (rows of one link preset and columns of another, or a package whose rows are
// longer than its columns), sending everything rows first leaves one class the bottleneck
// while the other idles. Themis cuts each collective into chunks and gives each chunk the
// dimension order that keeps the classes' loads closest: the chunks, in turn (the first
// chunk of every multicast, then the second, ...), each take the order after which the
// busiest class is least busy, a class's load being its link-bytes over the bandwidth of all
// its links. Pure C++, no plan types: the transfer batch measures each order's link-bytes
// on the package's routes and turns the orders into 2d trees (collectives.h).
#include "hw/config/package_config.h"
#include "mapper/plan_builder/collectives.h"

#include <array>
#include <cstdint>
#include <vector>

namespace mcmsim {

/// One collective for the scheduler: its bytes, the chunks it is cut into, and per dimension
/// order the link-bytes one byte of it puts on each link class (LinkClass order).
struct ThemisDemand {
    std::int64_t bytes = 0;
    int chunks = 1;
    std::array<std::array<double, kLinkClasses>, 2> class_bytes_per_byte{};  ///< [DimOrder][LinkClass]
};

/// Per demand, per chunk, its dimension order. `class_gbps`: each link class's links'
/// bandwidth, summed over the links the collectives can use (a class without links carries
/// nothing). Ties go rows first; the result depends only on the arguments.
std::vector<std::vector<DimOrder>> themis_orders(const std::vector<ThemisDemand>& demands,
                                                 const std::array<double, kLinkClasses>& class_gbps);

}  // namespace mcmsim
