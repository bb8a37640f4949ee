#include "mapper/plan_builder/themis_schedule.h"

#include <algorithm>
#include <stdexcept>

namespace mcmsim {

std::vector<std::vector<DimOrder>> themis_orders(const std::vector<ThemisDemand>& demands,
                                                 const std::array<double, kLinkClasses>& class_gbps) {
    std::vector<std::vector<DimOrder>> out(demands.size());
    std::array<double, kLinkClasses> load{};  // ns of each class's links, all busy at once
    int most = 0;
    for (const ThemisDemand& d : demands) {
        if (d.chunks < 1 || d.bytes < d.chunks) throw std::invalid_argument("themis_orders: a chunk needs at least one byte");
        most = std::max(most, d.chunks);
    }
    for (int k = 0; k < most; ++k)
        for (std::size_t i = 0; i < demands.size(); ++i) {
            const ThemisDemand& d = demands[i];
            if (k >= d.chunks) continue;
            const std::int64_t piece = d.bytes / d.chunks;
            const double bytes = static_cast<double>(k + 1 == d.chunks ? d.bytes - piece * (d.chunks - 1) : piece);
            double best_busiest = 0;
            int best = 0;
            for (int o = 0; o < 2; ++o) {
                double busiest = 0;
                for (int c = 0; c < kLinkClasses; ++c) {
                    const double add = bytes * d.class_bytes_per_byte[static_cast<std::size_t>(o)][static_cast<std::size_t>(c)];
                    if (add > 0 && class_gbps[static_cast<std::size_t>(c)] <= 0)
                        throw std::invalid_argument("themis_orders: bytes on a link class without links");
                    if (add > 0 || load[static_cast<std::size_t>(c)] > 0)
                        busiest =
                            std::max(busiest, load[static_cast<std::size_t>(c)] + add / class_gbps[static_cast<std::size_t>(c)]);
                }
                if (o == 0 || busiest < best_busiest) best_busiest = busiest, best = o;
            }
            for (int c = 0; c < kLinkClasses; ++c) {
                const double add = bytes * d.class_bytes_per_byte[static_cast<std::size_t>(best)][static_cast<std::size_t>(c)];
                if (add > 0) load[static_cast<std::size_t>(c)] += add / class_gbps[static_cast<std::size_t>(c)];
            }
            out[i].push_back(best == 0 ? DimOrder::RowsFirst : DimOrder::ColumnsFirst);
        }
    return out;
}

}  // namespace mcmsim
