// BuildGoStore: a compact-v2 store as the Go gentle-ai writes it (fixtures/gostore/README.md),
// built in a LifecycleRepo from real trees: no index.sqlite, no history refs, files 0644. Fails the
// running Catch test when a git step fails.
#ifndef GENTLE_TESTS_SUPPORT_GO_STORE_H_
#define GENTLE_TESTS_SUPPORT_GO_STORE_H_

#include <string>

#include "tests/support/lifecycle_repo.h"

namespace gentle::testing {

struct GoStore {
  std::string live;      // reviewing, many extra state fields, reviewer-results/
  std::string approved;  // approved, with gentle-ai's plain approved_ack_token
  std::string approved_token;
  std::string historical;  // carries a retired field: read_only
  std::string burned;      // tombstone only
  std::string tombstone;   // its file
  std::string abandoned;   // committed quarantine entry
  std::string abandoned_audit;
  std::string interrupted;  // quarantine entry still `prepared`, residue in place
  std::string interrupted_audit;
};
GoStore BuildGoStore(LifecycleRepo& repo);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_GO_STORE_H_
