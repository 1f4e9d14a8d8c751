#include "export/engine.h"

namespace gentle::exporter {
namespace {

struct EngineEntry {
  Engine engine;
  std::string_view name;
};

constexpr EngineEntry kEngineNames[] = {
    {Engine::kNative, "native"},
    {Engine::kGit, "git"},
};

}  // namespace

std::string_view EngineName(Engine engine) {
  for (const EngineEntry& entry : kEngineNames) {
    if (entry.engine == engine) return entry.name;
  }
  return "native";  // unreachable: every enumerator is in the table
}

std::optional<Engine> ParseEngine(std::string_view name) {
  for (const EngineEntry& entry : kEngineNames) {
    if (entry.name == name) return entry.engine;
  }
  return std::nullopt;
}

}  // namespace gentle::exporter
