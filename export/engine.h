// Engine: which patch engine derives an export, one enum with one name table. The names are the
// values of `--engine` and of the envelope's derivation.engine (docs/engine.md): "native", the
// in-process engine (export/patch_engine.h), and "git", the pinned git CLI
// (export/oracle_runner.h). Code compares engines as enum values; the names are only for input and
// output.
#ifndef GENTLE_EXPORT_ENGINE_H_
#define GENTLE_EXPORT_ENGINE_H_

#include <optional>
#include <string_view>

namespace gentle::exporter {

enum class Engine { kNative, kGit };

std::string_view EngineName(Engine engine);
// The engine named `name`, or nothing for a name this build does not know.
std::optional<Engine> ParseEngine(std::string_view name);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ENGINE_H_
