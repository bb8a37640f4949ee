#include "mapper/plan_builder/input_delivery.h"

#include <algorithm>
#include <cmath>

namespace mcmsim {

InputDelivery::InputDelivery(OpSink& sink, TransferBatch& batch, OutputSpill& spill, const Ownership& owned,
                             IdVector<const Layer*> shapes, const ChipletMemories& memories)
    : sink_(sink), batch_(batch), spill_(spill), owned_(owned), shapes_(std::move(shapes)), memories_(memories),
      n_(memories.chiplets()) {}

ChipletDeps InputDelivery::gather(PlanLayer& layer, const Layer& L, const IdVector<WorkBox>& boxes, const LayerMapping& lm,
                                  const IdVector<std::int64_t>& start, PlanLayerMapping& info) {
    collective_ = lm.collective;
    input_multicast_ = lm.input_multicast;
    info_ = &info;
    direct_inputs_ = 0;
    ChipletDeps deps(n_);
    // A compute waits for a handful to a dozen or so ops: room for them at once, not by doubling.
    for (int c = 0; c < n_; ++c)
        if (!boxes[c].empty()) deps[c].reserve(16);
    for (const Operand& op : operands_of(L)) {
        if (op.producers.empty()) {
            read_from_dram(layer, L, boxes, op, start, deps);
            continue;
        }
        const Layer& first = *shapes_[op.producers.front()];
        std::vector<std::vector<int>> groups;
        if (op.producers.size() == 1 || same_ownership(op.producers)) groups.push_back(op.producers);
        else
            for (int p : op.producers) groups.push_back({p});
        for (const auto& group : groups) {
            if (maps_exactly(L, first)) send_exact(L, boxes, group, deps);
            else send_proportional(L, boxes, group, op, deps);
        }
    }
    batch_.flush_into(layer, lm.route, sink_, deps);
    spill_.flush(*this, layer, deps);
    batch_.flush_into(layer, lm.route, sink_, deps);  // spilled parts read once and forwarded (if any)
    info_ = nullptr;
    return deps;
}

/// A spilled part read once by `from`: to the other chiplets needing it like an input part
/// an owner sends (deliver()), by the collective when two or more others need it.
void InputDelivery::forward(int from, const std::vector<int>& dests, std::int64_t bytes, std::int64_t read) {
    info_->spill_dram_bytes_saved += bytes * static_cast<std::int64_t>(dests.size());
    send_copies(from, dests, bytes, read);
}

/// Bytes one chiplet read from DRAM (op `read`), to the others that need them: by the layer's
/// collective when several do, point to point when one does.
void InputDelivery::send_copies(int from, const std::vector<int>& dests, std::int64_t bytes, std::int64_t read) {
    if (dests.size() >= 2) {
        batch_.multicast(from, dests, bytes, {read});
        if (collective_ != Collective::Direct) ++info_->multicasts;
        return;
    }
    if (collective_ != Collective::Direct) ++direct_inputs_;
    batch_.transfer(from, dests.front(), bytes, {read});
}

/// Whether all producers hold their outputs in the same places (then a residual sum is
/// formed where it lies and sent once).
bool InputDelivery::same_ownership(const std::vector<int>& producers) const {
    const auto& first = owned_[producers.front()];
    for (int p : producers) {
        const auto& o = owned_[p];
        for (int c = 0; c < n_; ++c) {
            const auto& a = first[c];
            const auto& b = o[c];
            if (a.size() != b.size()) return false;
            for (std::size_t i = 0; i < a.size(); ++i)
                if (!a[i].box.same_output(b[i].box)) return false;
        }
    }
    return true;
}

/// An operand without a producer: each chiplet's part from its nearest memory, the part's
/// read waiting for `start`; with input multicast (LayerMapping::input_multicast) one read per
/// group of chiplets needing the same bytes from the same memory, by the member nearest it,
/// the others getting the bytes by the layer's collective (like a spilled part, forward()).
void InputDelivery::read_from_dram(PlanLayer& layer, const Layer& L, const IdVector<WorkBox>& boxes, const Operand& op,
                                   const IdVector<std::int64_t>& start, ChipletDeps& deps) {
    // Per chiplet with work its part, in chiplet order.
    const bool matmul = L.kind == LayerKind::MatMul;
    parts_.clear();
    for (int c = 0; c < n_; ++c) {
        const WorkBox& b = boxes[c];
        if (b.empty()) continue;
        // A matmul's share of the operand has no region: only the whole operand is known to
        // be the same bytes for two chiplets.
        const double f = matmul ? need_fraction(L, b, op) : 1.0;
        const InputNeed need = matmul ? InputNeed{} : input_need(L, b);
        const std::int64_t bytes = matmul ? static_cast<std::int64_t>(std::llround(f * static_cast<double>(op.bytes)))
                                          : need.volume() * L.bytes_per_element;
        if (bytes <= 0) continue;
        parts_.push_back(Part{c, need, bytes, matmul && f == 1.0});
    }
    // Input multicast: parts that are the same bytes in the same memory form a group.
    reader_.assign(n_, -1);
    auto same = [&](const Part& a, const Part& b) {
        if (memories_.home(a.consumer) != memories_.home(b.consumer)) return false;
        if (matmul) return a.whole && b.whole;
        return a.need.n == b.need.n && a.need.c == b.need.c && a.need.h == b.need.h && a.need.w == b.need.w;
    };
    // Groups in the order of their first member; the member nearest the memory reads.
    std::vector<std::vector<int>> groups;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
        const Part& p = parts_[i];
        if (p.sent) continue;
        std::vector<int> members{p.consumer};
        if (input_multicast_)
            for (std::size_t j = i + 1; j < parts_.size(); ++j)
                if (!parts_[j].sent && same(p, parts_[j])) {
                    parts_[j].sent = true;
                    members.push_back(parts_[j].consumer);
                }
        const int m = memories_.home(p.consumer);
        int reader = members.front();
        for (int c : members)
            if (memories_.hops(c, m) < memories_.hops(reader, m)) reader = c;
        for (int c : members) reader_[c] = reader;
        groups.push_back(std::move(members));
    }
    // The reads in chiplet order (a plan without input multicast is as before), then the forwards.
    IdVector<std::int64_t> read(n_, -1);
    for (const Part& p : parts_) {
        const int c = p.consumer;
        if (reader_[c] != c) continue;
        const int m = memories_.home(c);
        std::vector<std::int64_t> wait;
        if (!start.empty() && start[c] >= 0) wait.push_back(start[c]);
        PlanOp& in = sink_.add_op(layer, c, OpKind::DramRead, std::move(wait));
        in.bytes = p.bytes, in.memory = m, in.address = sink_.dram_address(m, p.bytes);
        read[c] = in.id;
        deps[c].push_back(in.id);
    }
    for (const auto& members : groups) {
        if (members.size() < 2) continue;
        const int reader = reader_[members.front()];
        std::int64_t bytes = 0;
        for (const Part& p : parts_)
            if (p.consumer == reader) bytes = p.bytes;
        dests_.clear();
        for (int c : members)
            if (c != reader) dests_.push_back(c);
        ++info_->input_multicasts;
        info_->input_dram_bytes_saved += bytes * static_cast<std::int64_t>(dests_.size());
        send_copies(reader, dests_, bytes, read[reader]);
    }
}

