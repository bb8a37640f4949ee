// validate_plan: structural checks on a Plan, whether read from JSON or built by a mapper.
//
// One pass over the ops with hash maps (plans reach hundreds of thousands of ops), then one pass over the sends
// and recvs collected in file order so that the first error reported does not depend on
// hash-map iteration order. Error pointers are only formatted when an error is thrown.
#include "traces/plan/plan.h"

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
        if (plan_.chiplets < 1) fail("/chiplets", "at least 1 chiplet", std::to_string(plan_.chiplets));
        if (plan_.memories < 0) fail("/memories", "a non-negative memory count", std::to_string(plan_.memories));
        seen_.reserve(plan_.op_count());
        for (std::size_t l = 0; l < plan_.layers.size(); ++l) {
            const PlanLayer& layer = plan_.layers[l];
            std::int64_t macs = 0;
            for (std::size_t i = 0; i < layer.ops.size(); ++i) {
                OpRef ref{l, i, &layer.ops[i]};
                check_op(ref);
                all_.push_back(ref);
                if (ref.op->kind == OpKind::Compute) {
                    if (ref.op->macs > std::numeric_limits<std::int64_t>::max() - macs)
                        fail(op_pointer(ref, "macs"), "layer MACs below 2^63", "an overflowing sum at " + op_name(*ref.op));
                    macs += ref.op->macs;
                }
            }
            if (layer.macs != macs)
                fail("/layers/" + std::to_string(l) + "/macs",
                     "the sum of the layer's compute-op MACs (" + std::to_string(macs) + ")", std::to_string(layer.macs));
            if (layer.mapping) check_placement(*layer.mapping, "/layers/" + std::to_string(l) + "/mapping");
        }
        check_pairs();
        check_runnable();
    }

