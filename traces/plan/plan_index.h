#pragma once
// A flat view of a plan: every op gets a dense index (file order), its layer, id lookup and
// flow lookup. The simulator and the reports walk plans through this index; the analytical
// model builds only the two lookups (KeyIndex), as part of every estimate.
//
// Ids and flow ids written by the mapper are dense (0, 1, 2, ...), so lookups are plain
// vectors; sparse ids from hand-written plans fall back to hash maps.
#include "traces/plan/plan.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace mcmsim {

/// Lookup from a non-negative integer key to a dense index. Keys below the count given to
/// prepare() (the mapper writes ids and flows 0, 1, 2, ...) sit in a flat table, any other key
/// in a hash map, so sparse keys from hand-written plans still work.
class KeyIndex {
public:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    /// `count`: how many keys will be inserted (the flat table's size).
    void prepare(std::size_t count);
    /// For when the count is not known before the keys come: the flat table starts empty and
    /// grows to hold every inserted key below `limit` (a bound on its memory); larger keys go
    /// to the hash map.
    void prepare_growing(std::size_t limit);
    /// Returns false when `key` is already present (the first value stays). Values must be
    /// below 2^32 - 1 (dense op indices).
    bool insert(std::int64_t key, std::size_t value) {
        if (static_cast<std::uint64_t>(key) < flat_.size()) {
            std::uint32_t& slot = flat_[static_cast<std::size_t>(key)];
            if (slot != 0) return false;
            slot = encode(value);
            return true;
        }
        return insert_slow(key, value);
    }
    std::size_t find(std::int64_t key) const {  ///< kNone when absent
        if (static_cast<std::uint64_t>(key) < flat_.size())
            return static_cast<std::size_t>(flat_[static_cast<std::size_t>(key)]) - 1;
        return map_.empty() ? kNone : find_sparse(key);
    }

private:
    static std::uint32_t encode(std::size_t value) {
        if (value >= 0xFFFFFFFFu) too_many();
        return static_cast<std::uint32_t>(value + 1);
    }
    [[noreturn]] static void too_many();
    /// A key past the flat table: grows the table to it (below grow_limit_), else the map.
    bool insert_slow(std::int64_t key, std::size_t value);
    std::size_t find_sparse(std::int64_t key) const;
    /// value + 1 per key, 0 when absent: 4-byte slots (half the memory traffic of size_t) and
    /// a table that starts zeroed.
    std::vector<std::uint32_t> flat_;
    /// Keys below it are in flat_ (the table never grows past it), the others in map_.
    std::size_t grow_limit_ = 0;
    std::unordered_map<std::int64_t, std::size_t> map_;
};

struct PlanIndex {
    explicit PlanIndex(const Plan& plan);

    std::vector<const PlanOp*> ops;  ///< dense index -> op
    std::vector<int> layer_of;       ///< dense index -> layer index
    std::size_t transfers = 0;       ///< flows in the plan (send-side transfers)

    std::size_t size() const { return ops.size(); }
    /// Dense index of the op with `id`; throws std::out_of_range when there is none.
    std::size_t index(std::int64_t id) const;
    /// Dense index of the op that receives `flow`; KeyIndex::kNone when none. (Only the
    /// receiving side is indexed: reading every transfer twice would double the index's cost.)
    std::size_t recv_of(std::int64_t flow) const { return recv_of_flow_.find(flow); }

private:
    KeyIndex index_of_id_, recv_of_flow_;
};

/// Start and end of every op in one run (simulated or estimated), in ns, by dense index.
struct OpTimes {
    double start_ns = -1;
    double end_ns = -1;
    bool done() const { return end_ns >= 0; }
};

}  // namespace mcmsim
