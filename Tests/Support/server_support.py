"""What the project's test servers share: living as a child of a test process, answering JSON,
and serving on 127.0.0.1 with the "PORT n" line the tests wait for."""

import argparse
import os
import signal
import threading
import time


def run_as_child():
    """Make SIGTERM and SIGINT work again (a child inherits its parent's signal mask and ignored
    signals), and exit when the test process that started us is gone, so no server outlives a
    killed run."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def fault_server_arguments(doc):
    """The start of a fault-plan server (the webhook, APNs): a child that dies on SIGTERM, with
    the options every such server takes (--port, --log, --script, --cycle); the caller adds its
    own and parses."""
    run_as_child()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log", required=True)
    parser.add_argument("--script", default="")
    parser.add_argument("--cycle", default="200")
    return parser


def send_json(handler, status, headers, body):
    """Answer `status` with `headers` and the JSON bytes `body`; a client that left is ignored."""
    try:
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client timed out and left


def serve(handler, port):
    """Serve `handler` on 127.0.0.1:`port` (0: a free one), print "PORT n", run until killed."""
    from http.server import ThreadingHTTPServer

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", port), handler)
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
