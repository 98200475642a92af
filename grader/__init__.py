"""The course's autograder.

`grader.checks` (pure Python, also runs in the browser) knows every exercise: its
cases, how to run a case against a learner's module, and how to judge the numbers.
`python -m grader` is the trusted side: it never imports learner code, runs each case
in a fresh sandboxed child process and judges the plain numbers that come back.

This file stays import-light so that `grader.checks` imports in Pyodide.
"""
