#include "store/lineage_id.h"

#include <catch2/catch.hpp>

namespace gentle::store {

TEST_CASE("valid lineage ids") {
  CHECK(IsValidLineageId("review-c7db8803375f1655"));
  CHECK(IsValidLineageId("a"));
  CHECK(IsValidLineageId("a-b-c9"));
  CHECK(IsValidLineageId(std::string(128, 'x')));
}

TEST_CASE("hostile or malformed lineage ids are refused as usage") {
  for (std::string bad :
       {std::string(""), std::string("a/b"), std::string(".."), std::string("../x"),
        std::string("Review-1"), std::string("a--b"), std::string("-a"), std::string("a-"),
        std::string("/etc/passwd"), std::string("a b"), std::string("a\0b", 3), std::string("a.b"),
        std::string(129, 'x')}) {
    INFO("id: " << bad);
    CHECK_FALSE(IsValidLineageId(bad));
    Status st = ValidateLineageId(bad);
    CHECK(st.code() == Code::kUsage);
  }
}

}  // namespace gentle::store
