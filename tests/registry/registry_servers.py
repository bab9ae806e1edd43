#!/usr/bin/env python3
"""Test servers around a real docker-registry, for the registry client tests.

  token    a Docker token service: signs RS256 JWTs with a test key (openssl)
  proxy    a forwarding proxy that counts upload bytes and can inject faults:
           dropped connections, 500/503 answers, garbage, wrong digests,
           throttling, and redirects of blob downloads to a capture server
  capture  serves blobs from an OCI layout and records whether requests
           carried an Authorization header
  hostile  answers /v2/ like a registry, then misbehaves on blob GETs and
           uploads as --behaviour says (hostile_handler)

Each prints "READY <port>" once it listens on 127.0.0.1. Standard library only.
"""
import argparse
import hashlib
import base64
import http.client
import http.server
import json
import os
import random
import re
import socket
import ssl
import subprocess
import threading
import time
import urllib.parse

STATS = {"upload_bytes": 0, "requests": 0, "faults": 0, "blob_gets": []}
LOCK = threading.Lock()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def ready(server):
    print("READY %d" % server.server_address[1], flush=True)
    server.serve_forever()


def append_log(path, record):
    if path:
        with LOCK, open(path, "a") as f:
            f.write(json.dumps(record) + "\n")


# ---------------------------------------------------------------- token service
def make_token(args, service, access):
    now = int(time.time())
    der = subprocess.run(["openssl", "x509", "-in", args.cert, "-outform", "DER"],
                         check=True, capture_output=True).stdout
    header = {"typ": "JWT", "alg": "RS256", "x5c": [base64.b64encode(der).decode()]}
    claims = {"iss": args.issuer, "sub": args.user, "aud": service, "exp": now + args.ttl,
              "nbf": now - 10, "iat": now, "jti": "%x" % random.getrandbits(64), "access": access}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", args.key],
                               input=signing_input.encode(), check=True, capture_output=True).stdout
    return signing_input + "." + b64url(signature)


