# Sends a datagram to a unix socket of the host by its abstract name. socket() is blocked
# by seccomp, but socketpair() is not, and a socket it makes can send to (or be bound to)
# any abstract name of its network namespace.
import socket

escaped = False
try:
    mine, _ = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    mine.sendto(b"from a case", b"\0%(name)s")
    escaped = True
except OSError:
    pass
