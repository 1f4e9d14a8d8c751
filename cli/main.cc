// Entry point of the gentle-ai executable: hands argv to the command table and exits with its code.
#include "cli/app.h"

int main(int argc, char** argv) { return gentle::cli::Run(argc, argv); }
