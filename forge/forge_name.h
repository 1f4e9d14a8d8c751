// The forges a ReviewContext comes from (docs/context.md), in the forge layer's words: the one
// enum and name table are store::Forge (store/forge_name.h); this adds the list of names the
// messages and help of `review context import --forge` print. The name is what `--forge` takes
// and what the context's `forge` member holds.
#ifndef GENTLE_FORGE_FORGE_NAME_H_
#define GENTLE_FORGE_FORGE_NAME_H_

#include <string>

#include "store/forge_name.h"

namespace gentle::forge {

using Forge = store::Forge;
using store::ForgeName;   // "github" | "gitea" | "aone"
using store::ParseForge;  // the forge named exactly `name`; nothing for any other text

// The names in the order the importers were added, for messages and help: "github, aone or
// gitea".
std::string ForgeNameList();

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_FORGE_NAME_H_
