// validate_plan: structural checks on a Plan, whether read from JSON or built by a mapper.
//
// One pass over the ops with hash maps (plans have ~100k ops), then one pass over the sends
// and recvs collected in file order so that the first error reported does not depend on
// hash-map iteration order. Error pointers are only formatted when an error is thrown.
#include "traces/plan.h"

#include "hw/common/input_error.h"

#include <limits>
#include <unordered_map>

namespace mcmsim {

namespace {

struct OpRef {
    std::size_t layer = 0;
    std::size_t index = 0;
    const PlanOp* op = nullptr;
};

std::string op_pointer(const OpRef& r, const std::string& field = "") {
    std::string p = "/layers/" + std::to_string(r.layer) + "/ops/" + std::to_string(r.index);
    return field.empty() ? p : p + "/" + field;
}

std::string op_name(const PlanOp& op) { return "op " + std::to_string(op.id); }

class Validator {
public:
    Validator(const Plan& plan, const std::string& file) : plan_(plan), file_(file) {}

    void run() {
        if (plan_.chiplets < 1)
            fail("/chiplets", "at least 1 chiplet", std::to_string(plan_.chiplets));
        if (plan_.memories < 0)
            fail("/memories", "a non-negative memory count", std::to_string(plan_.memories));
        seen_.reserve(plan_.op_count());
        for (std::size_t l = 0; l < plan_.layers.size(); ++l) {
            const PlanLayer& layer = plan_.layers[l];
            std::int64_t macs = 0;
            for (std::size_t i = 0; i < layer.ops.size(); ++i) {
                OpRef ref{l, i, &layer.ops[i]};
                check_op(ref);
                if (ref.op->kind == OpKind::Compute) {
                    if (ref.op->macs > std::numeric_limits<std::int64_t>::max() - macs)
                        fail(op_pointer(ref, "macs"), "layer MACs below 2^63",
                             "an overflowing sum at " + op_name(*ref.op));
                    macs += ref.op->macs;
                }
            }
            if (layer.macs != macs)
                fail("/layers/" + std::to_string(l) + "/macs",
                     "the sum of the layer's compute-op MACs (" + std::to_string(macs) + ")",
                     std::to_string(layer.macs));
        }
        check_pairs();
    }

private:
    [[noreturn]] void fail(const std::string& where, const std::string& expected,
                           const std::string& found) const {
        throw InputError(file_, where, expected, found);
    }

    void check_op(const OpRef& r) {
        const PlanOp& op = *r.op;
        if (!first_ && op.id <= last_id_) {
            auto it = seen_.find(op.id);
            if (it != seen_.end())
                fail(op_pointer(r, "id"), "a unique op id",
                     op_name(op) + ", already used at " + op_pointer(it->second));
            fail(op_pointer(r, "id"), "op ids increasing in file order",
                 op_name(op) + " after op " + std::to_string(last_id_));
        }
        first_ = false;
        last_id_ = op.id;

        if (op.chiplet < 0 || op.chiplet >= plan_.chiplets)
            fail(op_pointer(r, "chiplet"), chiplet_range(),
                 op_name(op) + " on chiplet " + std::to_string(op.chiplet));

        for (std::size_t j = 0; j < op.deps.size(); ++j) {
            auto it = seen_.find(op.deps[j]);
            if (it == seen_.end() || it->second.op->chiplet != op.chiplet)
                fail(op_pointer(r, "deps/" + std::to_string(j)),
                     "a dependency on an earlier op of the same chiplet",
                     op_name(op) + " depends on op " + std::to_string(op.deps[j]) +
                         ", which is not an earlier op on chiplet " + std::to_string(op.chiplet));
        }

        switch (op.kind) {
            case OpKind::Compute:
                if (op.macs < 0)
                    fail(op_pointer(r, "macs"), "non-negative MACs",
                         op_name(op) + " with " + std::to_string(op.macs) + " MACs");
                if (op.sram_bytes < 0)
                    fail(op_pointer(r, "sram_bytes"), "non-negative SRAM bytes",
                         op_name(op) + " with " + std::to_string(op.sram_bytes) + " SRAM bytes");
                if (!op.shape.empty() && op.shape.macs() != op.macs)
                    fail(op_pointer(r, "shape"), "a shape whose product equals the op's MACs",
                         op_name(op) + " with shape product " + std::to_string(op.shape.macs()) + " and " +
                             std::to_string(op.macs) + " MACs");
                break;
            case OpKind::Send:
            case OpKind::Recv:
                check_bytes(r);
                check_transfer(r);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite:
                check_bytes(r);
                if (op.memory < 0 || op.memory >= plan_.memories)
                    fail(op_pointer(r, "memory"),
                         "a memory index in [0, " + std::to_string(plan_.memories) + ")",
                         op_name(op) + " on memory " + std::to_string(op.memory));
                break;
        }

        seen_.emplace(op.id, r);
    }

