// BinaryPatchUsesGitCli: whether the linked AppendBinaryPatch hands sections to the git CLI.
//
// DerivePatch reports derivation.engine "native+git-binary-delta" when it wrote at least one binary
// section and this returns true. patch_engine.cc defines it weak, returning false (fully native
// binary writer); an implementation that delegates to git (the temporary binary_patch_stub.cc)
// defines it returning true.
#ifndef GENTLE_EXPORT_BINARY_PATCH_FALLBACK_H_
#define GENTLE_EXPORT_BINARY_PATCH_FALLBACK_H_

namespace gentle::exporter {

bool BinaryPatchUsesGitCli();

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BINARY_PATCH_FALLBACK_H_
