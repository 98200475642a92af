"""The sign-in, join and sign-in-link pages (HTML)."""

routes = []
