#!/usr/bin/env python3
"""A headless stand-in for the form's page, for measuring what a page costs a program
on a machine without a browser (standard library only).

Usage: page_client.py URL [--delay MS] [--report FILE]

URL is the address `blazar run --ui browser` prints ("the form is at ..."). The client
opens the page's websocket and does what the page does with each message: reads the
form's JSON messages, turns each picture (a 20-byte head, then 8-bit gray or RGB
pixels) into RGBA pixels as the page does for its canvas, and acknowledges it after
--delay milliseconds (default 16: a page painting at 60 frames per second), so the
server's back-pressure works as with a browser. It runs until the program closes the
socket or the client gets SIGINT/SIGTERM, then prints one line: pictures received,
their megabytes, and pictures per second (to stdout, or appended to --report FILE).
"""

import base64
import os
import signal
import socket
import struct
import sys
import time
from urllib.parse import urlparse


class Stop(Exception):
    """SIGINT or SIGTERM: report and end."""


def connect(url):
    u = urlparse(url)
    path = u.path if u.path.endswith("/") else u.path + "/"
    s = socket.create_connection((u.hostname, u.port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path}ws HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    f = s.makefile("rb", buffering=1 << 20)
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        b = f.read(1)
        if not b:
            raise SystemExit("page_client: the server closed the connection")
        head += b
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit("page_client: no websocket: " + head.decode(errors="replace"))
    return s, f


def read_exact(f, n):
    b = f.read(n)
    if b is None or len(b) < n:
        raise EOFError
    return b


def message(f):
    """The next message: (opcode, payload); continuation frames joined."""
    data, op = b"", None
    while True:
        b0, b1 = read_exact(f, 2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack(">H", read_exact(f, 2))
        elif n == 127:
            (n,) = struct.unpack(">Q", read_exact(f, 8))
        mask = read_exact(f, 4) if b1 & 0x80 else None
        payload = read_exact(f, n)
        if mask:
            payload = bytes(x ^ mask[i % 4] for i, x in enumerate(payload))
        if op is None:
            op = b0 & 0x0F
        data += payload
        if b0 & 0x80:
            return op, data


def send_text(s, text):
    p = text.encode()
    assert len(p) < 126
    mask = os.urandom(4)
    s.sendall(bytes([0x81, 0x80 | len(p)]) + mask + bytes(x ^ mask[i % 4] for i, x in enumerate(p)))


def rgba(pixels, n, chans):
    """The pixels as RGBA, as the page fills its canvas."""
    out = bytearray(4 * n)
    if chans == 1:
        out[0::4] = pixels
        out[1::4] = pixels
        out[2::4] = pixels
    else:
        out[0::4] = pixels[0::3]
        out[1::4] = pixels[1::3]
        out[2::4] = pixels[2::3]
    out[3::4] = b"\xff" * n
    return out


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        raise SystemExit(__doc__)
    url, delay, report = args[0], 16.0, None
    i = 1
    while i < len(args):
        if args[i] == "--delay" and i + 1 < len(args):
            delay, i = float(args[i + 1]), i + 2
        elif args[i] == "--report" and i + 1 < len(args):
            report, i = args[i + 1], i + 2
        else:
            raise SystemExit(f"page_client: unknown argument {args[i]}")

    def stop(*_):
        raise Stop

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    s, f = connect(url)
    pictures, nbytes, first, last = 0, 0, None, None
    try:
        while True:
            op, data = message(f)
            if op == 8:
                break
            if op == 9:
                continue
            if op != 2:
                continue
            display, panel, w, h, chans = struct.unpack("<5I", data[:20])
            rgba(data[20:], w * h, chans)
            pictures += 1
            nbytes += len(data)
            last = time.monotonic()
            first = first or last
            if delay > 0:
                time.sleep(delay / 1000)
            send_text(s, '{"t":"ack","n":1}')
    except (EOFError, OSError, Stop):
        pass
    # A second signal while the report is written must not cut it short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    span = (last - first) if pictures > 1 else 0.0
    rate = (pictures - 1) / span if span > 0 else 0.0
    line = f"page_client: {pictures} pictures, {nbytes / 1e6:.1f} MB, {rate:.1f} per second\n"
    if report:
        with open(report, "a") as r:
            r.write(line)
    else:
        sys.stdout.write(line)
    try:
        s.close()
    except OSError:
        pass


if __name__ == "__main__":
    main()
