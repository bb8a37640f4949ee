// The analytical model's inner pieces against plain references: the two-lane link reservation
// against one step at a time (the formula in link_reservation.h), the ready queue against a
// sort, the flow -> recv table against a map, the ledger's accounts opened in order against
// one by one. Bit equality throughout: the model's results must not depend on how these are
// computed.
#include "hw/energy/energy_ledger.h"
#include "mapper/model/flow_receivers.h"
#include "mapper/model/link_reservation.h"
#include "mapper/model/ready_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace mcmsim;

namespace test_model_kernels {

/// The reservation one step at a time, straight from its definition: per step
/// f = max(t + z, f) + wire * hold, e = max(e, f - z); the first step has head time 0.
double reference_reserve(std::vector<double>& free, const std::vector<PathStep>& steps, double t, double e, double wire) {
    for (const PathStep& s : steps) {
        double& f = free[static_cast<std::size_t>(s.link)];
        f = std::max(t + s.z, f) + wire * s.hold;
        e = std::max(e, f - s.z);
    }
    return e;
}

TEST(LinkReservation, TwoLanesGiveTheBitsOfOneStepAtATime) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> ns(0.0, 50.0), hold(0.01, 0.2), bytes(16.0, 4096.0);
    const int links = 12;
    std::vector<double> free_ref(links, 0.0), free_two(links, 0.0);
    for (int trial = 0; trial < 2000; ++trial) {
        // A path of 1..8 distinct links (odd and even lengths), head times increasing from 0.
        std::vector<int> ids(links);
        for (int l = 0; l < links; ++l) ids[static_cast<std::size_t>(l)] = l;
        std::shuffle(ids.begin(), ids.end(), rng);
        const std::size_t length = 1 + rng() % 8;
        std::vector<PathStep> steps;
        double z = 0, h = 0;
        for (std::size_t k = 0; k < length; ++k) {
            if (k > 0) z += ns(rng);
            h = std::max(h, hold(rng));
            steps.push_back(PathStep{ids[k], z, h});
        }
        PathStore store;
        store.add(steps, 0.0);
        const PathRef& p = store.refs()[0];
        const double t = ns(rng) * trial / 100.0, e = ns(rng) * (trial % 3), wire = bytes(rng);
        const double expected = reference_reserve(free_ref, steps, t, e, wire);
        EXPECT_EQ(reserve_path(free_two.data(), p, t, e, wire), expected) << "trial " << trial;
        ASSERT_EQ(free_two, free_ref) << "trial " << trial;
    }
}

TEST(LinkReservation, PathStoreKeepsTheFirstStepApart) {
    PathStore store;
    store.add({{3, 0.0, 0.5}, {4, 2.0, 0.5}, {5, 4.0, 1.0}}, 9.0);
    store.add({{6, 0.0, 0.25}}, 1.0);
    const PathRef* refs = store.refs();
    EXPECT_EQ(refs[0].first_link, 3);
    EXPECT_EQ(refs[0].first_hold, 0.5);
    EXPECT_EQ(refs[0].records, 1u);  // steps 4 and 5 in one record
    EXPECT_EQ(refs[0].rest[0].link[1], 5);
    EXPECT_EQ(refs[0].head_ns, 9.0);
    EXPECT_EQ(refs[1].first_link, 6);
    EXPECT_EQ(refs[1].records, 0u);
}

TEST(ReadyQueue, PopsInTimeThenIndexOrder) {
    std::mt19937_64 rng(11);
    ReadyQueue q;
    std::vector<std::pair<double, std::uint32_t>> pending;  // the reference: sorted on demand
    std::uint32_t next = 0;
    double now = 0;
    for (int step = 0; step < 20000; ++step) {
        if (pending.empty() || rng() % 3 != 0) {
            // Mostly at or after the last pop (as the scheduler pushes), a few ties in time.
            const double t = rng() % 4 == 0 ? now : now + static_cast<double>(rng() % 1000) / 8.0;
            const std::uint32_t i = (next++ * 2654435761u) % 1000003u;  // unique, not in order
            q.push(t, i);
            pending.emplace_back(t, i);
        } else {
            auto least = std::min_element(pending.begin(), pending.end());
            const ReadyQueue::Item got = q.pop();
            EXPECT_EQ(got.t, least->first);
            EXPECT_EQ(got.i, least->second);
            now = least->first;
            pending.erase(least);
        }
    }
    while (!pending.empty()) {
        auto least = std::min_element(pending.begin(), pending.end());
        ASSERT_FALSE(q.empty());
        EXPECT_EQ(q.next_index(), least->second);
        EXPECT_EQ(q.pop().i, least->second);
        pending.erase(least);
    }
    EXPECT_TRUE(q.empty());
}

// Among equal times the sequence number decides before the index (the packet schedule's group
// events, numbered in push order); items pushed without one (0) keep time-then-index order.
TEST(ReadyQueue, EqualTimesPopInSequenceThenIndexOrder) {
    std::mt19937_64 rng(12);
    ReadyQueue q;
    std::vector<std::tuple<double, std::uint32_t, std::uint32_t>> pending;  // (t, seq, i)
    std::uint32_t next = 0;
    for (int step = 0; step < 20000; ++step) {
        if (pending.empty() || rng() % 3 != 0) {
            const double t = static_cast<double>(rng() % 8);  // many ties
            const std::uint32_t seq = rng() % 2 == 0 ? 0 : static_cast<std::uint32_t>(rng() % 50);
            const std::uint32_t i = (next++ * 2654435761u) % 1000003u;
            q.push(t, i, seq);
            pending.emplace_back(t, seq, i);
        } else {
            auto least = std::min_element(pending.begin(), pending.end());
            const ReadyQueue::Item got = q.pop();
            EXPECT_EQ(got.t, std::get<0>(*least));
            EXPECT_EQ(got.i, std::get<2>(*least));
            pending.erase(least);
        }
    }
    // A later push with a smaller sequence number still waits for an earlier time.
    ReadyQueue r;
    r.push(2.0, 7, 1);
    r.push(1.0, 9, 5);
    r.push(1.0, 3, 6);
    r.push(1.0, 8, 5);
    EXPECT_EQ(r.pop().i, 8u);  // t 1, seq 5, index 8 before index 9
    EXPECT_EQ(r.pop().i, 9u);
    EXPECT_EQ(r.pop().i, 3u);  // seq 6
    EXPECT_EQ(r.pop().i, 7u);  // t 2
    EXPECT_TRUE(r.empty());
}

