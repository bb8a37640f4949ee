#pragma once
// The latency-energy Pareto front of a set of scored points. Pure C++.
#include "mapper/optimize/objective.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace mcmsim {

/// Indices of the points no other point beats in both latency and energy (ties: the lower
/// index stays), by increasing latency.
inline std::vector<std::size_t> pareto_front(const std::vector<Score>& pts) {
    std::vector<std::size_t> idx(pts.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        return pts[a].latency_ns != pts[b].latency_ns ? pts[a].latency_ns < pts[b].latency_ns
                                                      : pts[a].energy_pj < pts[b].energy_pj;
    });
    std::vector<std::size_t> front;
    for (std::size_t i : idx)
        if (front.empty() || pts[i].energy_pj < pts[front.back()].energy_pj) front.push_back(i);
    return front;
}

}  // namespace mcmsim

namespace mcmsim {

/// A point of a sum of per-layer choices: total time, total energy, the choice per layer.
struct FrontPoint {
    double t = 0, e = 0;
    std::vector<int> pick;
};

/// Keeps the points no other point beats in both coordinates (ties: the first in order).
inline std::vector<FrontPoint> pareto_filter(std::vector<FrontPoint> pts) {
    std::stable_sort(pts.begin(), pts.end(),
                     [](const FrontPoint& a, const FrontPoint& b) { return a.t != b.t ? a.t < b.t : a.e < b.e; });
    std::vector<FrontPoint> out;
    for (auto& p : pts)
        if (out.empty() || p.e < out.back().e) out.push_back(std::move(p));
    return out;
}

/// The (time, energy) Pareto front of a sum over layers, each layer choosing one of its
/// (time, energy) options: only a layer's own non-dominated options can be part of a
/// non-dominated sum, so the fronts are merged layer by layer (exact).
inline std::vector<FrontPoint> merge_layer_fronts(const std::vector<std::vector<std::pair<double, double>>>& layers) {
    std::vector<FrontPoint> front{FrontPoint{}};
    for (const auto& options : layers) {
        std::vector<FrontPoint> own;
        for (std::size_t i = 0; i < options.size(); ++i)
            own.push_back(FrontPoint{options[i].first, options[i].second, {static_cast<int>(i)}});
        own = pareto_filter(std::move(own));
        std::vector<FrontPoint> merged;
        merged.reserve(front.size() * own.size());
        for (const auto& a : front)
            for (const auto& b : own) {
                FrontPoint p{a.t + b.t, a.e + b.e, a.pick};
                p.pick.push_back(b.pick.front());
                merged.push_back(std::move(p));
            }
        front = pareto_filter(std::move(merged));
    }
    return front;
}

}  // namespace mcmsim
