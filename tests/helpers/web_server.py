"""For the web tests: `vikinger serve` started for real on 127.0.0.1 (a free port chosen by the
server itself, read from its first line; `options`: more flags; `cwd`: its working folder), and
small HTTP helpers over http.client (which sends no Origin, as curl)."""

import http.client
import json
import os
import re
import subprocess
import sys
import time


# The server with another shipped-models folder (vikinger_ref.az_bot.MODELS set, as a test's
# monkeypatch would, in the server's own process): `python -c MODELS_CODE FOLDER serve ...`.
MODELS_CODE = (
    "import sys; from vikinger_ref import az_bot; az_bot.MODELS = sys.argv.pop(1); "
    "from vikinger_fast.cli import main; sys.exit(main(sys.argv[1:]))"
)


class Server:
    def __init__(self, folder, port=0, options=(), cwd=None, models=None):
        self.folder = str(folder)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        start = ["-m", "vikinger_fast.cli"] if models is None else ["-c", MODELS_CODE, str(models)]
        self.process = subprocess.Popen(
            [
                sys.executable,
                *start,
                "serve",
                "--port",
                str(port),
                "--dir",
                self.folder,
                "--hint-iterations",
                "50",
                *options,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=cwd,
        )
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError(
                f"vikinger serve did not start: {line!r} {self.process.stderr.read()!r}"
            )
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"

    def request(self, method, path, body=None, headers=None, raw=None):
        """(status, parsed JSON or text) of one request."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(headers or {})
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(text) if kind.startswith("application/json") else text

    def wait_for_turn(self, game_id, timeout=60):
        """The view once the bots are done (the person's turn or the end)."""
        deadline = time.monotonic() + timeout
        while True:
            status, view = self.request("GET", f"/api/games/{game_id}")
            assert status == 200, view
            if not view["thinking"] and (view["your_turn"] or view["terminal"]):
                return view
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()
