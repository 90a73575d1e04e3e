"""`vikinger serve`: a local web app to play the bots in a browser (docs/web.md).

app.py holds the Starlette routes, guard.py the rules of what reaches them (Host, Origin, JSON),
bots.py the bots a request may name, session.py one game and its bots' thread, store.py the games
on disk, explain.py the words for moves, positions and refused moves (shared with `vikinger
play`), serve.py the command; static/ is the page (plain HTML, CSS and JavaScript)."""
