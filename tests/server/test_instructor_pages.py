"""The instructor's pages in Russian and Estonian: every word through the course's catalog,
the language chosen as the learner's pages choose it, kept on the links when ?lang= chose
it, and the re-grade's live progress text in the page's language."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sqlalchemy import select

from server import people
from server.models import Course, Deadline, Regrade, Submission, User, now

from . import test_gradebook
from .test_gradebook import ADD_MUL, SCRIPT_NAME, VALUE, World
from .test_pages import HOSTILE

world = test_gradebook.world  # the gradebook tests' class: a teacher and five learners

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
# Words that are code or a format's name, not the page's own words.
NOT_WORDS = {"UTC", "JSON", "CSV", "copydetect", "engine", "pip", "install", "requirements"}
SAME_IN_ESTONIAN = {"server", "see"}  # "Kursuse server", "ava see" (open it)


class Visible(HTMLParser):
    """What a reader meets on a page: its text (outside code, the learner's file and the
    grader's report), the labels a screen reader says, and the script's patterns; its links."""

    SAID = ("aria-label", "title", "alt", "data-done-of")

    def __init__(self, html: str):
        super().__init__()
        self.texts: list[str] = []
        self.links: list[str] = []
        self.attrs: dict[str, str] = {}
        self._quiet = 0  # inside <code>, <pre>, <script>, <time>
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("code", "pre", "script", "style", "time"):
            self._quiet += 1
        if tag == "a":
            self.links.append(attrs.get("href") or "")
        if tag == "form":
            self.links.append(attrs.get("action") or "")
        if tag == "html":
            self.attrs["lang"] = attrs.get("lang", "")
        for name, value in attrs.items():
            if name in self.SAID or name.startswith("data-graded-"):
                self.texts.append(value or "")
                self.attrs[name] = value or ""

    def handle_endtag(self, tag):
        if tag in ("code", "pre", "script", "style", "time"):
            self._quiet -= 1

    def handle_data(self, data):
        if not self._quiet:
            self.texts.append(data)


def data_of(w: World) -> list[str]:
    """The names, logins, class names and exercises the pages show: data, never translated."""
    with w.db.session() as s:
        users = s.scalars(select(User)).all()
        courses = s.scalars(select(Course)).all()
        data = [u.name for u in users] + [u.login for u in users] + [c.name for c in courses]
    return sorted(data + [ADD_MUL, VALUE, "day07_mlp.py"], key=len, reverse=True)


def english_left(html: str, data: list[str]) -> list[str]:
    text = " ".join(Visible(html).texts)
    for item in [*data, "{done}", "{total}"]:
        text = text.replace(item, " ")
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NOT_WORDS]


def fill(w: World) -> dict[str, str]:
    """A class with every kind of cell, deadline and re-grade; {page: its path}."""
    a1 = w.submit("ada", ADD_MUL, minutes=1, state="graded", score=1.0, max_score=3.0)
    a2 = w.submit(
        "ada",
        ADD_MUL,
        minutes=2,
        state="graded",
        score=2.4,
        raw_score=3.0,
        max_score=3.0,
        late=True,
        attempts=2,
    )
    engine = {"exercise": ADD_MUL, "match": "engine/value.py", "share": 0.9}
    g1 = w.submit(
        "grace",
        ADD_MUL,
        minutes=4,
        state="graded",
        score=3.0,
        max_score=3.0,
        results={"tests": [], "similarity": [engine]},
    )
    w.submit("grace", ADD_MUL, minutes=5, state="queued")
    w.submit("grace", VALUE, minutes=6, state="error", feedback="the grader failed")
    queued = w.submit("script", VALUE, minutes=7, state="grading")
    with w.db.session() as s:
        for i, policy in enumerate(("accept", "penalty", "refuse")):
            s.add(
                Deadline(
                    class_id=w.course,
                    exercise=[ADD_MUL, VALUE, "day07_mlp.py"][i],
                    due_at=now(),
                    late_policy=policy,
                    penalty_percent=20,
                )
            )
        old, new = Regrade(class_id=w.course, exercise=ADD_MUL, total=2), None
        s.add(old)
        s.flush()
        new = Regrade(class_id=w.course, exercise=ADD_MUL, total=5)
        s.add(new)
        s.flush()
        ids = old.id, new.id
    return {
        "home": "/instructor/",
        "gradebook": f"/instructor/classes/{w.course}",
        "latest": f"/instructor/submissions/{a2}",
        "older": f"/instructor/submissions/{a1}",
        "similar": f"/instructor/submissions/{g1}",
        "waiting": f"/instructor/submissions/{queued}",
        "overtaken": f"/instructor/regrades/{ids[0]}",
        "running": f"/instructor/regrades/{ids[1]}",
    }


@pytest.mark.parametrize("lang", ["ru", "et"])
def test_every_page_speaks_the_language_with_only_data_left_in_english(world, lang):
    paths = fill(world)
    client, _ = world.client("teacher")
    data = data_of(world)
    english_words = set()
    for name, path in paths.items():
        english = set(english_left(client.get(path).text, data))
        english_words |= english
        response = client.get(f"{path}?lang={lang}")
        assert response.status_code == 200, name
        assert Visible(response.text).attrs["lang"] == lang, name
        assert "Accept-Language" in response.headers["vary"], name
        left = english_left(response.text, data)
        # Russian has no Latin word of its own; an Estonian word may be spelt as an English
        # one is ("server"): none of the English page's words is left but those.
        if lang == "et":
            left = sorted(set(left) & english - SAME_IN_ESTONIAN)
        assert left == [], (name, left)
        # The browser's language alone chooses the same page (its links without ?lang=).
        chosen = client.get(path, headers={"Accept-Language": f"{lang}-XX, en;q=0.5"})
        assert chosen.text == response.text.replace(f"?lang={lang}", ""), name
    # The scan sees the English pages' words: it would catch one left behind.
    assert {"Learners", "late", "similar", "queued", "tries", "graded"} <= english_words
    # The CSV is data: English headings and marks whatever the language.
    csv_path = f"/instructor/classes/{world.course}/gradebook.csv"
    assert client.get(f"{csv_path}?lang={lang}").text == client.get(csv_path).text


def _class_of(w: World, learners: int) -> int:
    """A new class the teacher teaches, with `learners` learners; its id."""
    with w.db.session() as s:
        course = people.create_class(s, f"Class of {learners}")
        teacher = s.get(User, w.users["teacher"])
        people.add_existing(s, course, teacher.login, role="instructor")
        for i in range(learners):
            w.users[f"{learners}-{i}"] = people.add_member(s, course, f"Learner {i}").id
        return course.id


def _regrade_with(w: World, done: int, exercise: str) -> int:
    """A re-grade of 5 submissions of `exercise` of which `done` are graded again; its id."""
    with w.db.session() as s:
        job = Regrade(class_id=w.course, exercise=exercise, total=5)
        s.add(job)
        s.flush()
        job_id = job.id
    for i in range(5):
        sub = w.submit("sum", exercise, minutes=i, state="graded" if i < done else "queued")
        with w.db.session() as s:
            s.get(Submission, sub).regrade_id = job_id
    return job_id


FORMS = {
    # count: (its learners, its tries, a re-grade of that many, that many of 5 graded)
    "ru": {
        1: ("1 учащийся", "1 попытка", "1 работа", "Оценена 1 работа из 5"),
        2: ("2 учащихся", "2 попытки", "2 работы", "Оценены 2 работы из 5"),
        5: ("5 учащихся", "5 попыток", "5 работ", "Оценено 5 работ из 5"),
    },
    "et": {
        1: ("1 õppija", "1 katse", "1 esitus", "Hinnatud on 1 esitus 5-st"),
        2: ("2 õppijat", "2 katset", "2 esitust", "Hinnatud on 2 esitust 5-st"),
        5: ("5 õppijat", "5 katset", "5 esitust", "Hinnatud on 5 esitust 5-st"),
    },
    "en": {  # as before the pages had other languages
        1: ("1 learner", "1 try", "1 submission", "1 of 5 graded"),
        2: ("2 learners", "2 tries", "2 submissions", "2 of 5 graded"),
        5: ("5 learners", "5 tries", "5 submissions", "5 of 5 graded"),
    },
}


@pytest.mark.parametrize("lang", ["ru", "et", "en"])
def test_counted_words_take_the_plural_form_of_their_number(world, lang):
    classes = {n: _class_of(world, n) for n in (1, 2, 5)}
    for n, label in ((1, "ada"), (2, "grace"), (5, "script")):
        for i in range(n):
            world.submit(label, ADD_MUL, minutes=i, state="graded", score=1.0, max_score=3.0)
    # Each on an exercise of its own: a newer re-grade of the same one would take it over.
    jobs = {n: _regrade_with(world, n, f"day0{n}_progress.py") for n in (1, 2, 5)}
    with world.db.session() as s:
        s.add_all(Regrade(class_id=world.course, exercise=VALUE, total=n) for n in (1, 2, 5))
    client, _ = world.client("teacher")
    query = f"?lang={lang}"
    book = client.get(f"/instructor/classes/{world.course}{query}").text
    for n, (learners, tries, submissions, graded) in FORMS[lang].items():
        page = client.get(f"/instructor/classes/{classes[n]}{query}").text
        assert f"{learners} ·" in page, (lang, n)
        assert f'<span class="tries">{tries}</span>' in book, (lang, n)
        assert f"{VALUE}, {submissions}</a>" in book, (lang, n)
        regrade = client.get(f"/instructor/regrades/{jobs[n]}{query}").text
        assert f"<span data-progress-text>{graded}</span>" in regrade, (lang, n)


def _run_regrade_script(page_html: str, answers: list[dict]) -> list[tuple[str, str, str]]:
    """regrade.js run in Node against the page's progress box, the server answering each
    poll with the next of `answers`; (status text, bar text, overtaken link) after each."""
    box = Visible(page_html)
    dataset = {
        re.sub(r"-(\w)", lambda m: m.group(1).upper(), name[5:]): value
        for name, value in box.attrs.items()
        if name.startswith("data-graded-") or name == "data-done-of"
    }
    overtaken = re.search(r'<p data-when-overtaken[^>]*>.*?<a href="([^"]*)"', page_html).group(1)
    script = (ROOT / "server" / "static" / "regrade.js").read_text()
    harness = r"""
const [lang, dataset, answers, overtakenHref, script] = JSON.parse(process.argv[1]);
const el = (extra) => Object.assign({ hidden: true, textContent: "" }, extra);
const text = el({}), bar = el({}), done = el({}), link = el({ href: overtakenHref });
const overtaken = el({ querySelector: () => link });
const parts = { "[data-progress-text]": text, progress: bar, "[data-when-done]": done,
  "[data-when-overtaken]": overtaken };
const box = {
  dataset: Object.assign({ progressUrl: "/api/regrades/1" }, dataset),
  querySelector: (q) => parts[q],
};
globalThis.document = {
  querySelector: () => box,
  documentElement: { lang },
  baseURI: "http://127.0.0.1:8000/instructor/regrades/1",
};
const left = answers.slice();
globalThis.fetch = async () => ({ ok: true, json: async () => left.shift() });
const beats = [];
globalThis.setTimeout = (fn) => beats.push(fn);
eval(script);
(async () => {
  const seen = [];
  while (beats.length && left.length) {
    await beats.shift()();
    seen.push([text.textContent, bar.textContent, link.href]);
  }
  console.log(JSON.stringify(seen));
})();
"""
    lang = Visible(page_html).attrs["lang"]
    args = json.dumps([lang, dataset, answers, overtaken, script])
    out = subprocess.run(
        [NODE, "-e", harness, args], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    return [tuple(row) for row in json.loads(out.strip().splitlines()[-1])]


@pytest.mark.skipif(NODE is None, reason="needs Node")
@pytest.mark.parametrize("lang", ["ru", "et", "en"])
def test_the_live_progress_text_is_in_the_page_s_language(world, lang):
    client, _ = world.client("teacher")
    job = _regrade_with(world, 0, VALUE)
    page = client.get(f"/instructor/regrades/{job}?lang={lang}").text
    assert "<script>" not in page  # the page's words reach the script as data, not code
    for n in (1, 2, 5):
        graded = FORMS[lang][n][3]
        (seen,) = _run_regrade_script(page, [{"total": 5, "done": n, "state": "running"}])
        assert seen[0] == graded, (lang, n, seen)
        assert seen[1] == {"ru": f"{n} из 5", "et": f"{n} / 5", "en": f"{n} of 5"}[lang]
    # Overtaken: the link to the newer re-grade keeps the page's ?lang=.
    (seen,) = _run_regrade_script(page, [{"total": 5, "done": 0, "state": "overtaken", "newer": 9}])
    assert seen[2] == f"/instructor/regrades/9?lang={lang}"


def test_the_script_assembles_no_words():
    """Its strings are selectors, keys and addresses: no phrase of its own to show."""
    script = (ROOT / "server" / "static" / "regrade.js").read_text()
    code = "\n".join(line.split("//")[0] for line in script.splitlines())
    strings = re.findall(r'"([^"\n]*)"|`([^`\n]*)`', code)
    phrases = [
        re.sub(r"\$\{[^}]*\}", "N", "".join(pair))
        for pair in strings
        if re.search(r"[A-Za-z]+ [A-Za-z]+", re.sub(r"\$\{[^}]*\}", "N", "".join(pair)))
    ]
    assert phrases == ["use strict"]


@pytest.mark.parametrize("lang", ["ru", "et", "en"])
def test_links_between_the_pages_keep_the_language_lang_chose(world, lang):
    paths = fill(world)
    client, csrf = world.client("teacher")
    for name, path in paths.items():
        links = Visible(client.get(f"{path}?lang={lang}").text).links
        ours = [
            link
            for link in links
            if link.startswith(("/instructor/", "/signin/"))
            and not link.endswith((".csv", ".json"))
        ]
        assert ours, name
        for link in ours:
            assert link.endswith(f"?lang={lang}"), (name, link)
        # Chosen by the browser's language, the links leave it to choose again.
        plain = Visible(client.get(path, headers={"Accept-Language": lang}).text).links
        assert not [link for link in plain if "lang=" in link], name
    # Grading again from a page in that language opens the re-grade's page in it.
    answer = client.post(
        f"/instructor/classes/{world.course}/regrade?lang={lang}",
        data={"csrf": csrf, "exercise": ADD_MUL},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert re.fullmatch(rf"/instructor/regrades/\d+\?lang={lang}", answer.headers["location"])


def test_a_language_the_course_does_not_speak_is_english(world):
    paths = fill(world)
    client, _ = world.client("teacher")
    for name, path in paths.items():
        english = client.get(path)
        assert Visible(english.text).attrs["lang"] == "en"
        assert "Accept-Language" in english.headers["vary"]
        for bad in HOSTILE:
            asked = client.get(path, params={"lang": bad})
            assert asked.status_code == 200 and asked.text == english.text, (name, bad[:20])
            if bad != "RU ":  # as a header, a language range: any case, spaces around
                header = client.get(path, headers={"Accept-Language": bad})
                assert header.status_code == 200, (name, bad[:20])
                assert header.text == english.text, (name, bad[:20])


def test_names_in_the_translated_pages_are_escaped(world):
    paths = fill(world)
    client, _ = world.client("teacher")
    for path in (paths["gradebook"], paths["waiting"]):
        page = client.get(f"{path}?lang=ru").text
        assert SCRIPT_NAME not in page and "&lt;script&gt;" in page


def test_plural_samples_are_the_languages_plural_categories():
    """Each sample number is of its CLDR category, and the languages' whole numbers have no
    other category: the script finds a pattern for every count."""
    from babel import Locale

    from server.gradebook import PLURAL_SAMPLES

    for lang, samples in PLURAL_SAMPLES.items():
        rule = Locale.parse(lang).plural_form
        assert {rule(n) for n in range(200)} == set(samples), lang
        for category, n in samples.items():
            assert rule(n) == category, (lang, category)


# --- the refusals of the instructor's pages -------------------------------------------------
# How each is met in a browser (a button of the gradebook, a link followed), its status, and
# what it says in English (its catalog entry); `back` is where its link leads.
NOBODY = "day11_mlp.py"  # an exercise of the course no one in the class submitted


def _regrade_form(exercise: str, token: str | None = None):
    def send(w, client, csrf, ask):
        data = {"csrf": csrf if token is None else token, "exercise": exercise}
        path = f"/instructor/classes/{w.course}/regrade"
        return client.post(path, data=data, follow_redirects=False, **ask)

    return send


def _get(path_of):
    return lambda w, client, csrf, ask: client.get(path_of(w), **ask)


GRADEBOOK = "gradebook"  # back to the class's gradebook
CLASSES = "classes"  # back to the instructor's classes
REFUSED = {
    "unknown exercise": (
        _regrade_form("nope.py"),
        400,
        ("Choose an exercise of the course to grade again.", {}),
        GRADEBOOK,
    ),
    "nobody submitted": (
        _regrade_form(NOBODY),
        400,
        ("No one in this class has submitted {exercise} yet.", {"exercise": NOBODY}),
        GRADEBOOK,
    ),
    "bad token": (
        _regrade_form(ADD_MUL, token="0" * 64),
        403,
        ("The page's security token is missing or old: reload the page and try again.", {}),
        GRADEBOOK,
    ),
    "no such class": (
        _get(lambda w: "/instructor/classes/999999"),
        404,
        ("Not found.", {}),
        CLASSES,
    ),
    "another class": (
        _get(lambda w: f"/instructor/classes/{w.other_course}"),
        404,
        ("Not found.", {}),
        CLASSES,
    ),
    "no such submission": (
        _get(lambda w: "/instructor/submissions/no-such-submission"),
        404,
        ("Not found.", {}),
        CLASSES,
    ),
    "no such re-grade": (
        _get(lambda w: "/instructor/regrades/999999"),
        404,
        ("Not found.", {}),
        CLASSES,
    ),
}


def said(english: str, lang: str, **values) -> str:
    """`english` as the course's catalog says it in `lang`, its {fields} filled."""
    from grader.messages import catalog

    text = catalog(lang).gettext(english)
    return text.format(**values) if values else text


def _way_back(w: World, back: str, query: str) -> str:
    return (f"/instructor/classes/{w.course}" if back == GRADEBOOK else "/instructor/") + query


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refused_button_or_link_is_a_page_in_the_page_s_language(world, case, lang):
    send, status, (english, values), back = REFUSED[case]
    fill(world)
    client, csrf = world.client("teacher")
    answer = send(world, client, csrf, {"params": {"lang": lang}})
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("text/html")
    page = Visible(answer.text)
    assert page.attrs["lang"] == lang
    assert escape(said(english, lang, **values)) in answer.text
    # The way back keeps the language ?lang= chose.
    assert _way_back(world, back, f"?lang={lang}") in page.links
    if lang != "en":
        data = [*data_of(world), NOBODY]
        left = english_left(answer.text, data)
        if lang == "et":
            english_page = send(world, client, csrf, {})
            left = sorted(set(left) & set(english_left(english_page.text, data)))
        assert left == [], left
    assert "Accept-Language" in answer.headers["vary"]
    assert "no-store" in answer.headers["cache-control"]


@pytest.mark.parametrize("lang", ["ru", "et"])
@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refusal_in_the_browser_s_language_leads_back_without_lang(world, case, lang):
    send, status, (english, values), back = REFUSED[case]
    fill(world)
    client, csrf = world.client("teacher")
    answer = send(world, client, csrf, {"headers": {"Accept-Language": f"{lang}, en;q=0.5"}})
    assert answer.status_code == status
    page = Visible(answer.text)
    assert page.attrs["lang"] == lang
    assert escape(said(english, lang, **values)) in answer.text
    assert _way_back(world, back, "") in page.links
    assert not [link for link in page.links if "lang=" in link]


@pytest.mark.parametrize("lang", ["en", "ru", "et"])
def test_the_json_routes_still_refuse_in_json(world, lang):
    fill(world)
    client, _ = world.client("teacher")
    answer = client.get("/api/regrades/999999", params={"lang": lang})
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == {"error": said("Not found.", lang)}
    # An instructor's route asked for JSON answers in JSON too.
    asked = client.get(
        "/instructor/submissions/no-such-submission",
        params={"lang": lang},
        headers={"Accept": "application/json"},
    )
    assert asked.status_code == 404 and asked.json() == {"error": said("Not found.", lang)}
