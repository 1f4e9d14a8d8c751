#include "export/markdown_html.h"

#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace gentle::exporter {
namespace {

struct NodeFree {
  void operator()(cmark_node* node) const { cmark_node_free(node); }
};
using NodePtr = std::unique_ptr<cmark_node, NodeFree>;

// Replaces `node` with `replacement` (inserted where it was); `node` is freed.
void Replace(cmark_node* node, cmark_node* replacement) {
  cmark_node_insert_before(node, replacement);
  cmark_node_unlink(node);
  cmark_node_free(node);
}

cmark_node* TextNode(cmark_node_type type, const char* literal) {
  cmark_node* text = cmark_node_new(type);
  cmark_node_set_literal(text, literal == nullptr ? "" : literal);
  return text;
}

// A link or image: its children moved before it, then its destination as text.
void Flatten(cmark_node* node) {
  const char* url = cmark_node_get_url(node);
  const bool image = cmark_node_get_type(node) == CMARK_NODE_IMAGE;
  if (image) cmark_node_insert_before(node, TextNode(CMARK_NODE_TEXT, "[image: "));
  while (cmark_node* child = cmark_node_first_child(node)) {
    cmark_node_unlink(child);
    cmark_node_insert_before(node, child);
  }
  const std::string tail = std::string(image ? "] <" : " <") + (url == nullptr ? "" : url) + ">";
  Replace(node, TextNode(CMARK_NODE_TEXT, tail.c_str()));
}

// Every raw HTML, link and image node of the document, in document order.
std::vector<cmark_node*> UnsafeNodes(cmark_node* document) {
  std::vector<cmark_node*> nodes;
  cmark_iter* iter = cmark_iter_new(document);
  for (cmark_event_type event; (event = cmark_iter_next(iter)) != CMARK_EVENT_DONE;) {
    if (event != CMARK_EVENT_ENTER) continue;
    cmark_node* node = cmark_iter_get_node(iter);
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_HTML_BLOCK:
      case CMARK_NODE_HTML_INLINE:
      case CMARK_NODE_LINK:
      case CMARK_NODE_IMAGE:
        nodes.push_back(node);
        break;
      default:
        break;
    }
  }
  cmark_iter_free(iter);
  return nodes;
}

}  // namespace

Result<std::string> SafeMarkdownHtml(std::string_view markdown) {
  NodePtr document(cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT));
  if (!document) return Status(Code::kInternal, "libcmark-gfm could not parse a verdict body");
  for (cmark_node* node : UnsafeNodes(document.get())) {
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_HTML_BLOCK:
        Replace(node, TextNode(CMARK_NODE_CODE_BLOCK, cmark_node_get_literal(node)));
        break;
      case CMARK_NODE_HTML_INLINE:
        Replace(node, TextNode(CMARK_NODE_TEXT, cmark_node_get_literal(node)));
        break;
      default:
        Flatten(node);
    }
  }
  char* html = cmark_render_html(document.get(), CMARK_OPT_DEFAULT, nullptr);
  if (html == nullptr) return Status(Code::kInternal, "libcmark-gfm could not render a body");
  std::string out(html);
  std::free(html);
  return out;
}

std::string MarkdownLibraryVersion() { return cmark_version_string(); }

}  // namespace gentle::exporter
