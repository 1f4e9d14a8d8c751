// The main of link-only check executables (export/CMakeLists.txt): never run; the link is the
// check.
int main() { return 0; }
