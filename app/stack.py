"""`softmax-explainer serve --workers N`: a whole class on one machine, nginx in front of N app processes.

    softmax-explainer serve --workers 2 --port 5006 [--address 0.0.0.0] [--allow-websocket-origin HOST:PORT]

One `panel serve` process serialises its sessions (each new one costs it most of a second of CPU), and
`--num-procs` does not balance websocket connections. Here each of N processes (`serve_command`'s, with the
serving rules of app/server.py and one shared session key, so any of them accepts a session id another made)
listens on a loopback port; Debian's nginx listens on `--port` and keeps each visitor on one process by a cookie
(app/data/nginx.conf.in). The same nginx serves the exported lesson, gzipped on the disk, at /explainer.html, the
served pages' explainer scripts (app/page.py write_scripts) at /explainer-static/, and
answers /healthz itself; /liveness is Panel's, from an app process.

A process that dies is started again on its port; its learners see "connection lost", and the page's
"reconnect with this lesson" link lands on a live process. Ctrl-C or SIGTERM stops them all.
"""

import gzip
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path
from urllib.request import urlopen

from .server import SCRIPTS_ROUTE, serve_command

USAGE = ("usage: softmax-explainer serve --workers N [--port 5006] [--address ADDRESS] "
         "[--allow-websocket-origin HOST[:PORT]] [other panel serve options for every process]")
RESTART_PAUSE = 0.5  # seconds between looks at the processes
START_TIMEOUT = 120  # seconds for a process to answer /liveness (it builds one lesson first, --warm)
# What a class needs beyond `serve`'s rules: a closed tab's session freed within seconds instead of Bokeh's
# default (15 s unused, checked every 17 s), Panel's health check, and the address the proxy forwarded for.
CLASS_OPTIONS = ("--unused-session-lifetime", "5000", "--check-unused-sessions", "2000", "--liveness", "--use-xheaders")


class StackError(Exception):
    """The stack cannot start; the message is one line for the terminal."""


def split_args(argv):
    """(workers, port, address, origins, the rest) from `serve --workers N ...`; a StackError when malformed.

    >>> split_args(["--workers", "2", "--port", "8000", "--allow-websocket-origin=course.example.org"])
    (2, 8000, None, ['course.example.org'], [])
    >>> split_args(["--workers", "0"])
    Traceback (most recent call last):
    app.stack.StackError: --workers takes a whole number from 1 to 64, got '0'
    """
    rest, values, origins = [], {"--workers": None, "--port": "5006", "--address": None}, []
    args = iter(argv)
    for arg in args:
        name, eq, value = arg.partition("=")
        if name in (*values, "--allow-websocket-origin"):
            if not eq:
                value = next(args, None)
                if value is None:
                    raise StackError(f"{name} needs a value ({USAGE})")
            if name == "--allow-websocket-origin":
                origins.append(value)
            else:
                values[name] = value
        else:
            rest.append(arg)
    workers, port = values["--workers"], values["--port"]
    if not (workers or "").isdigit() or not 1 <= int(workers) <= 64:
        raise StackError(f"--workers takes a whole number from 1 to 64, got {workers!r}")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise StackError(f"--port takes a port number, got {port!r}")
    return int(workers), int(port), values["--address"], origins, rest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_path():
    """nginx on PATH, or in /usr/sbin, where Debian puts it and a user's PATH often leaves out; None if absent."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


def nginx_config(run, listen, ports):
    """nginx's configuration: app/data/nginx.conf.in with the run folder, the address and the processes."""
    template = resources.files("app").joinpath("data/nginx.conf.in").read_text(encoding="utf-8")
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in ports)
    return template.replace("@RUN@", str(run)).replace("@LISTEN@", listen).replace("@SERVERS@", servers)


def export_lesson(folder):
    """The exported lesson and its gzip beside it (nginx's gzip_static sends the .gz as it is)."""
    from .export import page_html
    from .state import Lesson

    html = page_html(Lesson()).encode("utf-8")
    (folder / "explainer.html").write_bytes(html)
    (folder / "explainer.html.gz").write_bytes(gzip.compress(html, compresslevel=9, mtime=0))
    readable(folder)