/// Each owner sends every chiplet the intersection of what it holds with what that chiplet
/// needs (in the consumer's coordinates; pooling in between scales rows and columns).
void InputDelivery::send_exact(const Layer& L, const IdVector<WorkBox>& boxes, const std::vector<int>& group, ChipletDeps& deps) {
    const Layer& P = *shapes_[group.front()];
    const auto& owners = owned_[group.front()];
    auto same = [](const Part& a, const Part& b) {
        return a.need.n == b.need.n && a.need.c == b.need.c && a.need.h == b.need.h && a.need.w == b.need.w;
    };
    // What each consumer needs does not depend on the owner: once per chiplet with work.
    needs_.resize(n_);
    for (int c = 0; c < n_; ++c) {
        const WorkBox& b = boxes[c];
        if (!b.empty()) needs_[c] = input_need(L, b);
    }
    for (int o = 0; o < n_; ++o) {
        const bool spilled = spilled_by(group, o);
        for (std::size_t pi = 0; pi < owners[o].size(); ++pi) {
            const WorkBox& own = owners[o][pi].box;
            const std::vector<std::int64_t>& ready = ready_ops(group, o, pi);
            const Range own_h = scale(own.p, P.p, L.h), own_w = scale(own.q, P.q, L.w);
            // Per consumer, the part of this piece it needs (empty if none).
            parts_.clear();
            for (int c = 0; c < n_; ++c) {
                if (boxes[c].empty()) continue;
                const InputNeed& need = needs_[c];
                // Most consumers need nothing of a piece under a row or column split: leave
                // at the first dimension without overlap.
                InputNeed part;
                if ((part.n = intersect(own.n, need.n)).empty() || (part.c = intersect(own.k, need.c)).empty() ||
                    (part.h = intersect(own_h, need.h)).empty() || (part.w = intersect(own_w, need.w)).empty())
                    continue;
                parts_.push_back(Part{c, part, part.volume() * L.bytes_per_element});
                // In DRAM the piece lies n, k, p, q: the part starts at its first (n, k) plane.
                if (spilled)
                    parts_.back().offset = ((part.n.lo - own.n.lo) * own.k.size() + (part.c.lo - own.k.lo)) * own.p.size() *
                                           own.q.size() * P.bytes_per_element;
            }
            if (spilled) read_spilled(group, o, pi, same);
            else deliver(o, ready, deps, same);
        }
    }
}

/// The ops after which piece `pi` on owner `o` is ready, one per producer of the group.
const std::vector<std::int64_t>& InputDelivery::ready_ops(const std::vector<int>& group, int o, std::size_t pi) {
    ready_.clear();
    for (int p : group) ready_.push_back(owned_[p][o][pi].ready);
    return ready_;
}

