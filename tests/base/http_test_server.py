#!/usr/bin/env python3
"""A loopback HTTP server for base/http_client tests (Python standard library only).

Listens on 127.0.0.1 at two free ports, plain HTTP and HTTPS (a self-signed
certificate for 127.0.0.1 and api.gkebuild.test made with the openssl command in --dir), and prints
"PORTS <http> <https> <its process id>". It counts the connections it accepted, to show reuse.

  GET /bytes?n=N           N bytes of 'x' (Content-Length)
  GET /redirect?to=URL     302 to URL
  GET /headers             an answer with mixed-case header names
  GET /silent              the status, headers and one chunk, then nothing for a minute
  GET /echo                the request's method, User-Agent and body as JSON
  GET /connections         how many connections were accepted so far, as text
  PUT /think?s=S           reads the body, then thinks S seconds before answering (as /echo)
"""

import argparse
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

accepted = 0
accepted_lock = threading.Lock()


class CountingServer(ThreadingHTTPServer):
    daemon_threads = True

    def get_request(self):
        global accepted
        connection = super().get_request()
        with accepted_lock:
            accepted += 1
        return connection


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so that connections can be reused

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/bytes":
            self.answer(200, b"x" * int(query["n"][0]))
        elif url.path == "/redirect":
            self.answer(302, b"", [("Location", query["to"][0])])
        elif url.path == "/headers":
            self.answer(200, b"ok", [("X-Mixed-Case", "Value Kept"), ("X-Twice", "one"), ("X-TWICE", "two")])
        elif url.path == "/silent":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"5\r\nhello\r\n")
            self.wfile.flush()
            time.sleep(60)
            self.close_connection = True
        elif url.path == "/connections":
            with accepted_lock:
                self.answer(200, str(accepted).encode())
        elif url.path == "/echo":
            self.echo()
        else:
            self.answer(404, b"not found")

    def echo(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode()
        self.answer(200, json.dumps({"method": self.command, "user_agent": self.headers.get("User-Agent"),
                                     "body": body}).encode(), [("Content-Type", "application/json")])

    do_POST = echo

    def do_PUT(self):
        url = urlsplit(self.path)
        if url.path == "/think":
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            time.sleep(float(parse_qs(url.query)["s"][0]))
            self.answer(200, b"thought")
        else:
            self.echo()


def self_signed(directory):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", "server.key", "-out", "server.crt", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:api.gkebuild.test"],
                   check=True, cwd=directory, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(directory, "server.crt"), os.path.join(directory, "server.key"))
    return context


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    plain = CountingServer(("127.0.0.1", 0), Handler)
    secure = CountingServer(("127.0.0.1", 0), Handler)
    secure.socket = self_signed(args.dir).wrap_socket(secure.socket, server_side=True)
    for server in (plain, secure):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORTS {plain.server_address[1]} {secure.server_address[1]} {os.getpid()}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
