#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
# The grader needs Python 3.10+, for its strongest sandbox bubblewrap, and for the
# similarity report copydetect (requirements/grader.txt, shipped beside this script).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq python3 python3-pip bubblewrap
python3 --version
# run_autograder runs the system python3, so copydetect goes there; an Ubuntu that marks
# its Python as externally managed needs the override (older pips ignore the variable).
cd "$(dirname "${BASH_SOURCE[0]}")"
PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --no-cache-dir -q -r requirements/grader.txt
python3 -c "import copydetect; print('copydetect', copydetect.__version__)"
