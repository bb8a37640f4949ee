#pragma once
// The analytical model's list of ops ready to run: earliest ready time first, equal times in
// order of a sequence number the caller gives (0 by default), then in plan order. Pure C++.
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace mcmsim {

/// A binary min-heap of (time, dense index). The order is total (indices are unique), so the
/// sequence of pops is that of any exact priority queue given the same pushes. The queue is
/// short (a ResNet-50 estimate: ~40 items on average, ~110 at most: a few cache lines), so
/// what costs is comparisons: a pop moves the hole down to a leaf at one comparison a level
/// and lifts the last item from there (it belongs near the bottom), about half the comparisons
/// of sifting it down from the top (two a level) or of a 4-ary heap (four a level).
/// An item smaller than everything queued (often the op that an op just finished released)
/// waits beside the heap, in `first_`, and costs no comparisons until something smaller comes.
///
/// Times are never negative, and the bits of a non-negative double order like the double, so
/// an item is one integer key (time bits, then sequence number, then index) and comparing two
/// is one compare.
class ReadyQueue {
public:
    struct Item {
        double t;
        std::uint32_t i;
    };

    /// Empties the queue, keeping its storage.
    void clear() {
        h_.clear();
        has_first_ = false;
    }
    void reserve(std::size_t n) { h_.reserve(n); }
    bool empty() const { return !has_first_ && h_.empty(); }
    /// Index of the item pop() would return next (the queue must not be empty).
    std::uint32_t next_index() const { return item(has_first_ ? first_ : h_.front()).i; }

    /// Queues item `i` at `t`. Among items of equal time, those with the smaller `seq` come
    /// first, then the smaller index: the packet schedule numbers its group events in the
    /// order it pushes them, so that groups due at a link at the same time are served in
    /// the order they were sent on from the link before, as the simulator's routers do
    /// (their agendas are first in, first out among equal times).
    void push(double t, std::uint32_t i, std::uint32_t seq = 0) {
        Key x = key(t, i, seq);
        if (!has_first_) {
            if (h_.empty() || x < h_.front()) {
                first_ = x;
                has_first_ = true;
                return;
            }
        } else if (x < first_) {
            std::swap(x, first_);
        }
        h_.push_back(x);
        lift(h_.size() - 1);
    }

    Item pop() {
        if (has_first_) {
            has_first_ = false;
            return item(first_);
        }
        const Key top = h_.front();
        const Key x = h_.back();
        h_.pop_back();
        const std::size_t n = h_.size();
        if (n > 0) {
            Key* h = h_.data();
            std::size_t k = 0;
            for (std::size_t c = 1; c < n; c = 2 * k + 1) {
                if (c + 1 < n && h[c + 1] < h[c]) ++c;
                h[k] = h[c];
                k = c;
            }
            h[k] = x;
            lift(k);
        }
        return item(top);
    }

private:
#ifdef __SIZEOF_INT128__
    using Key = unsigned __int128;
    static Key key(double t, std::uint32_t i, std::uint32_t seq) {
        std::uint64_t bits;
        std::memcpy(&bits, &t, sizeof bits);
        return (static_cast<Key>(bits) << 64) | (static_cast<Key>(seq) << 32) | i;
    }
    static Item item(Key k) {
        const auto bits = static_cast<std::uint64_t>(k >> 64);
        double t;
        std::memcpy(&t, &bits, sizeof t);
        return Item{t, static_cast<std::uint32_t>(k)};
    }
#else
    struct Key {
        double t;
        std::uint32_t seq, i;
        bool operator<(const Key& o) const { return t < o.t || (t == o.t && (seq < o.seq || (seq == o.seq && i < o.i))); }
    };
    static Key key(double t, std::uint32_t i, std::uint32_t seq) { return Key{t, seq, i}; }
    static Item item(Key k) { return Item{k.t, k.i}; }
#endif
    /// Moves the item at `k` up to where its parent is smaller.
    void lift(std::size_t k) {
        Key* h = h_.data();
        const Key x = h[k];
        while (k > 0) {
            const std::size_t up = (k - 1) / 2;
            if (!(x < h[up])) break;
            h[k] = h[up];
            k = up;
        }
        h[k] = x;
    }

    std::vector<Key> h_;
    Key first_{};  ///< smaller than every item in h_, when has_first_
    bool has_first_ = false;
};

}  // namespace mcmsim
