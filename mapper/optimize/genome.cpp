#include "mapper/optimize/genome.h"

#include <algorithm>

#include "mapper/mapping/mapping.h"
#include "mapper/mapping/pipeline_placement.h"

namespace mcmsim {

std::vector<int> Genome::key() const {
    std::vector<int> k;
    for (const auto& l : layers) {
        k.push_back(l.option);
        k.push_back(l.route);
        k.push_back(l.collective);
        k.push_back(l.weights);
        k.push_back(l.inputs);
        k.push_back(l.units.size());
        k.insert(k.end(), l.units.begin(), l.units.end());
    }
    k.push_back(segments);
    k.push_back(boundary_shift.size());
    k.insert(k.end(), boundary_shift.begin(), boundary_shift.end());
    return k;
}

std::size_t GenomeKeyHash::operator()(const std::vector<int>& k) const {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (int v : k) {
        h ^= static_cast<std::uint32_t>(v);
        h *= 1099511628211ULL;
    }
    return static_cast<std::size_t>(h);
}

int parts_of(const PartitionOption& o, int rows, int cols) { return o.one_dimensional() ? rows * cols : rows + cols; }

LayerGene uniform_gene(const MappingSpace& s, int option, int rows, int cols) {
    LayerGene g;
    g.option = option;
    g.units.assign(parts_of(s.partitions[option], rows, cols), s.units_per_part);
    return g;
}

Genome uniform_genome(const MappingSpace& s, std::size_t layers, int option, int rows, int cols) {
    Genome g;
    g.layers.assign(layers, uniform_gene(s, option, rows, cols));
    return g;
}

Mapping to_mapping(const MappingSpace& s, const Genome& g, const Workload& w, int rows, int cols) {
    Mapping m;
    for (const LayerGene& lg : g.layers) {
        const PartitionOption& o = s.partitions[lg.option];
        LayerMapping lm;
        lm.partition.rows_dim = o.rows_dim;
        lm.partition.cols_dim = o.cols_dim;
        bool uniform = true;
        for (int u : lg.units) uniform = uniform && u == lg.units.front();
        // Uniform units stay "uniform" in the plan (no shares), so a uniform genome builds
        // exactly the baseline's plan.
        if (!uniform) {
            std::vector<double> w(lg.units.begin(), lg.units.end());
            if (o.one_dimensional()) {
                lm.partition.shares = w;
            } else {
                lm.partition.row_shares.assign(w.begin(), w.begin() + rows);
                lm.partition.col_shares.assign(w.begin() + rows, w.begin() + rows + cols);
                // A direction whose units are all equal stays uniform too.
                auto flat = [](const std::vector<double>& v) {
                    for (double x : v)
                        if (x != v.front()) return false;
                    return true;
                };
                if (flat(lm.partition.row_shares)) lm.partition.row_shares.clear();
                if (flat(lm.partition.col_shares)) lm.partition.col_shares.clear();
            }
        }
        lm.route = s.routes[lg.route];
        lm.collective = s.collectives[lg.collective];
        lm.weight_multicast = s.weights[lg.weights] == Delivery::Multicast;
        lm.input_multicast = s.inputs[lg.inputs] == Delivery::Multicast;
        m.layers.push_back(lm);
    }
    const int segments = s.pipeline_segments.empty() ? 1 : s.pipeline_segments[g.segments];
    if (segments > 1) {
        // Shares are per chiplet (row, column) of the whole package: a band splits uniformly.
        for (auto& lm : m.layers) lm.partition.shares.clear(), lm.partition.row_shares.clear(), lm.partition.col_shares.clear();
        PipelinePlacement p = pipeline_placement(w, rows, cols, segments);
        if (std::any_of(g.boundary_shift.begin(), g.boundary_shift.end(), [](int s) { return s != 0; })) {
            // Moved boundaries, kept increasing with at least one layer per segment.
            const auto layers = static_cast<long>(w.layers.size());
            std::vector<std::size_t> starts;
            long previous = 0;
            for (int k = 1; k < segments; ++k) {
                const long shift = g.boundary_shift.contains(k - 1) ? g.boundary_shift[k - 1] : 0;
                const long want = static_cast<long>(p.segments[k].first) + shift;
                previous = std::clamp(want, previous + 1, layers - (segments - k));
                starts.push_back(static_cast<std::size_t>(previous));
            }
            p = pipeline_placement_at(w, rows, cols, starts);
        }
        apply_placement(m, p, 1);
    }
    return m;
}

std::string describe_gene(const MappingSpace& s, const LayerGene& g, int rows, int cols) {
    (void)rows, (void)cols;
    std::string d = s.partitions[g.option].name() + "[";
    for (int i = 0; i < g.units.size(); ++i) d += (i ? " " : "") + std::to_string(g.units[i]);
    d += std::string("]/") + to_string(s.routes[g.route]);
    if (s.collectives.size() > 1) d += std::string("/") + to_string(s.collectives[g.collective]);
    if (s.weights.size() > 1) d += std::string("/w-") + to_string(s.weights[g.weights]);
    if (s.inputs.size() > 1) d += std::string("/i-") + to_string(s.inputs[g.inputs]);
    return d;
}

}  // namespace mcmsim
