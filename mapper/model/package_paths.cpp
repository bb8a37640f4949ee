#include "mapper/model/package_paths.h"

#include <algorithm>

namespace mcmsim {

PackagePaths::PackagePaths(const ArchConfig& arch)
    : mc_(arch), trees_(mc_.topology()), n_(mc_.links().chiplets), nodes_(mc_.links().chiplets + mc_.links().memories),
      flit_terms_(mc_.head_latency_terms(arch.package.router.flit_bytes)) {
    const PackageLinks& links = mc_.links();
    const MeshTopology& topo = mc_.topology();
    ns_per_byte_.resize(static_cast<std::size_t>(links.count()));
    for (std::size_t l = 0; l < ns_per_byte_.size(); ++l) ns_per_byte_[l] = 1.0 / links.bandwidth_gbps[l];
    for (int v = 0; v < nodes_; ++v) {
        if (v < n_) {
            router_of_.push_back(v);
            inject_.push_back(links.ni_in(v));
            eject_.push_back(links.ni_out(v));
        } else {
            const int m = v - n_;
            const auto& mem = arch.memories[static_cast<std::size_t>(m)];
            router_of_.push_back(topo.id(mem.attach_row, mem.attach_col));
            inject_.push_back(links.phy_to_noc(m));
            eject_.push_back(links.phy_from_noc(m));
        }
    }
    switch_local_.assign(static_cast<std::size_t>(topo.routers()), 0.0);
    for (int l = 0; l < topo.link_slots(); ++l) mesh_class_.push_back(topo.link_class(l));
    if (!ideal_routers(arch.package)) {
        for (int c = 0; c < kLinkClasses; ++c)
            switch_mesh_[static_cast<std::size_t>(c)] =
                1.0 /
                (static_cast<double>(port_flits_for(arch.package, static_cast<LinkClass>(c))) * arch.package.router.flit_gbps());
        const std::vector<double> local = local_port_gbps(arch);
        for (std::size_t r = 0; r < local.size(); ++r) switch_local_[r] = 1.0 / local[r];
    }
    router_entered_.assign(static_cast<std::size_t>(links.count()), -1);
    for (int l = 0; l < links.mesh_slots; ++l)
        router_entered_[static_cast<std::size_t>(l)] = topo.neighbor(l / kMeshPorts, static_cast<Port>(l % kMeshPorts));
    for (int v = 0; v < nodes_; ++v)
        router_entered_[static_cast<std::size_t>(inject_[static_cast<std::size_t>(v)])] = router_of_[static_cast<std::size_t>(v)];
    // Every pair's path walked once along the routing trees, both packet sizes' head
    // latencies summed on the way: injection, mesh links, ejection.
    const auto nn = static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(nodes_);
    head_control_ns_.assign(nn, 0.0);
    const HeadLatencyTerms control = mc_.head_latency_terms(mc_.control_wire_bytes());
    std::vector<PathStep> steps_of_pair;
    for (int a = 0; a < nodes_; ++a)
        for (int b = 0; b < nodes_; ++b) {
            steps_of_pair.clear();
            if (a >= n_ && b >= n_) {  // memory-to-memory traffic does not exist
                store_.add(steps_of_pair, 0.0);
                continue;
            }
            const int ra = router_of(a), rb = router_of(b);
            const int routers = trees_.routers_on_path(ra, rb);
            StepWriter steps(steps_of_pair, flit_terms_, ns_per_byte_, flit_terms_.start(routers));
            double tc = control.start(routers), tail_c = 0;
            auto add = [&](int l, bool after_router) {
                steps.add(l, after_router);
                control.add(l, tc, tail_c);
            };
            add(inject(a), false);
            steps.cross_switch(switch_ns_per_byte(a, ra != rb ? trees_.next_link(rb, ra) : -1));
            for (int r = ra; r != rb; r = trees_.next_router(rb, r)) add(trees_.next_link(rb, r), true);
            steps.add_ejection(eject(b));
            control.add(eject(b), tc, tail_c);
            store_.add(steps_of_pair, steps.head_latency());  // number pair(a, b)
            head_control_ns_[pair(a, b)] = tc + tail_c;
        }
    paths_ = store_.refs();
    name_accounts(arch);
}

void PackagePaths::name_accounts(const ArchConfig& arch) {
    const PackageLinks& links = mc_.links();
    const MeshTopology& topo = mc_.topology();
    for (int r = 0; r < topo.routers(); ++r) names_.router.push_back(topo.router_account(r));
    for (int l = 0; l < links.mesh_slots; ++l) names_.link.push_back(topo.link_account(l));
    for (const MemoryConfig& m : arch.memories) {
        names_.phy.push_back("phy." + m.name);
        names_.dram.push_back("dram." + m.name);
    }
    for (int c = 0; c < n_; ++c) names_.chiplet.push_back("chiplet." + std::to_string(c));
    for (int k = 0; k < links.count(); ++k) {
        if (k < links.mesh_slots) {
            names_.any_link.push_back(names_.link[static_cast<std::size_t>(k)]);
            continue;
        }
        const int j = k - links.mesh_slots;
        if (j < 2 * links.chiplets) {
            names_.any_link.push_back("ni." + std::to_string(j % links.chiplets) + (j < links.chiplets ? ".in" : ".out"));
            continue;
        }
        const int p = j - 2 * links.chiplets;
        const std::string& m = arch.memories[static_cast<std::size_t>(p % links.memories)].name;
        names_.any_link.push_back("phy." + m + (p < links.memories ? ".to_noc" : ".from_noc"));
    }
    std::vector<std::string>& sorted = names_.sorted;
    for (const auto* kind : {&names_.router, &names_.link, &names_.phy, &names_.dram, &names_.chiplet})
        sorted.insert(sorted.end(), kind->begin(), kind->end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    auto place = [&](const std::vector<std::string>& kind, std::vector<std::size_t>& at) {
        for (const std::string& name : kind)
            at.push_back(static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), name) - sorted.begin()));
    };
    place(names_.router, names_.router_at);
    place(names_.link, names_.link_at);
    place(names_.phy, names_.phy_at);
    place(names_.dram, names_.dram_at);
    place(names_.chiplet, names_.chiplet_at);
}

PackagePathsCache::Key PackagePathsCache::key_of(const ArchConfig& arch) {
    Key k;
    k.package = package_to_json(arch.package);
    k.ni_bandwidth_gbps = arch.chiplet.ni_bandwidth_gbps;
    for (const MemoryConfig& m : arch.memories)
        k.memories.emplace_back(m.name, m.attach_row, m.attach_col, m.phy_bandwidth(), m.phy_latency_ns, m.phy_energy_pj_per_bit);
    return k;
}

const PackagePaths& PackagePathsCache::get(const ArchConfig& arch) {
    Key key = key_of(arch);
    if (!paths_ || !(key == key_)) {
        paths_ = std::make_unique<PackagePaths>(arch);
        key_ = std::move(key);
    }
    return *paths_;
}

}  // namespace mcmsim
