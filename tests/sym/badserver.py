#!/usr/bin/env python3
# badserver.py PORTFILE MODE [FILE]: a debuginfod server that misbehaves,
# on 127.0.0.1 at a free port (written to PORTFILE once listening), until
# killed. MODE: "silent" accepts and never answers; "garbage" answers
# bytes that are no HTTP; "http" answers 200 with bytes that are no ELF;
# "500" answers HTTP 500; "file" answers 200 with FILE, whatever was
# asked (an ELF file of another build ID); "huge" announces 3 GiB and
# sends zeros; "stream" sends zeros without saying a size, endlessly.
import socket
import sys

s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
mode = sys.argv[2]
held = []
while True:
    c, _ = s.accept()
    if mode == "silent":
        held.append(c)
        continue
    try:
        c.recv(65536)
        if mode == "garbage":
            c.sendall(b"\x7fELF\x02\x01 this is no HTTP\r\n\r\n" * 8)
        elif mode == "500":
            body = b"internal error\n"
            c.sendall(b"HTTP/1.1 500 Internal Server Error\r\n"
                      b"Content-Length: %d\r\nConnection: close\r\n\r\n"
                      % len(body) + body)
        elif mode in ("huge", "stream"):
            if mode == "huge":
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
                          b"Connection: close\r\n\r\n" % (3 << 30))
            else:
                c.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
            zeros = bytes(1 << 16)
            for _ in range(1 << 15):    # 2 GiB at most
                c.sendall(zeros)
        elif mode == "file":
            with open(sys.argv[3], "rb") as f:
                body = f.read()
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
                      b"Connection: close\r\n\r\n" % len(body) + body)
        else:
            body = b"this is no ELF file\n" * 8
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n"
                      b"Connection: close\r\n\r\n" % len(body) + body)
    except OSError:
        pass
    c.close()