def readable(folder):
    """Let any user read `folder` and its files: nginx's workers run as another user when started by root."""
    for f in (folder, *folder.iterdir()):
        f.chmod(0o755 if f.is_dir() else 0o644)


class Stack:
    """The app processes and nginx; `run()` watches them until stopped."""

    def __init__(self, workers, port, address, origins, rest, environ=None):
        self.nginx = nginx_path()
        if self.nginx is None:
            raise StackError("--workers needs nginx (Debian: apt-get install nginx-light)")
        self.env = dict(os.environ if environ is None else environ)
        self.env.setdefault("BOKEH_SECRET_KEY", secrets.token_urlsafe(32))  # one key: any process takes any session
        self.ports = [free_port() for _ in range(workers)]
        self.port, self.address = port, address
        public = [f"{host}:{port}" for host in ("localhost", "127.0.0.1")] + origins
        self.worker_args = [*CLASS_OPTIONS, *(f"--allow-websocket-origin={o}" for o in public), *rest]
        self.run_dir = Path(tempfile.mkdtemp(prefix="softmax-explainer-"))
        self.procs = [None] * workers
        self.proxy = None
        self.scripts = None

    def start_worker(self, i):
        command, env = serve_command(["--address", "127.0.0.1", "--port", str(self.ports[i]), *self.worker_args],
                                     environ=self.env, scripts=self.scripts)
        self.procs[i] = subprocess.Popen(command, env=env)
        say(f"app process {i + 1}: pid {self.procs[i].pid} on 127.0.0.1:{self.ports[i]}")

    def wait_live(self, i):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.procs[i].poll() is not None:
                raise StackError(f"app process {i + 1} stopped at start (exit code {self.procs[i].returncode})")
            try:
                with urlopen(f"http://127.0.0.1:{self.ports[i]}/liveness", timeout=5):
                    return
            except OSError:
                time.sleep(0.2)
        raise StackError(f"app process {i + 1} did not answer within {START_TIMEOUT} s")

    def start(self):
        from .page import write_scripts

        self.run_dir.chmod(0o755)
        # The explainer's scripts, written once for every process (each page links one; nginx sends it).
        self.scripts = write_scripts(self.run_dir / SCRIPTS_ROUTE)
        readable(self.scripts)
        for i in range(len(self.procs)):
            self.start_worker(i)
        static = self.run_dir / "static"
        static.mkdir()
        export_lesson(static)
        for i in range(len(self.procs)):
            self.wait_live(i)
        listen = f"{self.address}:{self.port}" if self.address else str(self.port)
        conf = self.run_dir / "nginx.conf"
        conf.write_text(nginx_config(self.run_dir, listen, self.ports), encoding="utf-8")
        self.proxy = subprocess.Popen([self.nginx, "-c", str(conf), "-p", str(self.run_dir), "-g", "daemon off;"])
        shown = self.address if self.address not in (None, "0.0.0.0") else "localhost"
        say(f"serving a class at http://{shown}:{self.port}/main with {len(self.procs)} processes "
            f"(nginx pid {self.proxy.pid}; the exported lesson at /explainer.html)")

    def run(self):
        while True:
            if self.proxy.poll() is not None:
                raise StackError(f"nginx stopped (exit code {self.proxy.returncode})")
            for i, proc in enumerate(self.procs):
                if proc.poll() is not None:
                    say(f"app process {i + 1} (pid {proc.pid}) stopped with exit code {proc.returncode}; starting it "
                        "again")
                    self.start_worker(i)
            time.sleep(RESTART_PAUSE)

    def stop(self):
        for proc in [self.proxy, *self.procs]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in [self.proxy, *self.procs]:
            if proc is not None:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        shutil.rmtree(self.run_dir, ignore_errors=True)


def say(line):
    print(f"softmax-explainer: {line}", file=sys.stderr, flush=True)


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # a service manager's SIGTERM stops the stack as Ctrl-C does, children first


def main(argv):
    """Serve a class: start the stack and watch it until Ctrl-C or SIGTERM; 0 when stopped, 1 on a failure."""
    try:
        stack = Stack(*split_args(argv))
    except StackError as e:
        say(str(e))
        return 2
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        stack.start()
        stack.run()
    except StackError as e:
        say(str(e))
        return 1
    except KeyboardInterrupt:
        say("stopped")
        return 0
    finally:
        stack.stop()
