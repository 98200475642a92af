"""The grader's feedback in the learner's language: every message the grader writes with
`msg(...)` is translated, and the CLI, the verdict and the page's public checks speak
English, Russian or Estonian as asked (English by default, byte for byte as before)."""

import ast
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import translations
from grader import messages
from grader.messages import msg, render
from grader.public import file_error, run_public_checks
from grader.verdict import Expectation, Want, verdict
from tests.i18n.test_catalog import _PLACEHOLDER, po

ROOT = Path(__file__).resolve().parents[2]
LANGS = [lang for lang in translations.LANGUAGES if lang != translations.DEFAULT]
EXERCISE = "day04_manual_backward.py"

# Day 4 with two planted bugs: dL/da is a * f (the factors swapped), and one_step returns L
# at the old point (the forward pass not run again).
BUGGY_DAY4 = (
    (ROOT / "exercises" / EXERCISE)
    .read_text()
    .replace(
        '    raise NotImplementedError(\n        "Day 4: write manual_gradients. Read docs/lessons/'
        'day04_manual_backward.md"\n    )',
        '    return {"L": 1.0, "d": f, "f": a * b + c, "e": f, "c": f, "a": a * f, "b": a * f}',
    )
    .replace(
        '    raise NotImplementedError("Day 4: write one_step. Read docs/lessons/'
        'day04_manual_backward.md")',
        "    return forward(a, b, c, f)",
    )
)
ADVICE = {
    "en": ["the gradient of a product is the OTHER factor", "L did not change"],
    "ru": ["градиент произведения — это ДРУГОЙ множитель", "L не изменилось"],
    "et": ["korrutise gradient on TEINE tegur", "L ei muutunud"],
}


def grader_messages():
    """Every msg("...") of grader/, as written (what Babel extracts with the keyword `msg`)."""
    found = set()
    for path in (ROOT / "grader").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


def test_the_grader_speaks_the_courses_languages():
    assert messages.LANGUAGES == translations.LANGUAGES
    assert messages.DOMAIN == translations.DOMAIN
    assert "msg" in translations.EXTRACT_KEYWORDS
    assert "[python: grader/**.py]" in (ROOT / "babel.cfg").read_text()


@pytest.mark.parametrize("lang", LANGS)
def test_every_grader_message_is_translated_with_the_same_placeholders(lang):
    catalog = {m.id: m.string for m in po(lang) if m.id}
    wanted = grader_messages()
    assert len(wanted) > 40
    for message in sorted(wanted):
        assert catalog.get(message), f"{lang}: the grader's {message!r} has no translation"
        assert set(_PLACEHOLDER.findall(catalog[message])) == set(_PLACEHOLDER.findall(message)), (
            f"{lang}: {catalog[message]!r} has other placeholders than {message!r}"
        )


def test_a_message_is_data_until_it_is_shown():
    setup = msg("a = {a}, b = {b}, c = {c}, f = {f}", a=2.0, b=-3.0, c=10.0, f=0.1 + 0.2)
    data = messages.to_data(setup)
    assert data == {
        "msg": "a = {a}, b = {b}, c = {c}, f = {f}",
        "values": {"a": 2.0, "b": -3.0, "c": 10.0, "f": 0.1 + 0.2},
    }
    assert json.loads(json.dumps(data)) == data and messages.from_data(data) == setup
    # an input as Python writes it, exactly (the verdict's numbers are verdict.fmt's)
    assert render(setup) == "a = 2.0, b = -3.0, c = 10.0, f = 0.30000000000000004"
    assert render(msg("{setup}, step = {step}", setup=setup, step=0.01), "ru").endswith(
        "step = 0.01"
    )
    assert render(msg("not written yet"), "ru") == "ещё не написано"
    assert render("learner text {x}", "ru") == "learner text {x}"  # not a message: as it is


