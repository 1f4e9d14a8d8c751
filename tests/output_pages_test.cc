// OutputPages (export/output_pages.h): the pages of a reserved patch buffer that an append is about
// to write are resident before it writes them, no page past them is made resident, and no byte
// changes. Residency is read with mincore(2).
#include "export/output_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace gentle::testing {
namespace {

const size_t kPage = static_cast<size_t>(sysconf(_SC_PAGESIZE));

// Whether each page holding bytes [from, to) of `s`'s buffer is resident.
std::vector<bool> Resident(const std::string& s, size_t from, size_t to) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(s.data() + from) & ~(kPage - 1);
  const uintptr_t last = reinterpret_cast<uintptr_t>(s.data() + to);
  std::vector<unsigned char> vec((last - first + kPage - 1) / kPage);
  REQUIRE(mincore(reinterpret_cast<void*>(first), last - first, vec.data()) == 0);
  std::vector<bool> resident;
  for (unsigned char v : vec) resident.push_back((v & 1) != 0);
  return resident;
}

size_t Count(const std::vector<bool>& pages) {
  size_t n = 0;
  for (bool p : pages) n += p ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("output pages: an append's pages are resident before it writes - none past them") {
  std::string out;
  out.reserve(size_t{4} << 20);  // a fresh mapping: none of its pages past the first is resident
  out.append("diff --git a/x b/x\n");
  const std::string head = out;
  REQUIRE(Count(Resident(out, 64 * kPage, 128 * kPage)) == 0);

  const size_t section = 40 * kPage + 123;
  exporter::AppendWillWrite(&out, out.size() + section);
  CHECK(out == head);  // no byte written, the size unchanged
  const std::vector<bool> written = Resident(out, out.size(), out.size() + section);
  CHECK(Count(written) == written.size());
  // Past the page holding the section's last byte, nothing is resident.
  const size_t after = out.size() + section;
  const size_t next_page =
      ((reinterpret_cast<uintptr_t>(out.data()) + after + kPage - 1) & ~(kPage - 1)) -
      reinterpret_cast<uintptr_t>(out.data());
  CHECK(Count(Resident(out, next_page, next_page + 16 * kPage)) == 0);

  // Beyond the capacity (the append reallocates): nothing is done.
  std::string small = "abc";
  exporter::AppendWillWrite(&small, small.capacity() + 1);
  CHECK(small == "abc");
}

TEST_CASE("output pages: a writer of unknown length maps at most one step ahead of its end") {
  std::string out;
  out.reserve(size_t{4} << 20);
  exporter::PagesAhead ahead(&out);
  std::string line(99, 'x');
  line += '\n';
  // Before the first append, the next kPagesAheadBytes are mapped (the page holding the buffer's
  // start is mapped already: it holds the allocation's header).
  ahead.BeforeAppend(line.size());
  const std::vector<bool> ahead_of_writes =
      Resident(out, kPage, exporter::kPagesAheadBytes - kPage);
  CHECK(Count(ahead_of_writes) == ahead_of_writes.size());
  for (int i = 0; i < 1000; ++i) {  // 100,000 bytes
    ahead.BeforeAppend(line.size());
    out.append(line);
  }
  const size_t mapped_end = out.size() + exporter::kPagesAheadBytes + kPage;
  const std::vector<bool> behind = Resident(out, 0, out.size());
  CHECK(Count(behind) == behind.size());
  CHECK(Count(Resident(out, mapped_end, mapped_end + 64 * kPage)) == 0);

  // A buffer not reserved ahead (grown as written) gets no pages mapped ahead of it.
  std::string grown(size_t{1} << 16, 'y');
  grown.reserve(grown.size() + (size_t{1} << 18));  // 256 KiB ahead: under kPagesAheadMinReserve
  exporter::PagesAhead none(&grown);
  none.BeforeAppend(kPage * 32);
  const size_t end = grown.size() + kPage;
  CHECK(Count(Resident(grown, end, end + 32 * kPage)) == 0);
}

}  // namespace gentle::testing
