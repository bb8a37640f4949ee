#pragma once
// Which recv op receives each flow of a plan, as the analytical model looks it up: ~70k flows
// in a ResNet-50 plan, each read once on its recv op and once on its send op.
//
// The two sides need not meet while the plan is read. A recv op writes itself into a table
// indexed by flow id; a send op's flow keeps only the slot its recv op is in, which the
// scheduler reads when the send runs, long after every recv has been read. Ids written by the
// mapper are dense (0, 1, 2, ...), so a flow's slot is its id: the send side pays one
// comparison and the recv side one store, where pairing the two as they come costs a lookup
// on each side. Sparse ids (hand-written plans) get slots of their own through hash maps.
// Pure C++.
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace mcmsim {

class FlowReceivers {
public:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

    /// Forgets the last plan's flows, keeping the table's storage. Ids in [0, dense_limit) are
    /// their own slots; the bound keeps a sparse plan's table small.
    void start(std::size_t dense_limit);

    /// Op `op` (dense index) receives `flow`. A second recv of a flow is ignored (validate_plan
    /// rejects it): the first one stays.
    void receive(std::int64_t flow, std::uint32_t op) {
        if (static_cast<std::uint64_t>(flow) < table_.size()) {
            std::uint32_t& slot = table_[static_cast<std::size_t>(flow)];
            if (slot == kNone) slot = op;
        } else receive_past_table(flow, op);
    }

    /// receive() for each of a recv op's transfers (items with a `flow`), the table kept in
    /// registers: a loop through the members reloads them for every flow.
    template <class Transfer>
    void receive_all(const Transfer* t, const Transfer* end, std::uint32_t op) {
        std::uint32_t* table = table_.data();
        std::size_t size = table_.size();
        for (; t != end; ++t) {
            if (static_cast<std::uint64_t>(t->flow) < size) {
                std::uint32_t& slot = table[static_cast<std::size_t>(t->flow)];
                if (slot == kNone) slot = op;
            } else {
                receive_past_table(t->flow, op);
                table = table_.data();
                size = table_.size();
            }
        }
    }

    /// Ids below it are their own slots (for loops that test it themselves).
    std::size_t dense_limit() const { return dense_limit_; }
    /// The send side: the slot in which the flow's recv op will be.
    std::uint32_t slot_of(std::int64_t flow) {
        return static_cast<std::uint64_t>(flow) < dense_limit_ ? static_cast<std::uint32_t>(flow) : sparse_slot(flow);
    }

    /// Once every recv op is read: the sparse ids' recv ops into their slots.
    void finish();

    /// The recv op in `slot`, kNone when the flow has no recv. Valid after finish().
    std::uint32_t recv_of(std::uint32_t slot) const { return view().recv_of(slot); }
    /// The flow a slot stands for (for error messages).
    std::int64_t flow_of(std::uint32_t slot) const;

    /// recv_of for a hot loop: the table in registers (a loop that calls out reloads members).
    class View {
    public:
        std::uint32_t recv_of(std::uint32_t slot) const { return slot < size_ ? table_[slot] : self_->recv_of_sparse(slot); }

    private:
        friend class FlowReceivers;
        View(const std::uint32_t* table, std::size_t size, const FlowReceivers* self) : table_(table), size_(size), self_(self) {}
        const std::uint32_t* table_;
        std::size_t size_;
        const FlowReceivers* self_;
    };
    View view() const { return View(table_.data(), table_.size(), this); }

private:
    /// Sparse ids' slots count from here (dense limits stay below it).
    static constexpr std::uint32_t kSparseBase = 0x80000000u;
    void receive_past_table(std::int64_t flow, std::uint32_t op);
    std::uint32_t sparse_slot(std::int64_t flow);
    std::uint32_t recv_of_sparse(std::uint32_t slot) const;

    std::vector<std::uint32_t> table_;  ///< per dense id: its recv op, kNone when none (yet)
    std::size_t dense_limit_ = 0;
    std::unordered_map<std::int64_t, std::uint32_t> sparse_recv_;   ///< sparse id -> recv op
    std::unordered_map<std::int64_t, std::uint32_t> sparse_slots_;  ///< sparse id -> its slot
    std::vector<std::int64_t> sparse_ids_;                          ///< per sparse slot: its id
    std::vector<std::uint32_t> sparse_ops_;                         ///< per sparse slot: its recv op (finish)
};

}  // namespace mcmsim
