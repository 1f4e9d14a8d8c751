#include "export/signer_persons.h"

#include <algorithm>
#include <deque>
#include <limits>

#include "export/allowed_signers.h"

namespace gentle::exporter {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool IsAddress(const std::string& text) {
  const size_t at = text.find('@');
  return at != std::string::npos && at != 0 && at + 1 != text.size() &&
         text.find_first_of("<>\" \t") == std::string::npos;
}

}  // namespace

SignerPersons::SignerPersons(std::string_view allowed_signers) {
  for (const SignerEntry& entry : SignerEntries(allowed_signers)) {
    const size_t label = LabelOf("line " + std::to_string(entry.line));
    const size_t key = NodeOf(true, entry.public_key);
    for (const std::string& principal : entry.principals) {
      Link(key, NodeOf(false, principal), label);
    }
    for (const std::string& email : entry.comment_emails) Link(key, NodeOf(false, email), label);
  }
}

size_t SignerPersons::LabelOf(const std::string& why) {
  const auto it = label_index_.find(why);
  if (it != label_index_.end()) return it->second;
  labels_.push_back(why);
  label_index_.emplace(why, labels_.size() - 1);
  return labels_.size() - 1;
}

size_t SignerPersons::NodeOf(bool key, std::string_view text) {
  const std::string id = key ? "k:" + std::string(text) : "p:" + Lower(text);
  const auto it = index_.find(id);
  if (it != index_.end()) return it->second;
  nodes_.push_back(Node{std::string(text), key});
  index_.emplace(id, nodes_.size() - 1);
  edges_.emplace_back();
  parent_.push_back(parent_.size());
  return nodes_.size() - 1;
}

size_t SignerPersons::Root(size_t node) const {
  while (parent_[node] != node) {
    parent_[node] = parent_[parent_[node]];
    node = parent_[node];
  }
  return node;
}

void SignerPersons::Link(size_t a, size_t b, size_t label) {
  edges_[a].push_back(Edge{b, label});
  edges_[b].push_back(Edge{a, label});
  const size_t ra = Root(a), rb = Root(b);
  if (ra == rb) return;
  parent_[std::max(ra, rb)] = std::min(ra, rb);  // the earlier node stays root
  names_.clear();
}

void SignerPersons::Join(std::string_view public_key, std::string_view principal,
                         const std::string& why) {
  Link(NodeOf(true, public_key), NodeOf(false, principal), LabelOf(why));
}

size_t SignerPersons::PersonOf(std::string_view public_key, std::string_view principal) {
  const size_t key = NodeOf(true, public_key);
  const size_t name = NodeOf(false, principal);
  // A signature verified as `principal` with `public_key` shows they are one signer.
  if (Root(key) != Root(name)) Link(key, name, LabelOf("signature"));
  return Root(key);
}

std::string SignerPersons::Name(size_t person) const {
  if (names_.empty()) {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (!nodes_[i].key) names_.emplace(Root(i), nodes_[i].text);  // the first one stays
    }
  }
  const auto it = names_.find(Root(person));
  return it == names_.end() ? "" : it->second;
}

std::vector<std::string> SignerPersons::Addresses(size_t person) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].key || Root(i) != Root(person)) continue;
    const std::string address = Lower(nodes_[i].text);
    if (IsAddress(address) && std::find(out.begin(), out.end(), address) == out.end()) {
      out.push_back(address);
    }
  }
  return out;
}

std::vector<std::string> SignerPersons::Why(std::string_view principal_a,
                                            std::string_view principal_b) {
  const size_t from = NodeOf(false, principal_a);
  const size_t to = NodeOf(false, principal_b);
  if (from == to) {
    if (principal_a == principal_b) return {};
    return {"principals equal ignoring case"};
  }
  constexpr size_t kNone = std::numeric_limits<size_t>::max();
  std::vector<size_t> via_node(nodes_.size(), kNone), via_label(nodes_.size(), kNone);
  std::deque<size_t> queue = {from};
  via_node[from] = from;
  while (!queue.empty() && via_node[to] == kNone) {
    const size_t at = queue.front();
    queue.pop_front();
    for (const Edge& edge : edges_[at]) {
      if (via_node[edge.to] != kNone) continue;
      via_node[edge.to] = at;
      via_label[edge.to] = edge.label;
      queue.push_back(edge.to);
    }
  }
  std::vector<std::string> out;
  if (via_node[to] == kNone) return out;
  for (size_t at = to; at != from; at = via_node[at]) {
    const std::string& label = labels_[via_label[at]];
    if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace gentle::exporter
