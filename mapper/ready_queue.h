#pragma once
// The analytical model's list of ops ready to run: earliest ready time first, equal times in
// plan order. Pure C++.
#include <cstdint>
#include <cstring>
#include <vector>

namespace mcmsim {

/// A 4-ary min-heap of (time, dense index): half the levels of a binary heap, and a node's
/// children share a cache line. The order is total (indices are unique), so the sequence of
/// pops is that of any exact priority queue given the same pushes.
///
/// Times are never negative, and the bits of a non-negative double order like the double, so
/// an item is one integer key (time bits, then index) and comparing two is one compare.
class ReadyQueue {
public:
    struct Item {
        double t;
        std::uint32_t i;
    };

    /// Empties the queue, keeping its storage.
    void clear() { h_.clear(); }
    void reserve(std::size_t n) { h_.reserve(n); }
    bool empty() const { return h_.empty(); }
    /// Index of the item pop() would return next (the queue must not be empty).
    std::uint32_t next_index() const { return item(h_.front()).i; }

    void push(double t, std::uint32_t i) {
        const Key x = key(t, i);
        std::size_t k = h_.size();
        h_.push_back(x);
        while (k > 0) {
            const std::size_t up = (k - 1) / 4;
            if (!(x < h_[up])) break;
            h_[k] = h_[up];
            k = up;
        }
        h_[k] = x;
    }

    Item pop() {
        const Key top = h_.front();
        const Key x = h_.back();
        h_.pop_back();
        const std::size_t n = h_.size();
        if (n > 0) {
            std::size_t k = 0;
            for (;;) {
                const std::size_t first = 4 * k + 1;
                if (first >= n) break;
                std::size_t c = first;
                const std::size_t last = first + 4 < n ? first + 4 : n;
                for (std::size_t j = first + 1; j < last; ++j) c = h_[j] < h_[c] ? j : c;
                if (!(h_[c] < x)) break;
                h_[k] = h_[c];
                k = c;
            }
            h_[k] = x;
        }
        return item(top);
    }

private:
#ifdef __SIZEOF_INT128__
    using Key = unsigned __int128;
    static Key key(double t, std::uint32_t i) {
        std::uint64_t bits;
        std::memcpy(&bits, &t, sizeof bits);
        return (static_cast<Key>(bits) << 32) | i;
    }
    static Item item(Key k) {
        const auto bits = static_cast<std::uint64_t>(k >> 32);
        double t;
        std::memcpy(&t, &bits, sizeof t);
        return Item{t, static_cast<std::uint32_t>(k)};
    }
#else
    struct Key {
        double t;
        std::uint32_t i;
        bool operator<(const Key& o) const { return t < o.t || (t == o.t && i < o.i); }
    };
    static Key key(double t, std::uint32_t i) { return Key{t, i}; }
    static Item item(Key k) { return Item{k.t, k.i}; }
#endif
    std::vector<Key> h_;
};

}  // namespace mcmsim
