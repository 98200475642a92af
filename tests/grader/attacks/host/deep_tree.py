# Makes its scratch folder as deep as it can before it is stopped: a folder in a folder,
# over and over, so that whatever removes the folder afterwards has to go that deep.
import os

os.chdir(os.environ.get("TMPDIR") or os.path.dirname(os.path.abspath(__file__)))
for _ in range(100_000):
    try:
        os.mkdir("%(name)s")
        os.chdir("%(name)s")
    except OSError:
        break
