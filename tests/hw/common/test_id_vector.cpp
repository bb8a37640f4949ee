#include "hw/common/id_vector.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

using namespace mcmsim;

namespace test_id_vector {

/// Whether `V` can be indexed with a value of type `I`.
template <class V, class I, class = void>
struct Indexable : std::false_type {};
template <class V, class I>
struct Indexable<V, I, std::void_t<decltype(std::declval<V&>()[std::declval<I>()])>> : std::true_type {};

TEST(IdVector, TakesIntIdsOnly) {
    static_assert(Indexable<IdVector<int>, int>::value);
    static_assert(Indexable<const IdVector<int>, int>::value);
    static_assert(!Indexable<IdVector<int>, std::size_t>::value, "a size_t is not an id");
    static_assert(!Indexable<const IdVector<int>, std::int64_t>::value, "nor is a 64-bit count");
    static_assert(std::is_same_v<decltype(IdVector<int>{}.size()), int>);
}

TEST(IdVector, ElementsAreNamedByTheirId) {
    IdVector<std::int64_t> last(4, -1);
    EXPECT_EQ(last.size(), 4);
    last[2] = 7;
    last[3] = 9;
    const IdVector<std::int64_t>& view = last;
    EXPECT_EQ(view[0], -1);
    EXPECT_EQ(view[2], 7);
    EXPECT_EQ(view[3], 9);
    EXPECT_EQ(last.vector(), (std::vector<std::int64_t>{-1, -1, 7, 9}));
    last.assign(2, 0);
    EXPECT_EQ(last, (IdVector<std::int64_t>{0, 0}));
}

TEST(IdVector, TakesOverAVectorInItsOrder) {
    IdVector<int> home(std::vector<int>{3, 1, 2});
    EXPECT_EQ(home.size(), 3);
    EXPECT_EQ(home[0], 3);
    EXPECT_EQ(home[1], 1);
    EXPECT_EQ(home[2], 2);
    int sum = 0;
    for (int m : home) sum += m;
    EXPECT_EQ(sum, 6);
    IdVector<double> columns = std::vector<double>{0.5, 1.5};  // as a solver's or a reader's list
    EXPECT_EQ(columns.size(), 2);
    EXPECT_EQ(columns.data()[1], 1.5);
    EXPECT_EQ(columns, (std::vector<double>{0.5, 1.5}));
}

TEST(IdVector, AtRejectsIdsWithoutAnElement) {
    IdVector<int> v(3, 5);
    EXPECT_TRUE(v.contains(0));
    EXPECT_TRUE(v.contains(2));
    EXPECT_FALSE(v.contains(3));
    EXPECT_FALSE(v.contains(-1));
    EXPECT_EQ(v.at(2), 5);
    EXPECT_THROW(v.at(3), std::out_of_range);
    EXPECT_THROW(v.at(-1), std::out_of_range);
    const IdVector<int>& c = v;
    EXPECT_THROW(c.at(3), std::out_of_range);
}

TEST(IdVector, NestsPerStepAndChiplet) {
    IdVector<IdVector<std::int64_t>> compute(2, IdVector<std::int64_t>(3, -1));
    compute[1][2] = 42;
    EXPECT_EQ(compute[0][2], -1);
    EXPECT_EQ(compute[1][2], 42);
    IdVector<bool> done(3, false);  // std::vector<bool> underneath: proxies work
    done[1] = true;
    EXPECT_FALSE(done[0]);
    EXPECT_TRUE(done[1]);
    IdVector<std::vector<int>> groups(2);
    groups[1].push_back(4);
    groups.emplace_back(std::vector<int>{5});
    EXPECT_EQ(groups.size(), 3);
    EXPECT_EQ(groups.back().front(), 5);
    groups.assign(2, {});  // two empty lists, not a range
    EXPECT_EQ(groups.size(), 2);
    EXPECT_TRUE(groups[0].empty() && groups[1].empty());
    const std::vector<int> order{2, 0, 1};
    IdVector<int> copy;
    copy.assign(order.begin(), order.end());
    EXPECT_EQ(copy.vector(), order);
}

#ifndef NDEBUG
TEST(IdVectorDeathTest, IndexingChecksTheIdInDebugBuilds) {
    IdVector<int> v(2, 0);
    EXPECT_DEATH(static_cast<void>(v[2]), "");
    EXPECT_DEATH(static_cast<void>(v[-1]), "");
}
#endif

}  // namespace test_id_vector
