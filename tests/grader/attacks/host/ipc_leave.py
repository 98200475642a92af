# Leaves a secret in an IPC object that outlives the case, for a later case to find:
# a System V shared memory segment, message queue or semaphore set, or a POSIX queue.
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
KEY, SECRET, CREATE = int("%(key)d"), b"%(secret)s", 0o1000 | 0o666
kind = "%(kind)s"
libc.umask(0)  # a queue every uid may write to
if kind == "shm":
    shmid = libc.shmget(KEY, ctypes.c_size_t(4096), CREATE)
    ctypes.memmove(libc.shmat(shmid, None, 0), SECRET, len(SECRET))
elif kind == "msg":
    message = ctypes.create_string_buffer(ctypes.sizeof(ctypes.c_long) + len(SECRET))
    ctypes.c_long.from_buffer(message).value = 1
    ctypes.memmove(ctypes.addressof(message) + ctypes.sizeof(ctypes.c_long), SECRET, len(SECRET))
    libc.msgsnd(libc.msgget(KEY, CREATE), message, len(SECRET), 0)
elif kind == "sem":
    libc.semget(KEY, len(SECRET), CREATE)  # the secret is the number of semaphores
elif kind == "mqueue":
    queue = libc.mq_open(b"/grader-%(key)d", 0o4102, 0o666, None)  # O_RDWR, O_CREAT, O_NONBLOCK
    libc.mq_send(queue, SECRET, len(SECRET), 0)