class Answering(http.server.BaseHTTPRequestHandler):
    """A quiet handler that reads request bodies in chunks and answers with a whole body and its
    Content-Length (none for HEAD)."""

    def log_message(self, *a):
        pass

    def request_chunks(self):
        """The request body as it arrives, at most 64 KiB at a time."""
        left = int(self.headers.get("Content-Length") or 0)
        while left > 0:
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)
            yield chunk

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def token_handler(args):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
            scopes = query.get("scope", [])
            auth = self.headers.get("Authorization", "")
            expected = "Basic " + base64.b64encode(("%s:%s" % (args.user, args.password)).encode()).decode()
            append_log(args.log, {"scopes": scopes, "authorized": auth == expected, "has_auth": bool(auth)})
            if auth != expected:
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"details":"incorrect username or password"}')
                return
            access = []
            for scope in scopes:
                kind, name, actions = scope.split(":")
                access.append({"type": kind, "name": name, "actions": actions.split(",")})
            token = make_token(args, query.get("service", [""])[0], access)
            body = json.dumps({"token": token, "access_token": token,
                               "expires_in": args.advertised_ttl or args.ttl,
                               "issued_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())
    return Handler


# ---------------------------------------------------------------- fault proxy
BLOB_GET = re.compile(r"^/v2/.+/blobs/(sha256:[0-9a-f]{64})$")


def proxy_handler(args):
    rng = random.Random(args.seed)

    class Handler(Answering):
        protocol_version = "HTTP/1.1"

        def connect(self):
            host, port = args.target.rsplit(":", 1)
            if args.target_ca:
                context = ssl.create_default_context(cafile=args.target_ca)
                return http.client.HTTPSConnection(host, int(port), context=context, timeout=60)
            return http.client.HTTPConnection(host, int(port), timeout=60)

        def body_chunks(self):
            """The request body, counted (uploads) and throttled as it streams."""
            for chunk in self.request_chunks():
                if "/blobs/uploads/" in self.path:
                    with LOCK:
                        STATS["upload_bytes"] += len(chunk)
                if args.throttle:
                    time.sleep(len(chunk) / args.throttle)
                yield chunk

        def read_body(self):
            return b"".join(self.body_chunks())

        def fault(self):
            """Injects a fault for a share of requests; True when it answered."""
            with LOCK:
                roll = rng.random()
            if roll >= args.fail_rate:
                return False
            with LOCK:
                STATS["faults"] += 1
            kind = ("drop", "500", "503")[int(roll / args.fail_rate * 3) % 3]
            if kind == "drop":
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return True
            self.read_body()
            self.answer(int(kind), b'{"errors":[{"code":"UNAVAILABLE","message":"injected"}]}',
                        [("Content-Type", "application/json")])
            return True

        def refuse_revoked_token(self):
            """--revoke-token-after N: from request N on, the first token is refused."""
            auth = self.headers.get("Authorization", "")
            if not args.revoke_token_after or not auth.startswith("Bearer "):
                return False
            with LOCK:
                STATS.setdefault("first_token", auth)
                revoked = STATS["requests"] > args.revoke_token_after and auth == STATS["first_token"]
                challenge = STATS.get("challenge", "")
            if not revoked:
                return False
            self.read_body()
            self.answer(401, b'{"errors":[{"code":"UNAUTHORIZED","message":"token revoked"}]}',
                        [("WWW-Authenticate", challenge + ',error="invalid_token"')])
            return True

        def handle_any(self):
            with LOCK:
                STATS["requests"] += 1
            if self.path == "/__stats":
                return self.answer(200, json.dumps(STATS).encode())
            if args.garbage and self.path != "/v2/":
                self.read_body()
                self.wfile.write(b"\x00\x17garbage\r\n\r\nnot http at all")
                self.close_connection = True
                return
            match = BLOB_GET.match(urllib.parse.urlparse(self.path).path)
            if match and self.command == "GET":
                with LOCK:
                    STATS["blob_gets"].append(match.group(1))
            if args.redirect_blobs and match and self.command == "GET":
                return self.answer(307, headers=[("Location", args.redirect_blobs + "/" + match.group(1))])
            if self.fault():
                return
            if self.refuse_revoked_token():
                return
            upstream = self.connect()
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection",)}
            # The body streams through, so a registry killed mid-upload sees a partial upload.
            length = int(self.headers.get("Content-Length") or 0)
            body = self.body_chunks() if length else None
            try:
                upstream.request(self.command, self.path, body=body, headers=headers)
                response = upstream.getresponse()
            except OSError:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            data = response.read()
            if response.getheader("WWW-Authenticate"):
                with LOCK:
                    STATS["challenge"] = response.getheader("WWW-Authenticate")
            out_headers = [(k, v) for k, v in response.getheaders()
                           if k.lower() not in ("content-length", "connection", "transfer-encoding")]
            if args.wrong_digest and "/blobs/uploads/" in self.path and response.status == 201:
                out_headers = [(k, "sha256:" + "0" * 64 if k.lower() == "docker-content-digest" else v)
                               for k, v in out_headers]
            if args.corrupt_blobs and match and data:
                data = bytes([data[0] ^ 0xFF]) + data[1:]
            self.answer(response.status, data, out_headers)

        do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

    return Handler


# ---------------------------------------------------------------- capture server
def capture_handler(args):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            digest = self.path.rsplit("/", 1)[-1]
            append_log(args.log, {"path": self.path, "authorization": self.headers.get("Authorization")})
            path = os.path.join(args.blobs, digest.replace(":", "/"))
            if not os.path.isfile(path):
                self.send_response(404)
                self.end_headers()
                return
            with open(path, "rb") as f:
                data = f.read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
    return Handler


# ---------------------------------------------------------------- hostile registry
HOSTILE_BEHAVIOURS = {
    "serve": "the blob of --blob, as a registry would (the control case)",
    "endless": "a 200 whose body never ends (no Content-Length, bytes forever)",
    "short": "half of the blob, with a Content-Length that matches the half",
    "stall": "the headers and 100 bytes of the blob, then silence",
    "redirect": "307 to --location (gopher://, file://, http:// from https...)",
    "slow-put": "accepts uploads, then thinks --think seconds before answering the PUT",
    "stall-ping": "answers GET /v2/ with its headers and 2 of 10 bytes, then silence",
    "endless-manifest": "an index by tag whose linux/amd64 manifest, by digest, never ends",
    "auth-redirect": "asks for basic auth, redirects blob GETs to --location; /elsewhere/ serves "
                     "the blob, or 403 to a request that carries an Authorization header",
}


def hostile_handler(args):
    with open(args.blob, "rb") as f:
        blob = f.read()
    digest = "sha256:" + hashlib.sha256(blob).hexdigest()

    class Handler(Answering):
        protocol_version = "HTTP/1.1"

        def read_body(self):
            for _ in self.request_chunks():
                pass

        def blob_get(self):
            b = args.behaviour
            if b == "endless":
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                self.wfile.write(blob)
                chunk = b"\0" * 65536
                while True:  # until the client hangs up
                    self.wfile.write(chunk)
            elif b == "short":
                self.answer(200, blob[: len(blob) // 2])
            elif b == "stall":
                self.send_response(200)
                self.send_header("Content-Length", str(len(blob)))
                self.end_headers()
                self.wfile.write(blob[:100])
                self.wfile.flush()
                time.sleep(3600)
            elif b in ("redirect", "auth-redirect"):
                location = args.location.replace("{port}", str(self.server.server_address[1]))
                self.answer(307, headers=[("Location", location)])
            else:
                self.answer(200, blob)

        def stalled_ping(self):
            self.send_response(200)
            self.send_header("Content-Length", "10")
            self.end_headers()
            self.wfile.write(b"{}")
            self.wfile.flush()
            time.sleep(3600)

        def endless_manifest(self, reference):
            if not reference.startswith("sha256:"):
                child = {"mediaType": "application/vnd.oci.image.manifest.v1+json",
                         "digest": digest, "size": len(blob),
                         "platform": {"os": "linux", "architecture": "amd64"}}
                index = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                         "manifests": [child]}
                return self.answer(200, json.dumps(index).encode(),
                                   [("Content-Type", "application/vnd.oci.image.index.v1+json")])
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.oci.image.manifest.v1+json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            while True:  # until the client hangs up
                self.wfile.write(b" " * 65536)

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            if args.behaviour == "auth-redirect":
                if path.startswith("/elsewhere/"):
                    if self.headers.get("Authorization"):
                        return self.answer(403, b"an Authorization header reached another host")
                    return self.answer(200, blob)
                if not self.headers.get("Authorization"):
                    return self.answer(401, b"{}", [("WWW-Authenticate", 'Basic realm="hostile"')])
            if path == "/v2/":
                if args.behaviour == "stall-ping":
                    return self.stalled_ping()
                return self.answer(200, b"{}", [("Content-Type", "application/json")])
            manifest = re.match(r"^/v2/.+/manifests/([^/]+)$", path)
            if manifest and args.behaviour == "endless-manifest":
                return self.endless_manifest(manifest.group(1))
            if BLOB_GET.match(path) and self.command == "GET":
                return self.blob_get()
            self.answer(404)

        do_HEAD = do_GET

        def do_POST(self):
            self.read_body()
            self.answer(202, headers=[("Location", "/v2/upload/1")])

        def do_PUT(self):
            self.read_body()
            if args.behaviour == "slow-put":
                time.sleep(args.think)
            self.answer(201, headers=[("Docker-Content-Digest", digest)])

    return Handler


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    token = sub.add_parser("token")
    for name in ("key", "cert", "issuer", "user", "password"):
        token.add_argument("--" + name, required=True)
    token.add_argument("--ttl", type=int, default=300, help="lifetime of the tokens")
    token.add_argument("--advertised-ttl", type=int, default=0, help="expires_in told to clients")
    token.add_argument("--log")
    proxy = sub.add_parser("proxy")
    proxy.add_argument("--target", required=True)
    proxy.add_argument("--target-ca")
    proxy.add_argument("--fail-rate", type=float, default=0.0)
    proxy.add_argument("--seed", type=int, default=1)
    proxy.add_argument("--throttle", type=float, default=0, help="bytes per second")
    proxy.add_argument("--garbage", action="store_true")
    proxy.add_argument("--wrong-digest", action="store_true")
    proxy.add_argument("--corrupt-blobs", action="store_true")
    proxy.add_argument("--redirect-blobs")
    proxy.add_argument("--revoke-token-after", type=int, default=0)
    capture = sub.add_parser("capture")
    capture.add_argument("--blobs", required=True)
    capture.add_argument("--log", required=True)
    hostile = sub.add_parser("hostile")
    hostile.add_argument("--behaviour", required=True, choices=sorted(HOSTILE_BEHAVIOURS))
    hostile.add_argument("--blob", required=True, help="the bytes the blob should hold")
    hostile.add_argument("--location", default="", help="redirect target; {port} is this server's port")
    hostile.add_argument("--think", type=float, default=0, help="seconds before answering a PUT")
    hostile.add_argument("--cert", help="serve TLS with this certificate (and --key)")
    hostile.add_argument("--key")
    args = parser.parse_args()
    handler = {"token": token_handler, "proxy": proxy_handler, "capture": capture_handler,
               "hostile": hostile_handler}[args.mode](args)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    if args.mode == "hostile" and args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    ready(server)


if __name__ == "__main__":
    main()
