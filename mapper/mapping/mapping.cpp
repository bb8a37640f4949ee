#include "mapper/mapping/mapping.h"

#include <stdexcept>

namespace mcmsim {

const char* to_string(Collective c) {
    switch (c) {
        case Collective::Direct: return "direct";
        case Collective::Ring: return "ring";
        case Collective::TwoD: return "2d";
        case Collective::Tree: return "tree";
    }
    return "?";
}

Collective collective_from_string(const std::string& s) {
    if (s == "direct") return Collective::Direct;
    if (s == "ring") return Collective::Ring;
    if (s == "2d") return Collective::TwoD;
    if (s == "tree") return Collective::Tree;
    throw std::invalid_argument("collective \"" + s + "\" (expected direct, ring, 2d or tree)");
}

std::vector<std::string> collective_names() { return {"direct", "ring", "2d", "tree"}; }

const char* to_string(RoutePolicy p) {
    switch (p) {
        case RoutePolicy::XY: return "xy";
        case RoutePolicy::YX: return "yx";
        case RoutePolicy::Split: return "split";
        case RoutePolicy::Diagonal: return "diagonal";
    }
    return "?";
}

RoutePolicy package_route_policy(const PackageConfig& p) {
    if (p.topology == "mesh_diagonal") return RoutePolicy::Diagonal;
    return p.routing == "yx" ? RoutePolicy::YX : RoutePolicy::XY;
}

RoutePolicy route_policy_from_string(const std::string& s) {
    if (s == "xy") return RoutePolicy::XY;
    if (s == "yx") return RoutePolicy::YX;
    if (s == "split") return RoutePolicy::Split;
    if (s == "diagonal") return RoutePolicy::Diagonal;
    throw std::invalid_argument("route policy \"" + s + "\" (expected xy, yx, split or diagonal)");
}

Mapping uniform_mapping(const Workload& w, const Partition& p) {
    Mapping m;
    LayerMapping lm;
    lm.partition = p;
    m.layers.assign(w.layers.size(), lm);
    return m;
}

std::vector<std::string> route_policies() {
    return {to_string(RoutePolicy::XY), to_string(RoutePolicy::YX), to_string(RoutePolicy::Split),
            to_string(RoutePolicy::Diagonal)};
}

std::vector<std::string> searched_route_policies(bool diagonal_links) {
    std::vector<std::string> r{to_string(RoutePolicy::XY), to_string(RoutePolicy::YX), to_string(RoutePolicy::Split)};
    if (diagonal_links) r.push_back(to_string(RoutePolicy::Diagonal));
    return r;
}

void set_route_policy(LayerMapping& lm, const std::string& policy) { lm.route = route_policy_from_string(policy); }

}  // namespace mcmsim
