"""The instructor's pages: the gradebook, a submission, CSV, results JSON, re-grade."""

routes = []