TEST(FlowReceivers, DenseAndSparseIdsFindTheirRecv) {
    FlowReceivers r;
    r.start(1000);
    // Recvs before and after their sends, dense ids, ids past the dense bound, a negative id.
    r.receive(3, 30);
    r.receive(0, 7);
    const std::uint32_t s3 = r.slot_of(3), s0 = r.slot_of(0), s500 = r.slot_of(500);
    const std::uint32_t big = r.slot_of(5'000'000'000LL), neg = r.slot_of(-4);
    r.receive(500, 50);
    r.receive(5'000'000'000LL, 60);
    r.receive(-4, 70);
    r.receive(3, 99);  // a second recv of flow 3: the first stays
    const std::uint32_t unreceived = r.slot_of(777), unreceived_sparse = r.slot_of(123'456'789);
    r.finish();
    EXPECT_EQ(r.recv_of(s3), 30u);
    EXPECT_EQ(r.recv_of(s0), 7u);
    EXPECT_EQ(r.recv_of(s500), 50u);
    EXPECT_EQ(r.recv_of(big), 60u);
    EXPECT_EQ(r.recv_of(neg), 70u);
    EXPECT_EQ(r.recv_of(unreceived), FlowReceivers::kNone);
    EXPECT_EQ(r.recv_of(unreceived_sparse), FlowReceivers::kNone);
    EXPECT_EQ(r.flow_of(big), 5'000'000'000LL);
    EXPECT_EQ(r.flow_of(unreceived), 777);
    // A new plan forgets the last one's flows.
    r.start(1000);
    const std::uint32_t again = r.slot_of(3);
    r.finish();
    EXPECT_EQ(r.recv_of(again), FlowReceivers::kNone);
}

TEST(FlowReceivers, AgreesWithAMapOnRandomIds) {
    std::mt19937_64 rng(5);
    FlowReceivers r;
    for (int plan = 0; plan < 3; ++plan) {
        r.start(4096);
        std::map<std::int64_t, std::uint32_t> recv_of;  // first recv of each id
        std::vector<std::int64_t> ids;
        struct Item {
            std::int64_t flow;
        };
        for (int k = 0; k < 3000; ++k) {
            auto random_id = [&] {
                return rng() % 5 == 0 ? static_cast<std::int64_t>(rng() % 100000) - 50000
                                      : static_cast<std::int64_t>(rng() % 4000);
            };
            const std::int64_t id = random_id();
            ids.push_back(id);
            const auto op = static_cast<std::uint32_t>(k);
            if (rng() % 4 == 0) continue;  // a flow nobody receives
            if (rng() % 2 == 0) {
                recv_of.emplace(id, op);
                r.receive(id, op);
            } else {  // a grouped recv: this id and two more
                std::vector<Item> group{{id}, {random_id()}, {random_id()}};
                for (const Item& g : group) recv_of.emplace(g.flow, op);
                r.receive_all(group.data(), group.data() + group.size(), op);
            }
        }
        std::vector<std::uint32_t> slots;
        for (std::int64_t id : ids) slots.push_back(r.slot_of(id));
        r.finish();
        for (std::size_t k = 0; k < ids.size(); ++k) {
            auto it = recv_of.find(ids[k]);
            EXPECT_EQ(r.recv_of(slots[k]), it == recv_of.end() ? FlowReceivers::kNone : it->second) << "id " << ids[k];
        }
    }
}

TEST(EnergyLedgerAccounts, InOrderAreTheAccountsByName) {
    EnergyLedger ledger;
    EnergyAccount& before = ledger.account("link.b");  // an account that exists already
    before.add(EnergyCategory::Noc, 2.0);
    const std::vector<std::string> names = {"chiplet.0", "link.a", "link.b", "router_0_0"};
    std::vector<EnergyAccount*> out;
    ledger.accounts_in_order(names, out);
    ASSERT_EQ(out.size(), names.size());
    for (std::size_t k = 0; k < names.size(); ++k) EXPECT_EQ(out[k], &ledger.account(names[k])) << names[k];
    EXPECT_EQ(out[2], &before);
    EXPECT_EQ(out[2]->pj[static_cast<int>(EnergyCategory::Noc)], 2.0);  // kept, not replaced
    // Out of order (a wrong hint) still finds each name's account, and opens no other.
    const std::vector<std::string> shuffled = {"router_0_0", "chiplet.0", "link.b", "zz"};
    std::vector<EnergyAccount*> again;
    ledger.accounts_in_order(shuffled, again);
    EXPECT_EQ(again[0], out[3]);
    EXPECT_EQ(again[1], out[0]);
    EXPECT_EQ(again[2], out[2]);
    EXPECT_EQ(again[3], &ledger.account("zz"));
    EXPECT_EQ(ledger.components_json().size(), 1u);  // only link.b has energy
}

}  // namespace test_model_kernels
