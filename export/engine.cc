#include "export/engine.h"

#include "store/name_table.h"

namespace gentle::exporter {
namespace {

constexpr store::NameTable kEngineNames = store::MakeNameTable<Engine>({
    {Engine::kNative, "native"},
    {Engine::kGit, "git"},
});

}  // namespace

std::string_view EngineName(Engine engine) { return kEngineNames.Name(engine); }

std::optional<Engine> ParseEngine(std::string_view name) { return kEngineNames.Parse(name); }

}  // namespace gentle::exporter
