# A registry that refuses everything with 403 and an OCI error body, on a free loopback
# port written to the file named by argv[1]: what a push meets when the registry says no.
import http.server
import os
import sys


class Refuse(http.server.BaseHTTPRequestHandler):
    def refuse(self):
        body = b'{"errors":[{"code":"DENIED","message":"pushes are refused here"}]}'
        self.send_response(403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = refuse

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Refuse)
with open(sys.argv[1] + ".new", "w") as f:
    f.write(str(server.server_port))
os.rename(sys.argv[1] + ".new", sys.argv[1])  # the port appears whole or not at all
server.serve_forever()
