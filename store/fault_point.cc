#include "store/fault_point.h"

#ifdef GENTLE_FAULT_POINTS
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace gentle::store {

void FaultPoint(std::string_view name) {
  if (const char* trace = std::getenv("GENTLE_FAULT_TRACE"); trace && *trace) {
    int fd = open(trace, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
      std::string line(name);
      line.push_back('\n');
      [[maybe_unused]] ssize_t n = write(fd, line.data(), line.size());
      close(fd);
    }
  }
  if (const char* target = std::getenv("GENTLE_FAULT_POINT"); target && name == target) {
    _exit(kFaultExitCode);
  }
}

}  // namespace gentle::store
#endif
