"""The seccomp program, read instruction by instruction: what it returns for each call.

A small interpreter of the classic-BPF instructions the filter uses runs it on
seccomp_data for every syscall number of each supported machine, so a wrong jump
offset or a missing number shows here, without a kernel.
"""

import struct

import pytest

from grader import sandbox

ALLOW, EPERM, KILL = 0x7FFF0000, 0x00050001, 0x80000000
# Calls that must stay denied on every machine: new processes, sockets, and io_uring,
# whose rings create sockets (IORING_OP_SOCKET) without the socket() call.
MUST_DENY = {
    "x86_64": {
        "clone": 56,
        "fork": 57,
        "vfork": 58,
        "clone3": 435,
        "socket": 41,
        "io_uring_setup": 425,
    },
    "aarch64": {"clone": 220, "clone3": 435, "socket": 198, "io_uring_setup": 425},
}
# A few calls Python needs all the time: read, write, mmap, exit_group.
MUST_ALLOW = {"x86_64": [0, 1, 9, 231], "aarch64": [63, 64, 222, 94]}


def run_filter(program, arch, nr):
    """The action the program returns for syscall `nr` on `arch` (classic BPF, seccomp_data)."""
    data = struct.pack("<iI", nr, arch) + bytes(48)  # nr, arch, instruction pointer, args
    code = [struct.unpack("HBBI", program[i : i + 8]) for i in range(0, len(program), 8)]
    acc, pc = 0, 0
    for _ in range(len(code) + 1):  # no loops in BPF: every jump goes forward
        op, jt, jf, k = code[pc]
        if op == 0x20:  # BPF_LD | BPF_W | BPF_ABS
            acc = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif op == 0x15:  # BPF_JMP | BPF_JEQ | BPF_K
            pc += 1 + (jt if acc == k else jf)
        elif op == 0x35:  # BPF_JMP | BPF_JGE | BPF_K
            pc += 1 + (jt if acc >= k else jf)
        elif op == 0x06:  # BPF_RET | BPF_K
            return k
        else:
            raise AssertionError(f"unexpected instruction {op:#x} at {pc}")
    raise AssertionError("the program ran off its end")


@pytest.mark.parametrize("machine", sorted(MUST_DENY))
def test_the_filter_denies_exactly_its_calls_and_kills_a_foreign_arch(machine, monkeypatch):
    monkeypatch.setattr(sandbox.platform, "machine", lambda: machine)
    program = sandbox.seccomp_filter()
    audit_arch, denied = sandbox._ARCH[machine]
    assert MUST_DENY[machine].items() <= denied.items()
    for nr in range(1024):
        want = EPERM if nr in denied.values() else ALLOW
        assert run_filter(program, audit_arch, nr) == want, (machine, nr)
    for nr in MUST_ALLOW[machine]:
        assert run_filter(program, audit_arch, nr) == ALLOW
    # x32 numbers (bit 30) are refused; another architecture's calls kill the process.
    assert run_filter(program, audit_arch, 0x40000000 + 41) == EPERM
    assert run_filter(program, 0x40000003, 41) == KILL  # i386
