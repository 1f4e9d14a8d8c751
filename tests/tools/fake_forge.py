#!/usr/bin/env python3
"""A fake forge REST API for the `review watch` tests (tests/watch_daemon_test.cc).

fake_forge.py --kind github|gitea --world FILE --log FILE [--port N] [--cert C --key K]

Serves the endpoints the watcher and `review post` use, in the forges' own shapes:
  github: /api/v3/repos/O/R/pulls[/N][/comments|/reviews], /api/v3/repos/O/R/issues/N/comments
          (HTTPS with --cert/--key: the path `gh` uses for an Enterprise host)
  gitea:  /api/v1/repos/O/R/pulls[/N][/reviews[/ID/comments]], /api/v1/repos/O/R/issues/N/comments
          (HTTP; each review with its comments_count, from the review comments naming it in
          pull_request_review_id)
  both:   /api/v[13]/user (the authenticated user: {"login": world "me", default "gentle-bot"});
          POST .../pulls/N/reviews and .../issues/N/comments add a review or comment written by
          "me" (id from world "next_id", default 1000) to the world file and answer it
Every request re-reads the world file (JSON, replaced atomically by the test):
  {"pulls": {"O/R#N": {...PR object...}},
   "issue_comments"|"review_comments"|"reviews": {"O/R#N": [{"id": 1, "body": "..."}]},
   "fail": {"status": 403, "headers": {"Retry-After": "120"}, "body": "..."},   # optional
   "malformed": ["/path", ...],                                                 # optional
   "fail_post": {"status": 422, "headers": {...}, "body": "..."},               # optional
   "redirect": {"status": 302, "location": "https://..."},                      # optional
   "revoked": {"token": "T", "write": {"path": "FILE", "text": "..."}}}          # optional
("redirect": every request, GET or POST, is answered with that status and Location. "revoked":
a request sent with `Authorization: token T` is answered 401 after FILE is written with the text,
as when gh's stored token is renewed while a client still holds the old one.)
Answers carry an ETag (a digest of the body); a matching If-None-Match gets 304. Each request is
appended to the log as one JSON line: method, path, if_none_match, authorization, status, and
the body a POST sent.
Binds 127.0.0.1 (port 0: the OS chooses) and prints the port as its first line.
"""
import argparse
import hashlib
import http.server
import json
import re
import ssl
import os
import sys
import threading

ROUTE = re.compile(
    r"^/api/v[13]/repos/([^/]+)/([^/]+)/(pulls|issues)(?:/(\d+))?(?:/(comments|reviews))?"
    r"(?:/(\d+)/comments)?$")
USER = re.compile(r"^/api/v[13]/user$")
POSTS = threading.Lock()


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status):
        entry = {
            "method": self.command,
            "path": self.path,
            "if_none_match": self.headers.get("If-None-Match"),
            "authorization": self.headers.get("Authorization"),
            "status": status,
        }
        if self.command == "POST":
            entry["body"] = self.posted
        with open(self.server.log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")

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

    def redirected(self, world):
        redirect = world.get("redirect")
        if redirect:
            self.answer(redirect["status"], "", {"Location": redirect["location"]})
        return bool(redirect)

    def revoked(self, world):
        revoked = world.get("revoked")
        if not revoked or self.headers.get("Authorization") != "token " + revoked["token"]:
            return False
        write = revoked.get("write")
        if write:
            with open(write["path"], "w", encoding="utf-8") as f:
                f.write(write["text"])
        self.answer(401, '{"message":"Bad credentials"}')
        return True

    def do_GET(self):
        world = load(self.server.world_path)
        if self.redirected(world) or self.revoked(world):
            return
        fail = world.get("fail")
        if fail:
            self.answer(fail["status"], fail.get("body", '{"message":"fail"}'),
                        fail.get("headers", {}))
            return
        path = self.path.split("?", 1)[0]
        if USER.match(path):
            self.answer(200, json.dumps({"login": world.get("me", "gentle-bot"), "id": 1}))
            return
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


    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
            return self.rfile.read(int(self.headers.get("Content-Length", "0")))
        data = b""
        while True:  # gh sends a body read from stdin in chunks
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                self.rfile.readline()
                return data
            data += self.rfile.read(size)
            self.rfile.readline()

    def do_POST(self):
        self.posted = self.read_body().decode("utf-8", "replace")
        with POSTS:
            world = load(self.server.world_path)
            if self.redirected(world) or self.revoked(world):
                return
            fail = world.get("fail_post")
            if fail:
                self.answer(fail["status"], fail.get("body", '{"message":"fail"}'),
                            fail.get("headers", {}))
                return
            m = ROUTE.match(self.path.split("?", 1)[0])
            if not m or m.group(4) is None or m.group(6) is not None:
                self.answer(404, '{"message":"Not Found"}')
                return
            owner, repo, kind, number, sub, _ = m.groups()
            table = {("pulls", "reviews"): "reviews",
                     ("issues", "comments"): "issue_comments"}.get((kind, sub))
            key = f"{owner}/{repo}#{number}"
            if table is None or key not in world.get("pulls", {}):
                self.answer(404, '{"message":"Not Found"}')
                return
            document = json.loads(self.posted)
            item = {"id": world.get("next_id", 1000), "body": document["body"],
                    "user": {"login": world.get("me", "gentle-bot")}}
            if "event" in document:
                item["state"] = document["event"]
            world["next_id"] = item["id"] + 1
            world.setdefault(table, {}).setdefault(key, []).append(item)
            tmp = self.server.world_path + ".post"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(world, f)
            os.replace(tmp, self.server.world_path)
            self.answer(200 if table == "reviews" else 201, json.dumps(item))


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
