// Persons: who stands behind the keys and principals of an allowed signers file, for counting
// reviewers (docs/ci.md, "One person, one approval"; export/approval_policy.h).
//
// A person is a connected group over the file: a line joins its principals, its key and the
// addresses among its comment words (export/allowed_signers.h SignerEntries; cert-authority lines
// too); lines that share a key or a principal are joined through it. Principals and addresses are
// compared ASCII case-insensitively (folding more can only count fewer). So `ana@example.com,
// ana@corp.com KEY` is one person, and so are two lines giving one address two keys. A signature
// that verified (Join) is evidence too: its key signs as its principal, whatever this reader made
// of the file's lines.
//
// Principals are taken as written: a pattern (`*@example.com`) is one principal like any other
// (an approval counts only when its signer is exactly its actor, so a pattern never counts).
#ifndef GENTLE_EXPORT_SIGNER_PERSONS_H_
#define GENTLE_EXPORT_SIGNER_PERSONS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gentle::exporter {

class SignerPersons {
 public:
  explicit SignerPersons(std::string_view allowed_signers);

  // Joins `public_key` (wire-format blob) and `principal`; `why` labels the link
  // ("commit <id>"). PersonOf joins them too, labelled "signature".
  void Join(std::string_view public_key, std::string_view principal, const std::string& why);

  // The person of a signer: an id, equal for two signers exactly when they are one person.
  size_t PersonOf(std::string_view public_key, std::string_view principal);

  // A name for the person: its first principal in file order (else the first one joined).
  std::string Name(size_t person) const;

  // Every address the person is known by, lowercased: principals that are addresses
  // (`local@domain`) and comment addresses.
  std::vector<std::string> Addresses(size_t person) const;

  // Why two principals are one person: the labels of the links on a shortest path between them
  // ("line 3", "signature", "commit <id>"), each once, in path order; {"principals equal ignoring
  // case"} for two spellings of one principal; empty for the same principal or two persons.
  std::vector<std::string> Why(std::string_view principal_a, std::string_view principal_b);

 private:
  struct Node {
    std::string text;  // the principal or address as first written; the key's blob
    bool key = false;
  };
  struct Edge {
    size_t to;
    size_t label;  // index into labels_
  };
  size_t NodeOf(bool key, std::string_view text);
  void Link(size_t a, size_t b, size_t label);
  size_t Root(size_t node) const;
  size_t LabelOf(const std::string& why);

  std::vector<Node> nodes_;
  std::unordered_map<std::string, size_t> index_;  // "k:" blob or "p:" lowercased text
  std::unordered_map<std::string, size_t> label_index_;
  std::vector<std::vector<Edge>> edges_;
  mutable std::vector<size_t> parent_;
  std::vector<std::string> labels_;
  mutable std::unordered_map<size_t, std::string> names_;  // root -> Name; cleared by a union
};

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_SIGNER_PERSONS_H_
