#include "cli/command_doc.h"

#include <CLI/CLI.hpp>
#include <cctype>

#include "cli/app.h"

namespace gentle::cli {
namespace {

// CLI11's own type names say nothing a reader needs ("TEXT" for every string).
bool IsGenericTypeName(const std::string& name) {
  return name.empty() || name == "TEXT" || name == "INT" || name == "UINT" || name == "FLOAT" ||
         name == "BOOLEAN";
}

// "--expected-revision" -> "EXPECTED_REVISION".
std::string ValueNameFromOption(const std::string& long_name) {
  std::string out;
  for (char c : long_name) {
    if (c == '-') {
      if (!out.empty()) out += '_';
    } else {
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

OptionDoc DescribeOption(const CLI::Option& option) {
  OptionDoc doc;
  doc.description = option.get_description();
  doc.required = option.get_required();
  doc.positional = !option.nonpositional();
  if (doc.positional) {
    doc.name = option.get_name(true, false);
  } else {
    doc.name = option.get_lnames().empty() ? "-" + option.get_snames().front()
                                           : "--" + option.get_lnames().front();
    if (!option.get_lnames().empty() && !option.get_snames().empty()) {
      doc.short_name = "-" + option.get_snames().front();
    }
  }
  const bool takes_value = doc.positional || option.get_expected_min() > 0;
  if (!takes_value) return doc;
  doc.repeatable = option.get_items_expected_max() > 1;
  // A vector option's type name is "TEXT ..." or "FILE ...": the first word is the value.
  std::string type = option.get_type_name();
  type = type.substr(0, type.find(' '));
  if (type == "FILE" || type == "PATH") {
    doc.value = ValueKind::kFile;
  } else if (type == "DIR") {
    doc.value = ValueKind::kDirectory;
  } else {
    doc.value = ValueKind::kText;
  }
  doc.value_name = IsGenericTypeName(type)
                       ? ValueNameFromOption(doc.positional ? doc.name : doc.name.substr(2))
                       : type;
  return doc;
}

CommandDoc DescribeCommand(const CLI::App& app, std::vector<std::string> path) {
  CommandDoc doc;
  doc.path = std::move(path);
  doc.description = app.get_description();
  doc.requires_subcommand = app.get_require_subcommand_min() > 0;
  for (const CLI::Option* option : app.get_options())
    doc.options.push_back(DescribeOption(*option));
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    std::vector<std::string> sub_path = doc.path;
    sub_path.push_back(sub->get_name());
    doc.subcommands.push_back(DescribeCommand(*sub, std::move(sub_path)));
  }
  return doc;
}

void FlattenInto(const CommandDoc& doc, std::vector<const CommandDoc*>* out) {
  out->push_back(&doc);
  for (const CommandDoc& sub : doc.subcommands) FlattenInto(sub, out);
}

std::string Join(const std::vector<std::string>& words, char separator) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += separator;
    out += word;
  }
  return out;
}

}  // namespace

std::string CommandDoc::Invocation() const { return Join(path, ' '); }

std::string CommandDoc::PageName() const { return Join(path, '-'); }

CommandDoc DescribeCommandTree() {
  CommandDoc root;
  VisitCommandTree([&root](const CLI::App& app) { root = DescribeCommand(app, {app.get_name()}); });
  return root;
}

std::vector<const CommandDoc*> Flatten(const CommandDoc& root) {
  std::vector<const CommandDoc*> out;
  FlattenInto(root, &out);
  return out;
}

}  // namespace gentle::cli
