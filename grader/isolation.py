"""The names of the isolation levels, here and nowhere else (grader/README.md, "Isolation levels").

    Level.BWRAP    bubblewrap's namespaces (the default where it works)
    Level.UID      a chroot jail and a uid of its own per case (as root, without bubblewrap)
    Level.PROCESS  rlimits and seccomp only: not a sandbox, only when asked for by name
    AUTO           the strongest level that works here, never PROCESS

`--isolation` (python -m grader, the pytest plugin) takes one of CHOICES; so does the
GRADER_ISOLATION environment variable, which `python -m grader` reads when no --isolation
is given (sandbox.detect; the plugin's --isolation defaults to AUTO instead).
"""

import enum

__all__ = ["AUTO", "CHOICES", "ENVIRONMENT", "Level"]


class Level(enum.StrEnum):
    BWRAP = "bwrap"
    UID = "uid"
    PROCESS = "process"


AUTO = "auto"
CHOICES = (AUTO, *Level)
ENVIRONMENT = "GRADER_ISOLATION"
