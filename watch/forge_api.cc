#include "watch/forge_api.h"

#include <cstdlib>

namespace gentle::watch {
namespace {

bool IsGithub(const ForgeEndpoint& endpoint) { return endpoint.kind == store::Forge::kGithub; }

// SCHEME and AUTHORITY of a Gitea base URL the transport accepted.
std::string SchemeOf(const std::string& base) { return base.substr(0, base.find("://")); }

Status Undeclared(const std::string& authority) {
  return Status(Code::kForbidden,
                authority +
                    " answered 401 to a request sent without a token: it is not declared a Gitea "
                    "host, so $GITEA_TOKEN is not sent to it; declare it (.claude/tracker.json "
                    "\"remoteHost\": \"gitea\", or git config gentle-ai.giteaHost " +
                    authority + ") or give git's credential helper its token");
}

}  // namespace

std::string GithubHost(const std::string& endpoint) {
  if (!endpoint.empty()) return endpoint;
  const char* host = std::getenv("GH_HOST");
  return host != nullptr && *host != '\0' ? std::string(host) : std::string("github.com");
}

std::string ApiBase(const ForgeEndpoint& endpoint) {
  if (!IsGithub(endpoint)) return endpoint.endpoint + "/api/v1";
  const std::string host = GithubHost(endpoint.endpoint);
  return host == "github.com" ? std::string("https://api.github.com")
                              : "https://" + host + "/api/v3";
}

Result<Token> ForgeApi::CurrentToken(bool refresh) {
  if (token_ && !refresh) return *token_;
  if (IsGithub(endpoint_)) {
    GENTLE_ASSIGN_OR_RETURN(token_, GithubToken(GithubHost(endpoint_.endpoint), refresh));
  } else {
    GENTLE_ASSIGN_OR_RETURN(std::string authority, CheckApiBase(endpoint_.endpoint));
    GENTLE_ASSIGN_OR_RETURN(token_, GiteaToken(SchemeOf(endpoint_.endpoint), authority,
                                               endpoint_.gitea_declared, endpoint_.config_dir));
  }
  return *token_;
}

Result<HttpResponse> ForgeApi::SendWith(const HttpRequest& request, const Token& token) {
  HttpRequest sent;
  sent.post = request.post;
  sent.path = request.path;
  sent.body = request.body;
  sent.headers = {
      IsGithub(endpoint_) ? "Accept: application/vnd.github+json" : "Accept: application/json",
      "User-Agent: gentle-ai"};
  if (!token.value.empty()) sent.headers.push_back("Authorization: token " + token.value);
  sent.headers.insert(sent.headers.end(), request.headers.begin(), request.headers.end());
  return transport_->Send(sent);
}

Result<HttpResponse> ForgeApi::Request(const HttpRequest& request) {
  if (!transport_) {
    GENTLE_ASSIGN_OR_RETURN(transport_, TransportFor(ApiBase(endpoint_)));
  }
  GENTLE_ASSIGN_OR_RETURN(Token token, CurrentToken(false));
  auto answer = SendWith(request, token);
  if (!answer.ok() || answer->status != 401) return answer;
  if (IsGithub(endpoint_) && token.from_gh) {  // gh may hold a newer token by now
    GENTLE_ASSIGN_OR_RETURN(Token fresh, CurrentToken(true));
    if (!fresh.value.empty() && fresh.value != token.value) return SendWith(request, fresh);
    return answer;
  }
  if (!IsGithub(endpoint_) && token.value.empty() && !endpoint_.gitea_declared) {
    GENTLE_ASSIGN_OR_RETURN(std::string authority, CheckApiBase(endpoint_.endpoint));
    return Undeclared(authority);
  }
  return answer;
}

}  // namespace gentle::watch
