# Holds 1 GiB of System V shared memory and leaves it behind: four segments of 256 MiB
# (one at a time fits the memory limit), each attached, touched and detached, never removed.
import ctypes

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
IPC_PRIVATE, IPC_CREAT, SIZE = 0, 0o1000, 256 * 2**20
for _ in range(4):
    shmid = libc.shmget(IPC_PRIVATE, ctypes.c_size_t(SIZE), IPC_CREAT | 0o666)
    if shmid < 0:
        break
    address = libc.shmat(shmid, None, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        break
    ctypes.memset(address, 1, SIZE)
    libc.shmdt(ctypes.c_void_p(address))
