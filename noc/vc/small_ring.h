#pragma once
// A FIFO ring for the VC router's per-port queues of things on their way (credits going
// back upstream, flits still on the wire). Such a queue holds at most one entry per cycle of
// the link's delay, so with short links its first N entries, kept inline, are all it ever
// uses: they sit in the port's own cache line instead of a separate heap block. A longer
// link's queue moves to the heap, doubling whenever it is full.
#include <cstdint>
#include <memory>

namespace mcmsim {

template <class T, int N>
class SmallRing {
public:
    bool empty() const { return size_ == 0; }
    int size() const { return size_; }
    const T& front() const { return data()[head_]; }
    void pop_front() {
        if (++head_ == capacity_) head_ = 0;
        --size_;
    }
    void push_back(const T& v) {
        if (size_ == capacity_) grow();
        int slot = head_ + size_;
        if (slot >= capacity_) slot -= capacity_;
        data()[slot] = v;
        ++size_;
    }
    void clear() { head_ = size_ = 0; }

private:
    // Tests the capacity, not heap_: heap_ may lie on the next (cold) cache line.
    T* data() { return capacity_ > N ? heap_.get() : inline_; }
    const T* data() const { return capacity_ > N ? heap_.get() : inline_; }
    void grow() {  // oldest first into a block twice the size
        auto bigger = std::make_unique<T[]>(static_cast<std::size_t>(2 * capacity_));
        for (int k = 0; k < size_; ++k) bigger[static_cast<std::size_t>(k)] = data()[(head_ + k) % capacity_];
        heap_ = std::move(bigger);
        capacity_ *= 2;
        head_ = 0;
    }

    std::int32_t head_ = 0, size_ = 0, capacity_ = N;
    T inline_[N] = {};
    std::unique_ptr<T[]> heap_;
};

}  // namespace mcmsim