/// When layouts do not line up element by element, an owner holding share g of the
/// producer's output sends a consumer needing share f of the operand f x g of its bytes.
void InputDelivery::send_proportional(const Layer& L, const IdVector<WorkBox>& boxes, const std::vector<int>& group,
                                      const Operand& op, ChipletDeps& deps) {
    const Layer& P = *shapes_[group.front()];
    const auto& owners = owned_[group.front()];
    const double total = static_cast<double>(output_volume(P));
    // Only consumers that need the whole operand are known to need the same bytes.
    auto same = [](const Part& a, const Part& b) { return a.whole && b.whole; };
    for (int o = 0; o < n_; ++o) {
        for (std::size_t pi = 0; pi < owners[o].size(); ++pi) {
            const double g = static_cast<double>(box_output_volume(owners[o][pi].box)) / total;
            const std::vector<std::int64_t>& ready = ready_ops(group, o, pi);
            parts_.clear();
            for (int c = 0; c < n_; ++c) {
                const WorkBox& b = boxes[c];
                if (b.empty()) continue;
                const double f = need_fraction(L, b, op);
                auto bytes = static_cast<std::int64_t>(std::llround(f * g * static_cast<double>(op.bytes)));
                if (bytes <= 0) continue;
                parts_.push_back(Part{c, InputNeed{}, bytes, f == 1.0});
            }
            if (spilled_by(group, o)) read_spilled(group, o, pi, same);  // no layout in common: each part from the piece's start
            else deliver(o, ready, deps, same);
        }
    }
}

/// Whether owner o wrote its slice of a producer of `group` to DRAM.
bool InputDelivery::spilled_by(const std::vector<int>& group, int o) const {
    for (int p : group)
        if (spill_.spilled(p, o)) return true;
    return false;
}

/// Groups the parts of one owned piece (parts_), the part of consumer `skip` left out, into
/// parts that `same` says are the same bytes, in the order of each group's first part; calls
/// send(first part, the group's consumers) once per group, a lone part included. `same` must
/// be an equivalence (it is: equal regions, or both the whole operand).
template <class Same, class Send>
void InputDelivery::for_each_same(int skip, Same same, Send send) {
    for (std::size_t i = 0; i < parts_.size(); ++i) {
        const Part& p = parts_[i];
        if (p.consumer == skip || p.sent) continue;
        dests_.assign(1, p.consumer);
        for (std::size_t j = i + 1; j < parts_.size(); ++j) {
            Part& q = parts_[j];
            if (q.consumer != skip && !q.sent && same(p, q)) {
                q.sent = true;
                dests_.push_back(q.consumer);
            }
        }
        send(p, dests_);
    }
}

/// The parts of piece `pi` of owner o (parts_) when a producer of `group` spilled it: the
/// consumers, o included, get them from DRAM instead of over the package; consumers whose
/// parts are the same bytes at the same place in the piece share one read (output_spill.h). A
/// tensor built from several producers (a residual sum, formed where it lies) is read from the
/// latest producer that spilled, after every producer's write (or ready op if it kept its
/// slice) on o.
template <class Same>
void InputDelivery::read_spilled(const std::vector<int>& group, int o, std::size_t pi, Same same) {
    int source = -1;
    std::vector<std::int64_t> wait;
    for (int p : group) {
        const std::int64_t write = spill_.write_of(p, o);
        if (write >= 0) source = std::max(source, p);
        wait.push_back(write >= 0 ? write : owned_[p][o][pi].ready);
    }
    // One read covers one byte range: the same bytes must also start at the same offset.
    auto same_range = [&](const Part& a, const Part& b) { return same(a, b) && a.bytes == b.bytes && a.offset == b.offset; };
    for_each_same(-1, same_range, [&](const Part& p, const std::vector<int>& readers) {
        spill_.read(source, o, pi, readers, p.bytes, p.offset, wait);
    });
}

/// The parts of one owned piece that consumers need (parts_), delivered from owner `o`: its
/// own part stays local; parts that `same` says are the same bytes for two or more other
/// consumers go by the layer's collective, the rest point to point.
template <class Same>
void InputDelivery::deliver(int o, const std::vector<std::int64_t>& ready, ChipletDeps& deps, Same same) {
    for (const Part& p : parts_)
        if (p.consumer == o) {
            auto& d = deps[o];
            d.insert(d.end(), ready.begin(), ready.end());
            info_->onchip_bytes += p.bytes;
        }
    if (collective_ == Collective::Direct) {
        for (const Part& p : parts_)
            if (p.consumer != o) batch_.transfer(o, p.consumer, p.bytes, ready);
        return;
    }
    for_each_same(o, same, [&](const Part& p, const std::vector<int>& dests) {
        if (dests.size() >= 2) {
            batch_.multicast(o, dests, p.bytes, ready);
            ++info_->multicasts;
            return;
        }
        ++direct_inputs_;
        batch_.transfer(o, p.consumer, p.bytes, ready);
    });
}

}  // namespace mcmsim
