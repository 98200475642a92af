# The replay attack: no mathematics, only the published answers. The test puts
# `TABLE = {...}` (this exercise's items of the site's public_cases.json) above this code.
import json
import sys


def _answers(expect):
    values = {}
    for want in expect["wants"]:
        if want["kind"] == "list":
            values[f"len({want['name']})"] = float(len(want["items"]))
            for i, item in enumerate(want["items"]):
                values[f"{want['name']}[{i}]"] = float(item)
        else:
            values[want["key"]] = float(want["value"])
    return values


def _replay(module, case):
    for item in TABLE:  # noqa: F821 -- put above by the test
        if json.dumps(item["case"], sort_keys=True) == json.dumps(case, sort_keys=True):
            return _answers(item["expect"])
    raise NotImplementedError("Day 0: this case is not in the published table")


for _name, _module in list(sys.modules.items()):
    if _name.startswith("runners.day"):
        _module.run = _replay
