#pragma once
// A vector whose elements are named by int ids: chiplets, memories, layers, plan steps, the
// options of a search space. Ids are int wherever they are stored (the plan format,
// ChipletGroup, PlanOp::chiplet) while std::vector indexes by size_t; IdVector takes the int,
// so the conversion is written once, here, and checks it when NDEBUG is not defined. It
// takes nothing but an int: an index of another type (a size_t counter, a 64-bit byte count)
// does not compile, so ids and sizes do not mix silently. Its size is an int as well. The
// rest is std::vector's, with no cost of its own. Pure C++.
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mcmsim {

template <class T>
class IdVector {
    using Storage = std::vector<T>;

public:
    using value_type = T;
    using reference = typename Storage::reference;
    using const_reference = typename Storage::const_reference;
    using iterator = typename Storage::iterator;
    using const_iterator = typename Storage::const_iterator;

    IdVector() = default;
    /// `n` value-initialised elements, ids 0 .. n - 1.
    explicit IdVector(int n) : v_(count(n)) {}
    IdVector(int n, const T& value) : v_(count(n), value) {}
    IdVector(std::initializer_list<T> values) : v_(values) {}
    /// Takes over a vector whose positions are the ids (a partition's boxes, one per chiplet,
    /// a list of choices read from a file).
    IdVector(Storage values) : v_(std::move(values)) {}

    reference operator[](int id) {
        assert(contains(id));
        return v_[static_cast<std::size_t>(id)];
    }
    const_reference operator[](int id) const {
        assert(contains(id));
        return v_[static_cast<std::size_t>(id)];
    }
    /// Only ids: an index of any other type picks these, which do not exist.
    template <class I>
    void operator[](I) = delete;
    template <class I>
    void operator[](I) const = delete;
    /// operator[], checked in every build: throws std::out_of_range for an id without an element.
    reference at(int id) {
        if (!contains(id)) throw std::out_of_range("IdVector: no element with this id");
        return v_[static_cast<std::size_t>(id)];
    }
    const_reference at(int id) const {
        if (!contains(id)) throw std::out_of_range("IdVector: no element with this id");
        return v_[static_cast<std::size_t>(id)];
    }
    bool contains(int id) const { return id >= 0 && static_cast<std::size_t>(id) < v_.size(); }

    int size() const { return static_cast<int>(v_.size()); }
    bool empty() const { return v_.empty(); }
    void assign(int n, const T& value) { v_.assign(count(n), value); }
    /// The elements of [first, last); (only iterators: assign(n, {}) is n empty elements).
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    void assign(It first, It last) {
        v_.assign(first, last);
    }
    void resize(int n) { v_.resize(count(n)); }
    void resize(int n, const T& value) { v_.resize(count(n), value); }
    void reserve(int n) { v_.reserve(count(n)); }
    void clear() { v_.clear(); }
    void push_back(const T& value) { v_.push_back(value); }
    void push_back(T&& value) { v_.push_back(std::move(value)); }
    template <class... Args>
    reference emplace_back(Args&&... args) {
        return v_.emplace_back(std::forward<Args>(args)...);
    }

    reference front() { return v_.front(); }
    const_reference front() const { return v_.front(); }
    reference back() { return v_.back(); }
    const_reference back() const { return v_.back(); }
    T* data() { return v_.data(); }
    const T* data() const { return v_.data(); }
    iterator begin() { return v_.begin(); }
    iterator end() { return v_.end(); }
    const_iterator begin() const { return v_.begin(); }
    const_iterator end() const { return v_.end(); }

    /// The elements as a std::vector, for an interface or algorithm that takes one.
    Storage& vector() { return v_; }
    const Storage& vector() const { return v_; }

    bool operator==(const IdVector& o) const { return v_ == o.v_; }
    bool operator!=(const IdVector& o) const { return v_ != o.v_; }

private:
    static std::size_t count(int n) {
        assert(n >= 0);
        return static_cast<std::size_t>(n);
    }

    Storage v_;
};

}  // namespace mcmsim
