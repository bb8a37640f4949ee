#include "mapper/optimize/formulation.h"

#include "hw/dram/dram_config.h"
#include "hw/topology/mesh_topology.h"

#include <algorithm>
#include <limits>

namespace mcmsim {

namespace {

OptionTraffic traffic_for(const Layer& L, const PartitionOption& o) {
    const double b = static_cast<double>(L.bytes_per_element);
    const double W = static_cast<double>(L.weight_bytes()), O = static_cast<double>(L.output_bytes());
    const double psum = O * 4.0 / b;
    OptionTraffic t;
    const Dim d = o.rows_dim;
    if (L.kind == LayerKind::Vector) {
        t.in_var = static_cast<double>(L.input_bytes());
        t.out_var = O;
        return t;
    }
    if (L.kind == LayerKind::MatMul) {
        const double A = static_cast<double>(L.matmul_a_bytes()), B = static_cast<double>(L.matmul_b_bytes());
        t.out_var = O;
        switch (d) {
            case Dim::K:
                t.in_var = B, t.in_fix = A;
                break;  // columns of B
            case Dim::P:
                t.in_var = A, t.in_fix = B;
                break;  // rows of A
            case Dim::Q:
                t.in_fix = A + B;
                break;  // M x N output has no Q: all of both
            case Dim::N:
                t.in_var = A + B;
                break;  // heads and batch
            case Dim::C:
                t.in_var = A + B, t.out_var = 0, t.out_fix = psum;
                break;
        }
        return t;
    }
    const double I = static_cast<double>(L.input_bytes());
    t.out_var = O;
    switch (d) {
        case Dim::K:
            t.in_var = W, t.in_fix = I;
            break;
        case Dim::C:
            t.in_var = W + I, t.out_var = 0, t.out_fix = psum;
            break;
        case Dim::P:
        case Dim::Q:
        case Dim::N:
            t.in_var = I, t.in_fix = W;
            break;
    }
    return t;
}

/// The package's memories by memory id.
IdVector<const MemoryConfig*> memories_of(const ArchConfig& arch) {
    IdVector<const MemoryConfig*> out;
    for (const MemoryConfig& m : arch.memories) out.push_back(&m);
    return out;
}

}  // namespace

namespace {

/// What of the space or the package the formulation does not model (the last such thing), or
/// nothing.
std::string not_modelled(const ArchConfig& arch, const MappingSpace& space) {
    std::string why;
    for (const auto& o : space.partitions)
        if (!o.one_dimensional()) why = "partition " + o.name() + " is two-dimensional";
    for (RoutePolicy r : space.routes)
        if (r != RoutePolicy::XY && r != RoutePolicy::YX)
            why = std::string("route policy ") + to_string(r) + " is not dimension-order";
    for (Collective c : space.collectives)
        if (c != Collective::Direct) why = std::string("collective ") + to_string(c) + " is not modelled (direct only)";
    for (Delivery wd : space.weights)
        if (wd != Delivery::Unicast) why = std::string("weight delivery ") + to_string(wd) + " is not modelled (unicast only)";
    for (Delivery in : space.inputs)
        if (in != Delivery::Unicast)
            why = std::string("network-input delivery ") + to_string(in) + " is not modelled (unicast only)";
    if (arch.package.topology != PackageTopology::Mesh)
        why = std::string("the package is not a plain mesh (") + to_string(arch.package.topology) + ")";
    return why;
}

}  // namespace

Formulation::Formulation(const ArchConfig& arch, const Workload& w, const MappingSpace& space)
    : space_(space), rows_(arch.package.rows), cols_(arch.package.cols), chiplets_(rows_ * cols_) {
    why_not_ = not_modelled(arch, space_);

    const ChipletConfig& chip = arch.chiplet;
    const double vec_rate = static_cast<double>(chip.vector_lanes) * chip.clock_ghz;  // ops per ns
    for (const Layer& L : w.layers) {
        double work = L.is_mac_layer() ? static_cast<double>(L.macs()) / chip.peak_macs_per_ns()
                                       : static_cast<double>(L.vector_ops()) / vec_rate;
        work_ns_.push_back(work / static_cast<double>(total_units()));
        fixed_energy_ +=
            static_cast<double>(L.macs()) * chip.mac_energy_pj + static_cast<double>(L.vector_ops()) * chip.vector_op_energy_pj;
        IdVector<OptionTraffic> per;
        for (const auto& o : space_.partitions) per.push_back(traffic_for(L, o));
        traffic_.push_back(per);
    }
    leak_ = chip.leakage_mw * chiplets_;  // mW = pJ/ns

    // Resources: mesh link slots, NI in, NI out, PHY to NoC, PHY from NoC, DRAM.
    const int M = static_cast<int>(arch.memories.size());
    const int mesh = chiplets_ * kMeshPorts;
    const int ni_in = mesh, ni_out = mesh + chiplets_, phy_to = mesh + 2 * chiplets_, phy_from = phy_to + M, dram = phy_from + M;
    bandwidth_.assign(dram + M, 0.0);
    const MeshTopology xy(rows_, cols_, Routing::XY);  // a plain mesh (not_modelled says so otherwise)
    for (int l = 0; l < mesh; ++l) bandwidth_[l] = d2d_hop_gbps(arch.package, xy.link_class(l));
    for (int c = 0; c < chiplets_; ++c) bandwidth_[ni_in + c] = bandwidth_[ni_out + c] = chip.ni_bandwidth_gbps;
    const IdVector<const MemoryConfig*> memory = memories_of(arch);
    for (int m = 0; m < M; ++m) {
        bandwidth_[phy_to + m] = bandwidth_[phy_from + m] = memory[m]->phy_bandwidth();
        bandwidth_[dram + m] = memory[m]->dram.bandwidth_gbps();
    }
    const double router_pj_per_byte =
        arch.package.router.energy_pj_per_flit / static_cast<double>(arch.package.router.flit_bytes);
    IdVector<int> home(chiplets_);
    for (int c = 0; c < chiplets_; ++c) {
        // Nearest memory, ties to the lower index (the plan builder's rule).
        int best = 0, best_hops = std::numeric_limits<int>::max();
        for (int m = 0; m < M; ++m) {
            int h = xy.hops(c, xy.id(memory[m]->attach_row, memory[m]->attach_col));
            if (h < best_hops) best_hops = h, best = m;
        }
        home[c] = best;
        const MemoryConfig& mem = *memory[best];
        double links_pj_per_byte = 0;  // along the path to the memory, each link as its class's
        for (int l : xy.path_links(c, xy.id(mem.attach_row, mem.attach_col)))
            links_pj_per_byte += 8.0 * arch.package.link_of(xy.link_class(l)).energy_pj_per_bit;
        const double phy = 8.0 * mem.phy_energy_pj_per_bit;
        const double common = phy + links_pj_per_byte + router_pj_per_byte * (best_hops + 1);
        e_in_.push_back(8.0 * dram_stream_pj_per_bit(mem.dram, true) + common);
        e_out_.push_back(8.0 * dram_stream_pj_per_bit(mem.dram, false) + common);
    }
    for (RoutePolicy r : space_.routes) {
        MeshTopology topo(rows_, cols_, r == RoutePolicy::YX ? Routing::YX : Routing::XY);
        IdVector<std::vector<int>> in, out;
        for (int c = 0; c < chiplets_; ++c) {
            const int m = home[c];
            const MemoryConfig& mem = *memory[m];
            const int mr = topo.id(mem.attach_row, mem.attach_col);
            std::vector<int> i{dram + m, phy_to + m}, o{ni_out + c};
            for (int l : topo.path_links(mr, c)) i.push_back(l);
            i.push_back(ni_in + c);
            for (int l : topo.path_links(c, mr)) o.push_back(l);
            o.push_back(phy_from + m);
            o.push_back(dram + m);
            in.push_back(i);
            out.push_back(o);
        }
        in_.push_back(in);
        out_.push_back(out);
    }
}

LayerCost Formulation::layer_cost(std::size_t l, const LayerGene& g) const {
    const OptionTraffic& t = traffic(l, g.option);
    const double U = static_cast<double>(total_units());
    IdVector<double> load(bandwidth_.size(), 0.0);  // [resource] bytes
    LayerCost c;
    int max_units = 0;
    for (int i = 0; i < chiplets_; ++i) {
        const int u = g.units[i];
        max_units = std::max(max_units, u);
        if (u == 0) continue;
        const double s = static_cast<double>(u) / U;
        const double in = t.in_var * s + t.in_fix, out = t.out_var * s + t.out_fix;
        for (int e : in_path(i, g.route)) load[e] += in;
        for (int e : out_path(i, g.route)) load[e] += out;
        c.energy_pj += in * in_energy(i) + out * out_energy(i);
    }
    c.time_ns = work_ns(l) * static_cast<double>(max_units);
    for (int e = 0; e < load.size(); ++e) c.time_ns = std::max(c.time_ns, load[e] / bandwidth_[e]);
    return c;
}

Score Formulation::total(const std::vector<LayerCost>& layers) const {
    Score s;
    double moved = 0;
    for (const auto& c : layers) s.latency_ns += c.time_ns, moved += c.energy_pj;
    s.energy_pj = fixed_energy_ + moved + leak_ * s.latency_ns;
    return s;
}

Score Formulation::score(const Genome& g) const {
    std::vector<LayerCost> per;
    per.reserve(g.layers.size());
    for (std::size_t l = 0; l < g.layers.size(); ++l) per.push_back(layer_cost(l, g.layers[l]));
    return total(per);
}

}  // namespace mcmsim
