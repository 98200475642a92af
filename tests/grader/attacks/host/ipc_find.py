# Looks for what an earlier case left in an IPC object; finding it is the escape.
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
KEY, SECRET = int("%(key)d"), b"%(secret)s"
kind, found = "%(kind)s", b""
buffer = ctypes.create_string_buffer(8192)
if kind == "shm":
    shmid = libc.shmget(KEY, ctypes.c_size_t(0), 0)
    if shmid >= 0:
        found = ctypes.string_at(libc.shmat(shmid, None, 0), len(SECRET))
elif kind == "msg":
    queue = libc.msgget(KEY, 0)
    size = libc.msgrcv(queue, buffer, 4096, 0, 0o4000) if queue >= 0 else -1  # IPC_NOWAIT
    if size > 0:
        found = buffer.raw[ctypes.sizeof(ctypes.c_long) :][: len(SECRET)]
        libc.msgsnd(queue, buffer, size, 0)  # put it back for the next case
elif kind == "sem":
    count = ctypes.c_int(libc.semget(KEY, 0, 0))
    if count.value >= 0 and libc.semctl(count, 0, 2, buffer) == 0:  # IPC_STAT
        found = SECRET  # the set is still there: its size was the message
elif kind == "mqueue":
    queue = libc.mq_open(b"/grader-%(key)d", 0o4002)  # O_RDWR | O_NONBLOCK
    size = libc.mq_receive(queue, buffer, 8192, None) if queue >= 0 else -1
    if size > 0:
        found = buffer.raw[:size]
        libc.mq_send(queue, buffer, size, 0)  # put it back for the next case
escaped = found == SECRET