private:
    [[noreturn]] void fail(const std::string& where, const std::string& expected, const std::string& found) const {
        throw InputError(file_, where, expected, found);
    }

    /// The placement part of a mapping record: a group no larger than the plan's chiplets
    /// (whether it fits the package is checked against the arch: check_plan_fits), and a
    /// micro-batch index below the count.
    void check_placement(const PlanLayerMapping& m, const std::string& where) const {
        const auto& g = m.group;
        if (g.rows > 0 && static_cast<std::int64_t>(g.rows) * g.cols > plan_.chiplets)
            fail(where + "/group", "a group of at most " + std::to_string(plan_.chiplets) + " chiplets",
                 std::to_string(g.rows) + " x " + std::to_string(g.cols));
        if (m.micro_batch > 0 && m.micro_batch >= m.micro_batches)
            fail(where + "/micro_batch", "a micro-batch below micro_batches (" + std::to_string(m.micro_batches) + ")",
                 std::to_string(m.micro_batch));
    }

    void check_op(const OpRef& r) {
        const PlanOp& op = *r.op;
        if (!first_ && op.id <= last_id_) {
            auto it = seen_.find(op.id);
            if (it != seen_.end())
                fail(op_pointer(r, "id"), "a unique op id", op_name(op) + ", already used at " + op_pointer(it->second));
            fail(op_pointer(r, "id"), "op ids increasing in file order", op_name(op) + " after op " + std::to_string(last_id_));
        }
        first_ = false;
        last_id_ = op.id;

        if (op.chiplet < 0 || op.chiplet >= plan_.chiplets)
            fail(op_pointer(r, "chiplet"), chiplet_range(), op_name(op) + " on chiplet " + std::to_string(op.chiplet));

        for (std::size_t j = 0; j < op.deps.size(); ++j) {
            auto it = seen_.find(op.deps[j]);
            if (it == seen_.end() || it->second.op->chiplet != op.chiplet)
                fail(op_pointer(r, "deps/" + std::to_string(j)), "a dependency on an earlier op of the same chiplet",
                     op_name(op) + " depends on op " + std::to_string(op.deps[j]) + ", which is not an earlier op on chiplet " +
                         std::to_string(op.chiplet));
        }

        switch (op.kind) {
            case OpKind::Compute:
                if (op.macs < 0)
                    fail(op_pointer(r, "macs"), "non-negative MACs", op_name(op) + " with " + std::to_string(op.macs) + " MACs");
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
                check_transfer(r);
                break;
            case OpKind::DramRead:
            case OpKind::DramWrite:
                check_bytes(r);
                if (op.memory < 0 || op.memory >= plan_.memories)
                    fail(op_pointer(r, "memory"), "a memory index in [0, " + std::to_string(plan_.memories) + ")",
                         op_name(op) + " on memory " + std::to_string(op.memory));
                break;
        }

        seen_.emplace(op.id, r);
    }

    std::string chiplet_range() const { return "a chiplet index in [0, " + std::to_string(plan_.chiplets) + ")"; }

    void check_bytes(const OpRef& r) const {
        if (r.op->bytes <= 0)
            fail(op_pointer(r, "bytes"), "a positive byte count",
                 op_name(*r.op) + " with " + std::to_string(r.op->bytes) + " bytes");
    }

    /// One transfer of a send/recv op: `t` indexes the op's `transfers`, or is kSingle for
    /// an op in the single-transfer form.
    static constexpr std::size_t kSingle = static_cast<std::size_t>(-1);
    struct FlowRef {
        OpRef r;
        std::size_t t = kSingle;
        TransferRef x() const { return r.op->transfer(t == kSingle ? 0 : t); }
    };

    static std::string flow_pointer(const FlowRef& f, const std::string& field = "") {
        if (f.t == kSingle) return op_pointer(f.r, field);
        std::string p = "transfers/" + std::to_string(f.t);
        return op_pointer(f.r, field.empty() ? p : p + "/" + field);
    }

    // Per-op part of send/recv checking; the pairing itself is done in check_pairs().
    void check_transfer(const OpRef& r) {
        const PlanOp& op = *r.op;
        if (op.transfers.empty()) {
            check_bytes(r);
            check_flow(FlowRef{r, kSingle});
            return;
        }
        if (op.flow != -1 || op.peer != -1 || !op.route.empty())
            fail(op_pointer(r), "either a single transfer or a list of transfers", op_name(op) + " with both");
        std::int64_t sum = 0;
        for (std::size_t t = 0; t < op.transfers.size(); ++t) {
            const Transfer& x = op.transfers[t];
            FlowRef f{r, t};
            if (x.bytes <= 0)
                fail(flow_pointer(f, "bytes"), "a positive byte count",
                     op_name(op) + " transfer " + std::to_string(t) + " with " + std::to_string(x.bytes) + " bytes");
            if (x.bytes > std::numeric_limits<std::int64_t>::max() - sum)
                fail(flow_pointer(f, "bytes"), "op bytes below 2^63", "an overflowing sum at " + op_name(op));
            sum += x.bytes;
            check_flow(f);
        }
        if (op.bytes != sum)
            fail(op_pointer(r, "bytes"), "the sum of the op's transfers (" + std::to_string(sum) + " bytes)",
                 op_name(op) + " with " + std::to_string(op.bytes) + " bytes");
    }

    void check_flow(const FlowRef& f) {
        const PlanOp& op = *f.r.op;
        const TransferRef x = f.x();
        const bool send = op.kind == OpKind::Send;
        if (x.flow < 0)
            fail(flow_pointer(f, "flow"), "a non-negative flow id", op_name(op) + " with flow " + std::to_string(x.flow));
        const char* peer_key = send ? "to" : "from";
        if (x.peer < 0 || x.peer >= plan_.chiplets)
            fail(flow_pointer(f, peer_key), chiplet_range(), op_name(op) + " with peer chiplet " + std::to_string(x.peer));
        if (x.peer == op.chiplet)
            fail(flow_pointer(f, peer_key), "a peer chiplet other than the op's own",
                 op_name(op) + (send ? " sends to" : " receives from") + " its own chiplet " + std::to_string(op.chiplet));
        if (!send && x.route) fail(flow_pointer(f, "route"), "a route only on a send", op_name(op) + " (a recv) with a route");
        auto& by_flow = send ? send_of_flow_ : recv_of_flow_;
        auto [it, inserted] = by_flow.emplace(x.flow, f);
        if (!inserted)
            fail(flow_pointer(f, "flow"), std::string("a flow id used by one ") + (send ? "send" : "recv"),
                 op_name(op) + " reuses flow " + std::to_string(x.flow) + " of " + op_name(*it->second.r.op));
        (send ? sends_ : recvs_).push_back(f);
    }

    void check_pairs() const {
        for (const FlowRef& s : sends_) {
            const TransferRef sx = s.x();
            const PlanOp& send = *s.r.op;
            auto it = recv_of_flow_.find(sx.flow);
            if (it == recv_of_flow_.end())
                fail(flow_pointer(s), "a recv for every send",
                     op_name(send) + " sends flow " + std::to_string(sx.flow) + ", which no recv receives");
            const FlowRef& r = it->second;
            const TransferRef rx = r.x();
            const PlanOp& recv = *r.r.op;
            if (rx.bytes != sx.bytes)
                fail(flow_pointer(r, "bytes"), std::to_string(sx.bytes) + " bytes as sent by " + op_name(send),
                     op_name(recv) + " receiving " + std::to_string(rx.bytes) + " bytes of flow " + std::to_string(rx.flow));
            if (recv.chiplet != sx.peer || rx.peer != send.chiplet)
                fail(flow_pointer(r),
                     "a recv on chiplet " + std::to_string(sx.peer) + " from chiplet " + std::to_string(send.chiplet) +
                         " as sent by " + op_name(send),
                     op_name(recv) + " on chiplet " + std::to_string(recv.chiplet) + " from chiplet " + std::to_string(rx.peer));
        }
        for (const FlowRef& r : recvs_)
            if (!send_of_flow_.count(r.x().flow))
                fail(flow_pointer(r), "a send for every recv",
                     op_name(*r.r.op) + " receives flow " + std::to_string(r.x().flow) + ", which no send sends");
    }

    // Every op can run: no cycle through dependencies and flows (a recv waits for its send,
    // which waits for its own dependencies, which may wait for a recv on another chiplet).
    void check_runnable() const {
        std::unordered_map<std::int64_t, std::size_t> at;  // op id -> position in file order
        for (std::size_t k = 0; k < all_.size(); ++k) at[all_[k].op->id] = k;
        std::vector<std::vector<std::size_t>> succ(all_.size());
        std::vector<std::size_t> waiting(all_.size(), 0);
        for (std::size_t k = 0; k < all_.size(); ++k)
            for (std::int64_t d : all_[k].op->deps) {
                succ[at.at(d)].push_back(k);
                ++waiting[k];
            }
        for (const FlowRef& snd : sends_) {
            const std::size_t r = at.at(recv_of_flow_.at(snd.x().flow).r.op->id);
            succ[at.at(snd.r.op->id)].push_back(r);
            ++waiting[r];
        }
        std::vector<std::size_t> ready;
        for (std::size_t k = 0; k < all_.size(); ++k)
            if (waiting[k] == 0) ready.push_back(k);
        for (std::size_t n = 0; n < ready.size(); ++n)
            for (std::size_t s : succ[ready[n]])
                if (--waiting[s] == 0) ready.push_back(s);
        if (ready.size() == all_.size()) return;
        for (std::size_t k = 0; k < all_.size(); ++k)
            if (waiting[k] > 0)
                fail(op_pointer(all_[k]), "ops that can all run: no cycle through dependencies and flows",
                     op_name(*all_[k].op) + " waits, through dependencies and received flows, on itself");
    }

    const Plan& plan_;
    const std::string& file_;
    bool first_ = true;
    std::int64_t last_id_ = 0;
    std::unordered_map<std::int64_t, OpRef> seen_;  ///< id -> earlier op (deps, duplicates)
    std::unordered_map<std::int64_t, FlowRef> send_of_flow_, recv_of_flow_;
    std::vector<FlowRef> sends_, recvs_;  ///< in file order, for deterministic pairing errors
    std::vector<OpRef> all_;              ///< every op in file order
};

}  // namespace

void validate_plan(const Plan& plan, const std::string& file) { Validator(plan, file).run(); }

}  // namespace mcmsim
