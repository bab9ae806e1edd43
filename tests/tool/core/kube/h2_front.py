"""HTTP/2 for the Kubernetes test server (RFC 9113, on the h2 library: Debian python3-h2).

A real API server speaks HTTP/2 to every client that offers it in ALPN, and kubectl and
libcurl both do: each request is a stream, and one connection carries a client's watches and
log streams side by side. This module is the transport only. serve() runs one TLS connection
whose ALPN chose "h2": a single I/O thread reads frames and writes what the h2 state machine
has to send; each request, once its body is complete, is handed to `on_request` on a thread of
its own (a watch blocks for as long as it runs), with a Stream to answer through. A Stream's
writes wait for the client's flow-control window, as a real server's do.

Connections are counted for the tests (Connections): the test server reports which carried
which API requests, so that a test can show that a client multiplexed them.
"""

import select
import socket
import ssl
import threading

try:
    import h2.config
    import h2.connection
    import h2.errors
    import h2.events
    import h2.exceptions
    AVAILABLE = True
except ImportError:  # without python3-h2 the server speaks HTTP/1.1 only
    AVAILABLE = False

# What kube-apiserver allows (Go's http2 server default).
MAX_CONCURRENT_STREAMS = 250


class Connections:
    """Every connection the server accepted: its protocol, its streams, its API requests by kind."""

    def __init__(self):
        self.lock = threading.Lock()
        self.records = []

    def opened(self, protocol):
        with self.lock:
            record = {"id": len(self.records) + 1, "protocol": protocol, "streams": 0, "requests": {}}
            self.records.append(record)
            return record

    def count(self, record, kind):
        with self.lock:
            record["requests"][kind] = record["requests"].get(kind, 0) + 1

    def stream(self, record):
        with self.lock:
            record["streams"] += 1

    def report(self):
        """Connections that carried API requests (not only the test's /_control/ calls)."""
        with self.lock:
            return [dict(r, requests=dict(r["requests"])) for r in self.records if r["requests"]]

    def reset(self):
        with self.lock:
            for record in self.records:
                record["requests"] = {}
                record["streams"] = 0


class StreamClosed(BrokenPipeError):
    """The client reset the stream or the connection went away: what a broken pipe is to HTTP/1.1."""


class Stream:
    """One request's answer: headers, then data, then the end (or a reset: a dropped stream)."""

    def __init__(self, connection, stream_id):
        self.connection = connection
        self.id = stream_id

    def send_headers(self, status, headers, end_stream=False):
        fields = [(":status", str(status))] + [(name.lower(), str(value)) for name, value in headers]
        self.connection.act(self.id, lambda conn: conn.send_headers(self.id, fields, end_stream=end_stream))

    def send_data(self, data, end_stream=False):
        self.connection.send_data(self.id, bytes(data), end_stream)

    def end(self):
        self.connection.act(self.id, lambda conn: conn.end_stream(self.id))

    def reset(self):
        try:
            self.connection.act(self.id, lambda conn: conn.reset_stream(self.id, h2.errors.ErrorCodes.INTERNAL_ERROR))
        except StreamClosed:
            pass


class Connection:
    def __init__(self, sock, on_request, record, connections):
        self.sock = sock
        self.on_request = on_request  # (stream, method, path, headers, body) on a new thread
        self.record = record
        self.connections = connections
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.conn.local_settings.max_concurrent_streams = MAX_CONCURRENT_STREAMS
        self.cond = threading.Condition()  # guards conn (the h2 state machine is not thread-safe)
        self.requests = {}  # stream id -> (headers, body) while the request arrives
        self.gone = set()  # streams the client reset
        self.closed = False
        self.wake_reader, self.wake_writer = socket.socketpair()

    # --- what stream threads call ---------------------------------------------------------------
    def act(self, stream_id, change):
        with self.cond:
            self.check_open(stream_id)
            try:
                change(self.conn)
            except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError) as error:
                raise StreamClosed(str(error))
        self.wake()

    def send_data(self, stream_id, data, end_stream):
        view = memoryview(data)
        while True:
            with self.cond:
                while True:
                    self.check_open(stream_id)
                    window = min(self.conn.local_flow_control_window(stream_id), self.conn.max_outbound_frame_size)
                    if window > 0 or not view:
                        break
                    self.cond.wait(1.0)  # until the client's WINDOW_UPDATE
                piece, view = view[:window], view[window:]
                try:
                    self.conn.send_data(stream_id, bytes(piece), end_stream=end_stream and not view)
                except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError) as error:
                    raise StreamClosed(str(error))
            self.wake()
            if not view:
                return

    def check_open(self, stream_id):
        if self.closed or stream_id in self.gone:
            raise StreamClosed("the client closed the stream")

    def wake(self):
        try:
            self.wake_writer.send(b"x")
        except OSError:
            pass

    # --- the I/O thread ---------------------------------------------------------------------------
    def serve(self):
        with self.cond:
            self.conn.initiate_connection()
        try:
            self.flush()
            while not self.closed:
                readable, _, _ = select.select([self.sock, self.wake_reader], [], [], 1.0)
                if self.wake_reader in readable:
                    self.wake_reader.recv(4096)
                if self.sock in readable:
                    if not self.read():
                        break
                self.flush()
        except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
            pass
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()
            self.wake_reader.close()
            self.wake_writer.close()

    def flush(self):
        with self.cond:
            data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def read(self):
        """Takes what arrived (TLS may hold more than one recv returns); False at the end."""
        while True:
            data = self.sock.recv(65536)
            if not data:
                return False
            with self.cond:
                events = self.conn.receive_data(data)
                for event in events:
                    self.handle(event)
                self.cond.notify_all()  # a window may have opened
            if not self.sock.pending():
                return True

    def handle(self, event):
        if isinstance(event, h2.events.RequestReceived):
            self.requests[event.stream_id] = (event.headers, bytearray())
            self.connections.stream(self.record)
        elif isinstance(event, h2.events.DataReceived):
            if event.stream_id in self.requests:
                self.requests[event.stream_id][1].extend(event.data)
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            headers, body = self.requests.pop(event.stream_id, ([], bytearray()))
            self.start(event.stream_id, headers, bytes(body))
        elif isinstance(event, h2.events.StreamReset):
            self.gone.add(event.stream_id)
            self.requests.pop(event.stream_id, None)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.closed = True

    def start(self, stream_id, headers, body):
        pseudo = {name: value for name, value in headers if name.startswith(":")}
        regular = [(name, value) for name, value in headers if not name.startswith(":")]
        stream = Stream(self, stream_id)
        thread = threading.Thread(target=self.on_request,
                                  args=(stream, pseudo.get(":method", "GET"), pseudo.get(":path", "/"), regular, body),
                                  daemon=True)
        thread.start()


def serve(sock, on_request, connections, record):
    """Runs an h2 connection on `sock` (TLS, ALPN h2) until the client closes it."""
    Connection(sock, on_request, record, connections).serve()
