// review show.
#include <cstdio>
#include <utility>

#include "cli/output_file.h"
#include "cli/pager.h"
#include "cli/render.h"
#include "cli/round_flag.h"
#include "cli/terminal.h"
#include "cli/verb.h"
#include "export/review_show.h"
#include "export/show_html.h"
#include "export/show_json.h"
#include "export/show_text.h"

namespace gentle::cli {
namespace {

// review show: a lineage's timeline and a round's diff for people (docs/show.md): text in git's
// style (coloured and paged on a terminal), --json gentle-ai.review-show/v1, or --html one page.
struct ShowOptions {
  std::string lineage;
  std::optional<std::string> round;  // checked as a decimal >= 1
  std::string color = "auto";        // auto | always | never
  bool html = false;
  std::string output;           // --html: write to FILE (atomically); empty: stdout
  std::string allowed_signers;  // check verdict signatures against git's allowed signers FILE
  std::string round_text;       // as parsed
};

// --color: always and never decide; auto colours a capable terminal unless NO_COLOR is set.
Result<bool> WantsColour(const std::string& color) {
  if (color == "always") return true;
  if (color == "never") return false;
  if (color == "auto") return ColourWanted(1, false);
  return Status(Code::kUsage, "--color must be auto, always or never, got \"" + color + "\"");
}

// The flags that only some forms take.
Status CheckForm(const CommonOptions& common, const ShowOptions& o) {
  if (o.html && common.json) return Status(Code::kUsage, "--html and --json exclude each other");
  if (!o.output.empty() && !o.html) return Status(Code::kUsage, "--output needs --html");
  if (o.html && o.round) return Status(Code::kUsage, "--html shows every round; drop --round");
  return Status::Ok();
}

int Html(const exporter::ShowView& view, const ShowOptions& o, bool json) {
  auto page = exporter::RenderShowHtml(view);
  if (!page.ok()) return ReportError(page.status(), json);
  if (o.output.empty()) {
    std::fwrite(page->data(), 1, page->size(), stdout);
    std::fflush(stdout);
    return 0;
  }
  if (Status st = WriteOutputFile(o.output, *page); !st.ok()) return ReportError(st, json);
  return 0;
}

int RunShow(const CommonOptions& common, const ShowOptions& o) {
  if (Status st = CheckForm(common, o); !st.ok()) return ReportError(st, common.json);
  auto round = ParseRoundFlag("--round", o.round);
  if (!round.ok()) return ReportError(round.status(), common.json);
  auto colour = WantsColour(o.color);
  if (!colour.ok()) return ReportError(colour.status(), common.json);
  exporter::ShowRequest request;
  request.cwd = common.cwd;
  request.lineage = o.lineage;
  request.round = *round;
  request.derive_all = o.html || common.json;
  request.interdiffs = o.html;
  request.keep_patches = !common.json;  // --json shows digests and sizes only
  request.allowed_signers = o.allowed_signers;
  auto view = exporter::ReadShowView(request);
  if (!view.ok()) return ReportError(view.status(), common.json);
  if (common.json) return PrintJson(exporter::RenderShowJson(*view));
  if (o.html) return Html(*view, o, common.json);
  WritePaged(exporter::RenderShowText(*view, *colour), common.cwd);
  return 0;
}

}  // namespace

void DefineShow(CLI::App* review, const Verb& verb, Invocation* in) {
  ShowOptions* o = in->Hold<ShowOptions>();
  Command show = AddCommand(review, verb, in);
  show.AddOption("--lineage", &o->lineage, "The lineage").Required();
  show.AddOption("--round", &o->round_text,
                 "The round (record generation) whose diff to show (default: the newest)");
  show.AddOption("--color", &o->color,
                 "auto (default: on a terminal, unless NO_COLOR is set), always or never");
  show.AddFlag("--html", &o->html,
               "One HTML page: timeline, every round's diff (unified and side by side), "
               "interdiffs, verdict bodies from Markdown, signatures and digests");
  show.AddOption("--output", &o->output,
                 "--html: write the page to FILE (a regular file or a new path; atomically)")
      .TypeName("FILE");
  show.AddOption("--allowed-signers", &o->allowed_signers,
                 "Check verdict signatures against git's allowed signers FILE, a path or "
                 "REF:PATH as for verify (default: report signed or unsigned only)")
      .TypeName("FILE");
  show.OnParsed([in, o, show] {
    if (Given(show, "--round")) o->round = o->round_text;
    in->Choose([in, o] { return RunShow(in->common, *o); });
  });
}

}  // namespace gentle::cli