def grade_day4(tmp_path, *args, env=None):
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / EXERCISE).write_text(BUGGY_DAY4)
    run = subprocess.run(
        [sys.executable, "-m", "grader", folder, "--exercise", EXERCISE, "--seed", "1", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", **(env or {})},
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize(
    "args, env, lang",
    [
        (["--lang", "ru"], {}, "ru"),
        (["--lang", "et"], {"LANG": "ru_RU.UTF-8"}, "et"),
        ([], {"LANG": "ru_RU.UTF-8"}, "ru"),
        ([], {"LANG": "C"}, "en"),
        ([], {"LANG": ""}, "en"),
    ],
)
def test_the_cli_gives_its_advice_in_the_language_asked_for(tmp_path, args, env, lang):
    out = grade_day4(tmp_path, *args, env=env)
    for advice in ADVICE[lang]:
        assert advice in out, out
    others = [a for other, said in ADVICE.items() if other != lang for a in said]
    assert not any(a in out for a in others), out


def test_gradescope_json_stays_english_unless_asked(tmp_path):
    results = tmp_path / "results.json"
    grade_day4(tmp_path, "--json", results, env={"LANG": "ru_RU.UTF-8"})
    outputs = " ".join(t["output"] for t in json.loads(results.read_text())["tests"])
    assert all(advice in outputs for advice in ADVICE["en"])


def test_an_unknown_language_is_a_one_line_usage_error():
    run = subprocess.run(
        [sys.executable, "-m", "grader", "--lang", "de"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    last = run.stderr.strip().splitlines()[-1]
    assert "--lang" in last and "'de'" in last and all(f"'{x}'" in last for x in LANGS + ["en"])


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_the_pages_checks_speak_the_pages_language(lang):
    results = run_public_checks(EXERCISE, BUGGY_DAY4, lang=lang)
    said = " ".join(r["message"] for r in results)
    assert not any(r["passed"] for r in results)
    for advice in ADVICE[lang]:
        assert advice in said, said
    english = run_public_checks(EXERCISE, BUGGY_DAY4)
    assert [r["name"] for r in results] == [r["name"] for r in english]
    if lang == "en":
        assert results == english


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_a_file_that_does_not_run_is_said_so_in_the_pages_language(lang):
    results = run_public_checks(EXERCISE, "def broken(:\n", lang=lang)
    why = file_error(results[0]["message"], lang)
    assert why is not None and "SyntaxError" in why
    assert file_error("anything else", lang) is None


def test_the_sites_grader_wheel_renders_the_messages_alone(tmp_path, public_cases_file):
    """The files the site's grader wheel holds (PUBLIC_GRADER, the catalogs, the public
    cases), alone on the path: the page's checks answer in Russian, with nothing of the
    trusted side or of the repository's locales/ to lean on."""
    from hooks import site_build
    from hooks.wheels import package_files

    files = package_files(ROOT, "grader", only=site_build.PUBLIC_GRADER)
    files.update(site_build.grader_catalogs(ROOT))
    files["grader/public_cases.json"] = public_cases_file.read_bytes()
    assert {"grader/locales/ru/LC_MESSAGES/course.mo", "grader/messages.py"} <= set(files)
    assert not any(name.startswith("grader/checks/") for name in files)
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    script = (
        "import json, sys\n"
        "sys.path.insert(0, '.')\n"
        "import grader\n"
        "assert grader.__file__.startswith(sys.argv[2]), grader.__file__\n"
        "from grader.public import run_public_checks\n"
        "results = run_public_checks(sys.argv[1], sys.stdin.read(), lang='ru')\n"
        "assert 'grader.checks' not in sys.modules and 'translations' not in sys.modules\n"
        "print(json.dumps([r['message'] for r in results], ensure_ascii=False))\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", script, EXERCISE, str(tmp_path)],
        input=BUGGY_DAY4,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": os.environ.get("PATH", "")},
    )
    assert run.returncode == 0, run.stderr
    said = " ".join(json.loads(run.stdout))
    assert all(advice in said for advice in ADVICE["ru"]), said


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_number_that_did_not_come_back_is_named_as_the_learner_reads_it(lang):
    """A key that must be unique ("x0") has a label in words; "no value came back" says the
    label in the reader's language, as "is …, expected …" does, never the bare key."""
    label = msg("held-out loss")
    want = Expectation([Want("x0", 2.5, label=label)])
    passed, missing = verdict(want, {}, lang)
    _, wrong = verdict(want, {"x0": 3.0}, lang)
    name = render(label, lang)
    assert not passed and missing.startswith(f"{name}:") and wrong.startswith(name)
    assert "x0" not in missing + wrong


@pytest.mark.parametrize("lang", LANGS)
def test_the_sandboxs_own_words_are_in_the_readers_language(lang):
    """What the sandbox says of a case it stopped or that never reported (grader/sandbox.py),
    and of a case the grader itself failed on (grader/grade.py), in `lang`; the learner's
    own output stays as it was, a value and never a field."""
    from grader.grade import grader_failure
    from grader.sandbox import _no_result

    ended = render(_no_result(ValueError("no result"), -9, b"step {x} %s\nlast line\n"), lang)
    english = render(_no_result(ValueError("no result"), -9, b"step {x} %s\nlast line\n"))
    assert english == (
        "the code ended before the grader got its numbers: it was killed by SIGKILL (too much "
        "memory or CPU time?); did it call exit()? Last output: step {x} %s | last line"
    )
    assert "SIGKILL" in ended and "step {x} %s | last line" in ended and "exit()" in ended
    assert "killed by" not in ended and "Last output" not in ended
    failed = render(grader_failure(KeyError("w"), "day04_manual_backward.py", {"name": "c"}), lang)
    assert "KeyError: 'w'" in failed and "tell your instructor" not in failed


# -- what the grader says around the checks' own messages -----------------------------------

STUB_ERROR = {
    "error": {
        "type": "NotImplementedError",
        "message": "Day 4: write one_step. Read docs/lessons/day04_manual_backward.md",
        "line": 7,
    }
}
SLUG = EXERCISE[:-3]


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_a_stubs_lesson_is_named_as_the_site_in_the_readers_language_names_it(lang):
    """The stub's "Read docs/lessons/day04_...md" (grader/lessons.py): the words, the lesson's
    title and the page's address are those of the site in the reader's language."""
    import course
    from grader.checks import check_module, judge_case

    check = check_module(EXERCISE)
    passed, message = judge_case(check, check.public_cases()[0], STUB_ERROR, EXERCISE, lang)
    assert not passed and "docs/" not in message
    day = course.DAYS[3]
    named = translations.t(lang, "Day {day} · {title}", day=4, title=course.COURSE.title(day, lang))
    folder = "" if lang == "en" else f"{lang}/"
    assert f"{named} " in message and f"({folder}lessons/{SLUG}/#exercise-{SLUG})." in message
    if lang == "en":
        assert message == (
            f"{render(msg('not written yet'))} (line 7 of {EXERCISE}): Day 4: write one_step. "
            f"Read the exercise of Day 4 · {day.title} on the course site "
            f"(lessons/{SLUG}/#exercise-{SLUG})."
        )
    else:
        assert course.COURSE.title(day, lang) != day.title
        assert "Read the exercise" not in message and "course site" not in message, message


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_a_passing_check_says_so_in_the_readers_language(lang):
    solution = (ROOT / "solutions" / EXERCISE).read_text()
    results = run_public_checks(EXERCISE, solution, lang=lang)
    said = {"en": "passed", "ru": "пройдена", "et": "läbitud"}[lang]
    assert results and all(r["passed"] and r["message"] == said for r in results)


def _results(statuses):
    tests = [
        {
            "exercise": EXERCISE,
            "name": f"case {n}",
            "public": n % 2 == 0,
            "passed": status == "passed",
            "status": status,
            "message": "" if status == "passed" else "the message",
        }
        for n, status in enumerate(statuses)
    ]
    return {
        "exercises": [EXERCISE],
        "tests": tests,
        "isolation": "bwrap",
        "sha256": "0" * 64,
        "seed": 1,
        "seconds": 1.0,
        "similarity": [],
    }


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_the_reports_marks_and_tags_are_in_the_readers_language(lang):
    from grader import report

    text = report.text(_results(["passed", "failed", "error", "passed"]), "sub", lang)
    marks = {
        "en": ["  pass  [public] case 0", "  FAIL  [hidden] case 1", "  ERROR [public] case 2"],
        "ru": [
            "  пройден    [открытый] case 0",
            "  НЕ ПРОЙДЕН [скрытый] case 1",
            "  СБОЙ       [открытый] case 2",
        ],
        "et": [
            "  läbis      [avalik] case 0",
            "  EI LÄBINUD [peidetud] case 1",
            "  TÕRGE      [avalik] case 2",
        ],
    }[lang]
    lines = text.splitlines()
    assert all(line in lines for line in marks), text
    # the report's sentences name the marks and tags as its lines show them
    said = {"en": ("ERROR", "[hidden]", "[public]"), "ru": ("СБОЙ", "[скрытый]", "[открытый]")}
    said["et"] = ("TÕRGE", "[peidetud]", "[avalik]")
    error, hidden, public = said[lang]
    first, second, third = lines[1], lines[2], lines[-2]
    assert hidden in first and public in second and f"{error} " in third, text
    if lang != "en":
        assert not any(w in text for w in ("pass ", "FAIL", "ERROR", "[hidden]", "[public]"))


NOTEBOOK_SAYS = {
    "en": ("0 of {n} checks passed.", "See the exercise section of the lesson", "There is no"),
    "ru": ("Пройдено проверок: 0 из {n}.", "Посмотрите раздел урока с упражнением", "Файла "),
    "et": ("{n} kontrollist läbitud 0.", "Vaata tunni harjutuse jaotist", "Faili "),
}


@pytest.mark.parametrize("lang", translations.LANGUAGES)
def test_a_notebooks_check_cell_speaks_the_notebooks_language(lang, tmp_path, capsys):
    """grader.notebook in `lang`, as a translated notebook's check cell asks for it
    (tools/notebooks.py writes `check("dayNN_x.py", lang="ru")` there)."""
    from grader import notebook
    from tools import notebooks

    cell = dict(notebooks.exercise_cells(EXERCISE, lang))["check"]
    assert cell.endswith(f'check("{EXERCISE}")' if lang == "en" else f', lang="{lang}")')
    passed_line, see, missing = NOTEBOOK_SAYS[lang]
    notebook.check(EXERCISE, tmp_path, lang)
    out = capsys.readouterr().out
    assert out.startswith(missing) and f"`%%writefile {EXERCISE}`" in out, out
    stub = (ROOT / "exercises" / EXERCISE).read_text()
    (tmp_path / EXERCISE).write_text(stub)
    notebook.check(EXERCISE, tmp_path, lang)
    out = capsys.readouterr().out
    n = len(run_public_checks(EXERCISE, stub))
    assert out.startswith(passed_line.format(n=n) + "\n"), out
    assert f"{see} ({SLUG})" in out and "Read docs/lessons" not in out, out
    broken = notebook.report(run_public_checks(EXERCISE, "def broken(:\n", lang=lang), lang)
    assert broken.count("SyntaxError") == 1 and broken.count("✗") == n
    if lang == "en":
        assert f"Your file did not run, so none of its {n} checks could run." in broken
    else:
        assert "did not run" not in broken and "checks passed" not in out


# -- the cases' names, and the words of the sandbox and the child ------------------------


def _case_names(seeds=range(5)):
    """Every case name of every exercise: the public cases and the hidden ones of `seeds`."""
    from grader.checks import EXERCISES, check_module

    names = set()
    for exercise in EXERCISES:
        check = check_module(exercise)
        names.update(c["name"] for c in check.public_cases())
        for seed in seeds:
            names.update(c["name"] for c in check.hidden_cases(random.Random(seed)))
    return names


@pytest.mark.parametrize("lang", LANGS)
def test_every_case_name_is_translated(lang):
    """A case's name is an id (English in the case, the results, pytest's ids); the catalog
    holds it (tools/catalog.py extracts the names) so that the reports show it in `lang`."""
    catalog = {m.id: m.string for m in po(lang) if m.id}
    names = _case_names()
    assert len(names) > 400
    untranslated = sorted(n for n in names if not catalog.get(n))
    assert not untranslated, (
        f"{lang}: {len(untranslated)} case names untranslated: {untranslated[:5]}"
    )
    assert all(messages.case_name(n, lang) == catalog[n] for n in names)
    assert all(messages.case_name(n) == n for n in names)


NAME = "the lesson's point a = 2, b = -3, c = 10, f = -2"  # day 4's first public case


@pytest.mark.parametrize("lang", LANGS)
def test_a_case_name_is_an_id_shown_in_the_readers_language(lang, tmp_path, monkeypatch):
    """The results keep the English name; the report, Gradescope's tests, a notebook's check
    cell and the page's Check show it in `lang`."""
    import grader.public as public
    from grader import notebook, report
    from grader.checks import published_cases
    from web import cellrun

    shown = messages.case_name(NAME, lang)
    assert shown != NAME
    results = {
        "exercises": [EXERCISE],
        "tests": [
            {"exercise": EXERCISE, "name": NAME, "public": True, "passed": True,
             "status": "passed", "message": ""},
        ],
        "isolation": "bwrap", "sha256": "0" * 64, "seed": 1, "seconds": 1.0, "similarity": [],
    }  # fmt: skip
    text = report.text(results, "sub", lang)
    assert shown in text and NAME not in text
    graded = report.gradescope(results, lang)["tests"][0]["name"]
    assert shown in graded and NAME not in graded
    assert results["tests"][0]["name"] == NAME
    said = notebook.report([{"name": NAME, "passed": True, "message": ""}], lang)
    assert said.endswith(f"✓ {shown}")

    cases = tmp_path / "public_cases.json"
    cases.write_text(json.dumps({EXERCISE: published_cases([EXERCISE])[EXERCISE]}))
    monkeypatch.setattr(public, "CASES_FILE", cases)
    public._shipped.cache_clear()
    try:
        answer = json.loads(cellrun.check_exercise(EXERCISE, BUGGY_DAY4, lang))
    finally:
        public._shipped.cache_clear()
    first = answer["checks"][0]
    assert (first["name"], first["label"]) == (NAME, shown)
    assert all(c["label"] == messages.case_name(c["name"], lang) for c in answer["checks"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_report_the_child_spoiled_is_said_in_the_readers_language(lang):
    """The protocol's reason (grader/protocol.py) inside the sandbox's message is a message
    too: in `lang`, whatever the reason; its English (str) as before."""
    from grader import protocol
    from grader.sandbox import _no_result

    for data in (b'{"nonce": "n", "outcome": {}}\n', b"1\n2\n", b"not json\n"):
        with pytest.raises(protocol.ProtocolError) as caught:
            protocol.decode_result(data, "m")
        reason = caught.value.message
        assert str(caught.value) == render(reason)
        said = render(_no_result(caught.value, 1, b""), lang)
        assert render(reason, lang) in said and render(reason) not in said, said


@pytest.mark.parametrize("lang", LANGS)
def test_what_came_back_instead_of_a_number_is_said_in_the_readers_language(lang):
    """A Value, a bool, a float subclass or a huge int where a float belongs
    (grader/runners/__init__.py) is named in `lang`; the key by its label; the child's own
    words for sys.exit() too."""
    from grader.verdict import Want, error_message, judge_outcome

    expectation = Expectation([Want("slope", 1.0, label=msg("slope"))])
    for reason in (
        "a Value object",
        "a bool (True)",
        "a float subclass (F)",
        "an int too large for a float",
    ):
        outcome = {"values": {}, "invalid": {"slope": reason}}
        _, english = judge_outcome(expectation, outcome, EXERCISE)
        _, said = judge_outcome(expectation, outcome, EXERCISE, lang)
        assert reason in english and reason not in said, said
        assert said.startswith(render(msg("slope"), lang))
    _, other = judge_outcome(
        expectation, {"values": {}, "invalid": {"slope": "{x}"}}, EXERCISE, lang
    )
    assert "{x}" in other  # anything else the child says is shown as it is, never a field
    exited = {"type": "SystemExit", "message": "your code called sys.exit() or exit()", "line": 0}
    said = error_message(exited, EXERCISE, lang)
    assert said.endswith(render(msg("your code called sys.exit() or exit()"), lang))
    assert "your code called" not in said


@pytest.mark.parametrize("lang", LANGS)
def test_the_pytest_plugins_refusal_is_in_the_readers_language(lang):
    from grader.pytest_plugin import grade_job
    from grader.submission import Rejected

    status, said = grade_job(("day04_manual_backward.py", {}), Rejected("why"), lang)
    assert status == "failed" and said.endswith("why") and "not graded" not in said
    _, english = grade_job(("day04_manual_backward.py", {}), Rejected("why"))
    assert english == "the submission was not graded: why"


@pytest.mark.parametrize("lang", LANGS)
def test_why_a_submission_was_refused_is_in_the_readers_language(lang, tmp_path):
    """grader/submission.py's reasons: in `lang` in the report and Gradescope's results, the
    learner's file name a value in them; str() of the refusal stays the English."""
    from grader import report
    from grader.submission import Rejected, load

    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "notes.txt").write_text("x")
    (folder / "day99_x.py").write_text("x")
    with pytest.raises(Rejected) as caught:
        load(folder)
    english = str(caught.value)
    assert english == render(caught.value.message)
    assert english.startswith("day99_x.py is not an exercise of this course.")
    text = report.rejected_text(caught.value.message, "work", lang)
    graded = report.gradescope_rejected(caught.value.message, [EXERCISE], "bwrap", lang)
    said = render(caught.value.message, lang)
    assert said != english and "day99_x.py" in said and "A submission holds" not in said
    assert said in text and said in graded["output"] and graded["tests"][0]["output"] == said


@pytest.mark.parametrize("lang", LANGS)
def test_a_case_the_machine_could_not_run_is_said_in_the_readers_language(lang, monkeypatch):
    """A case folder that cannot be staged (grader/jail.py) comes back as an error whose
    reason is a message: in `lang` where grade.judge renders it, English in str()."""
    from grader.grade import judge
    from grader.jail import Jail
    from grader.sandbox import Sandbox

    def full_disk(self, uid, files):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Jail, "_stage", full_disk)
    jail = Jail.__new__(Jail)
    sandbox = Sandbox.__new__(Sandbox)
    monkeypatch.setattr(sandbox, "_run", lambda *a: jail.stage(1, {}), raising=False)
    result = sandbox.run(EXERCISE, b"", {}, False)
    status, english = judge(EXERCISE, {}, result)
    _, said = judge(EXERCISE, {}, result, lang)
    assert status == "error" and "No space left on device" in english + said
    assert english.startswith("the case could not be run: could not prepare the case's folder")
    assert "could not" not in said
