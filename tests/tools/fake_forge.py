#!/usr/bin/env python3
"""A fake forge REST API for the `review watch` tests (tests/watch_daemon_test.cc).

fake_forge.py --kind github|gitea --world FILE --log FILE [--port N] [--cert C --key K]

Serves the read-only endpoints the watcher uses, in the forges' own shapes:
  github: /api/v3/repos/O/R/pulls[/N][/comments|/reviews], /api/v3/repos/O/R/issues/N/comments
          (HTTPS with --cert/--key: the path `gh` uses for an Enterprise host)
  gitea:  /api/v1/repos/O/R/pulls[/N][/reviews[/ID/comments]], /api/v1/repos/O/R/issues/N/comments
          (HTTP; each review with its comments_count, from the review comments naming it in
          pull_request_review_id)
Every request re-reads the world file (JSON, replaced atomically by the test):
  {"pulls": {"O/R#N": {...PR object...}},
   "issue_comments"|"review_comments"|"reviews": {"O/R#N": [{"id": 1, "body": "..."}]},
   "fail": {"status": 403, "headers": {"Retry-After": "120"}, "body": "..."},   # optional
   "malformed": ["/path", ...]}                                                  # optional
Answers carry an ETag (a digest of the body); a matching If-None-Match gets 304. Each request is
appended to the log as one JSON line: method, path, if_none_match, authorization, status.
Binds 127.0.0.1 (port 0: the OS chooses) and prints the port as its first line.
"""
import argparse
import hashlib
import http.server
import json
import re
import ssl
import sys

ROUTE = re.compile(
    r"^/api/v[13]/repos/([^/]+)/([^/]+)/(pulls|issues)(?:/(\d+))?(?:/(comments|reviews))?"
    r"(?:/(\d+)/comments)?$")


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        with open(self.server.log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps({
                "method": self.command,
                "path": self.path,
                "if_none_match": self.headers.get("If-None-Match"),
                "authorization": self.headers.get("Authorization"),
                "status": status,
            }) + "\n")

    def answer(self, status, body, headers=None):
        self.record(status)
        data = body.encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if status != 304:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        else:
            self.send_header("Content-Length", "0")
        self.end_headers()
        if status != 304:
            self.wfile.write(data)

    def do_GET(self):
        world = load(self.server.world_path)
        fail = world.get("fail")
        if fail:
            self.answer(fail["status"], fail.get("body", '{"message":"fail"}'),
                        fail.get("headers", {}))
            return
        path = self.path.split("?", 1)[0]
        m = ROUTE.match(path)
        if not m:
            self.answer(404, '{"message":"Not Found"}')
            return
        owner, repo, kind, number, sub, review = m.groups()
        key = f"{owner}/{repo}#{number}"
        gitea = self.server.kind == "gitea"
        if kind == "pulls" and number is None:
            value = [p for k, p in world.get("pulls", {}).items()
                     if k.startswith(f"{owner}/{repo}#") and p.get("state") == "open"]
        elif kind == "pulls" and sub is None:
            value = world.get("pulls", {}).get(key)
        elif kind == "pulls" and sub == "comments" and not gitea:
            value = world.get("review_comments", {}).get(key, [])
        elif kind == "pulls" and sub == "reviews" and review is not None and gitea:
            value = [c for c in world.get("review_comments", {}).get(key, [])
                     if str(c.get("pull_request_review_id")) == review]
        elif kind == "pulls" and sub == "reviews" and review is None:
            value = world.get("reviews", {}).get(key, [])
            if gitea:  # Gitea counts each review's comments
                inline = world.get("review_comments", {}).get(key, [])
                value = [dict(r, comments_count=sum(
                    1 for c in inline if c.get("pull_request_review_id") == r.get("id")))
                    for r in value]
        elif kind == "issues" and sub == "comments":
            value = world.get("issue_comments", {}).get(key, [])
        else:
            value = None
        if value is None:
            self.answer(404, '{"message":"Not Found"}')
            return
        body = json.dumps(value)
        if path in world.get("malformed", []):
            body = body[: len(body) // 2]
        etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            self.answer(304, "", {"ETag": etag})
            return
        self.answer(200, body, {"ETag": etag})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["github", "gitea"], required=True)
    parser.add_argument("--world", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.kind = args.kind
    server.world_path = args.world
    server.log_path = args.log
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