    std::string chiplet_range() const {
        return "a chiplet index in [0, " + std::to_string(plan_.chiplets) + ")";
    }

    void check_bytes(const OpRef& r) const {
        if (r.op->bytes <= 0)
            fail(op_pointer(r, "bytes"), "a positive byte count",
                 op_name(*r.op) + " with " + std::to_string(r.op->bytes) + " bytes");
    }

    // Per-op part of send/recv checking; the pairing itself is done in check_pairs().
    void check_transfer(const OpRef& r) {
        const PlanOp& op = *r.op;
        const bool send = op.kind == OpKind::Send;
        if (op.flow < 0)
            fail(op_pointer(r, "flow"), "a non-negative flow id",
                 op_name(op) + " with flow " + std::to_string(op.flow));
        const char* peer_key = send ? "to" : "from";
        if (op.peer < 0 || op.peer >= plan_.chiplets)
            fail(op_pointer(r, peer_key), chiplet_range(),
                 op_name(op) + " with peer chiplet " + std::to_string(op.peer));
        if (op.peer == op.chiplet)
            fail(op_pointer(r, peer_key), "a peer chiplet other than the op's own",
                 op_name(op) + (send ? " sends to" : " receives from") + " its own chiplet " +
                     std::to_string(op.chiplet));
        auto& by_flow = send ? send_of_flow_ : recv_of_flow_;
        auto [it, inserted] = by_flow.emplace(op.flow, r);
        if (!inserted)
            fail(op_pointer(r, "flow"),
                 std::string("a flow id used by one ") + (send ? "send" : "recv"),
                 op_name(op) + " reuses flow " + std::to_string(op.flow) + " of " +
                     op_name(*it->second.op));
        (send ? sends_ : recvs_).push_back(r);
    }

    void check_pairs() const {
        for (const OpRef& s : sends_) {
            const PlanOp& send = *s.op;
            auto it = recv_of_flow_.find(send.flow);
            if (it == recv_of_flow_.end())
                fail(op_pointer(s), "a recv for every send",
                     op_name(send) + " sends flow " + std::to_string(send.flow) +
                         ", which no recv receives");
            const OpRef& r = it->second;
            const PlanOp& recv = *r.op;
            if (recv.bytes != send.bytes)
                fail(op_pointer(r, "bytes"),
                     std::to_string(send.bytes) + " bytes as sent by " + op_name(send),
                     op_name(recv) + " receiving " + std::to_string(recv.bytes) + " bytes");
            if (recv.chiplet != send.peer || recv.peer != send.chiplet)
                fail(op_pointer(r),
                     "a recv on chiplet " + std::to_string(send.peer) + " from chiplet " +
                         std::to_string(send.chiplet) + " as sent by " + op_name(send),
                     op_name(recv) + " on chiplet " + std::to_string(recv.chiplet) +
                         " from chiplet " + std::to_string(recv.peer));
        }
        for (const OpRef& r : recvs_)
            if (!send_of_flow_.count(r.op->flow))
                fail(op_pointer(r), "a send for every recv",
                     op_name(*r.op) + " receives flow " + std::to_string(r.op->flow) +
                         ", which no send sends");
    }

    const Plan& plan_;
    const std::string& file_;
    bool first_ = true;
    std::int64_t last_id_ = 0;
    std::unordered_map<std::int64_t, OpRef> seen_;  ///< id -> earlier op (deps, duplicates)
    std::unordered_map<std::int64_t, OpRef> send_of_flow_, recv_of_flow_;
    std::vector<OpRef> sends_, recvs_;  ///< in file order, for deterministic pairing errors
};

}  // namespace

void validate_plan(const Plan& plan, const std::string& file) { Validator(plan, file).run(); }

}  // namespace mcmsim
