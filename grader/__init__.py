"""The course's autograder.

Three parts, kept apart so that learner code never reaches an answer:
`grader.checks` (trusted) makes every exercise's cases and says what each expects;
`grader.runners` (the child side, staged into every sandbox and shipped to the page)
calls the learner's code on a case and sends back plain numbers; `grader.verdict`
compares the two. `python -m grader` never imports learner code: it runs each case in a
fresh sandboxed child process and judges the numbers that come back.

This file stays import-light so that `grader.public` imports in Pyodide.
"""
