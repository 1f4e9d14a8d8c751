// StoreLayout: every path of the on-disk layout (docs/format.md), derived from the git common
// dir. Lineage-specific paths are only built from ids that passed ValidateLineageId.
#ifndef GENTLE_STORE_LAYOUT_H_
#define GENTLE_STORE_LAYOUT_H_

#include <string>

namespace gentle::store {

class StoreLayout {
 public:
  explicit StoreLayout(std::string common_dir) : common_dir_(std::move(common_dir)) {}

  const std::string& common_dir() const { return common_dir_; }
  std::string gentle_dir() const { return common_dir_ + "/gentle-ai"; }
  std::string maintenance_lock() const { return gentle_dir() + "/REVIEW-MAINTENANCE.lock"; }
  std::string root() const { return gentle_dir() + "/review-transactions"; }
  std::string v2_dir() const { return root() + "/v2"; }
  std::string v2_lock() const { return v2_dir() + "/LOCK"; }
  std::string lineage_dir(const std::string& lineage) const { return v2_dir() + "/" + lineage; }
  std::string record_path(const std::string& lineage) const {
    return lineage_dir(lineage) + "/review-state.json";
  }
  // Where an import builds a new lineage directory before renaming it into place (a `.atomic-`
  // name: the scan calls it an interrupted write; recovery removes it).
  std::string staged_lineage_dir(const std::string& lineage) const {
    return v2_dir() + "/.atomic-import-" + lineage;
  }
  std::string tombstone_dir() const { return root() + "/terminal-consumption/v1"; }
  std::string quarantine_dir() const { return root() + "/quarantine"; }
  std::string batch_marker() const { return root() + "/batch-reconcile-journal.json"; }
  std::string index_path() const { return root() + "/index.sqlite"; }
  // The history ref that keeps a live lineage's trees reachable.
  static std::string HistoryRef(const std::string& lineage) {
    return "refs/gentle-ai/reviews/" + lineage;
  }

 private:
  std::string common_dir_;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_LAYOUT_H_
