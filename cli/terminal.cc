#include "cli/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <optional>

#include "store/review_state.h"
#include "transaction/list.h"

namespace gentle::cli {
namespace {

bool SetAndNotEmpty(const char* value) { return value != nullptr && value[0] != '\0'; }

std::string_view Sgr(Tone tone) {
  switch (tone) {
    case Tone::kRed:
      return "\033[31m";
    case Tone::kGreen:
      return "\033[32m";
    case Tone::kYellow:
      return "\033[33m";
    case Tone::kDim:
      return "\033[2m";
    case Tone::kPlain:
      break;
  }
  return "";
}

}  // namespace

bool CapableTerminal(int fd) {
  if (isatty(fd) != 1) return false;
  const char* term = std::getenv("TERM");
  return SetAndNotEmpty(term) && std::strcmp(term, "dumb") != 0;
}

bool ColourWanted(int fd, bool json) {
  return !json && !SetAndNotEmpty(std::getenv("NO_COLOR")) && CapableTerminal(fd);
}

std::string Paint(std::string_view text, Tone tone, bool colour) {
  const std::string_view sgr = Sgr(tone);
  if (!colour || sgr.empty()) return std::string(text);
  std::string out;
  out.reserve(sgr.size() + text.size() + 4);
  out.append(sgr).append(text).append("\033[0m");
  return out;
}

Tone StateTone(const store::StateName& state) {
  if (const std::optional<store::ReviewState> review = state.state()) {
    switch (*review) {
      case store::ReviewState::kApproved:
        return Tone::kGreen;
      case store::ReviewState::kCorrectionRequired:
      case store::ReviewState::kEscalated:
      case store::ReviewState::kDecisionRequired:
        return Tone::kYellow;
      case store::ReviewState::kInvalidated:
        return Tone::kRed;
      case store::ReviewState::kReviewing:
        return Tone::kPlain;
    }
  }
  return state.terminal() ? Tone::kDim : Tone::kPlain;
}

Tone ListTone(const transaction::LineageSummary& entry) {
  switch (entry.standing) {
    case transaction::ListState::kLive:
      return StateTone(entry.state);
    case transaction::ListState::kIncomplete:
      return Tone::kYellow;
    case transaction::ListState::kConsumed:
    case transaction::ListState::kRetired:
      return Tone::kDim;
  }
  return Tone::kPlain;
}

}  // namespace gentle::cli
