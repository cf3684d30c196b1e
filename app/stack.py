"""`softmax-explainer serve --workers N`: a whole class on one machine, nginx in front of N app processes.

    softmax-explainer serve --workers 2 --port 5006 [--address 0.0.0.0] [--allow-websocket-origin HOST:PORT]

One `panel serve` process serialises its sessions (each new one costs it most of a second of CPU), and
`--num-procs` does not balance websocket connections. Here each of N processes (`serve_command`'s, with the
serving rules of app/server.py and one shared session key, so any of them accepts a session id another made)
listens on a loopback port; Debian's nginx listens on `--port` (on the loopback too, unless `--address` opens it)
and keeps each visitor on one process by a cookie (app/data/nginx.conf.in). The same nginx serves the exported
lesson, gzipped on the disk, at /explainer.html, the served pages' explainer scripts (app/page.py write_scripts) at
/explainer-static/, and answers /healthz itself; /liveness is Panel's, from an app process.

A process that dies is started again on its port; its learners see "connection lost", and the page's
"reconnect with this lesson" link lands on a live process. Ctrl-C or SIGTERM stops them all; on Linux they also
die with a stack that is killed outright, and the next start removes what such a stack left (app/server.py
`run_folder`).
"""

import ctypes
import gzip
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from importlib import resources
from typing import NamedTuple
from urllib.request import urlopen

from .server import SCRIPTS_ROUTE, run_folder, serve_command

USAGE = ("usage: softmax-explainer serve [--workers N] [--port 5006] [--address 127.0.0.1] "
         "[--allow-websocket-origin HOST[:PORT]] [other panel serve options, for every process]")
RESTART_PAUSE = 0.5  # seconds between looks at the processes
START_TIMEOUT = 120  # seconds for a process to answer /liveness (it builds one lesson first, --warm)
PROXY_TIMEOUT = 10  # seconds for nginx to answer /healthz
# What a class needs beyond `serve`'s rules: a closed tab's session freed within seconds instead of Bokeh's
# default (15 s unused, checked every 17 s), Panel's health check, and the address the proxy forwarded for.
CLASS_OPTIONS = ("--unused-session-lifetime", "5000", "--check-unused-sessions", "2000", "--liveness", "--use-xheaders")
LOOPBACK = "127.0.0.1"  # where `serve` listens unless --address says otherwise: a class is let in on purpose
PR_SET_PDEATHSIG = 1  # Linux prctl(2)
GRAVE = re.compile(r"\[(?:emerg|alert|crit)\] \d+#\d+: (.*)")  # an nginx message that stops it, after its pid#tid


def answers(url, within, check, timeout, pause):
    """Whether `url` answers within `within` seconds, asked every `pause` seconds; `check()` runs before each try
    (it raises when what should answer has stopped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        check()
        try:
            with urlopen(url, timeout=timeout):
                return True
        except OSError:
            time.sleep(pause)
    return False


class StackError(Exception):
    """The stack cannot start; the message is one line for the terminal."""


class ServeOptions(NamedTuple):
    workers: int | None  # None: one process, no nginx
    port: int
    address: str
    origins: list
    rest: list  # for panel serve, as given


def shown(value):
    """A refused value as the line shows it: its first characters and its length when long.

    >>> shown("²"), shown("9" * 50)
    ("'²'", "'99999999999999999999'… (50 characters)")
    """
    return repr(value) if len(value) <= 20 else f"{value[:20]!r}… ({len(value)} characters)"


def whole(name, value, low, high, what):
    """`value` as a whole number from `low` to `high`, written in ASCII digits (`str.isdigit` takes '²' and '٣')."""
    if not (value.isascii() and value.isdigit() and len(value) <= 5 and low <= int(value) <= high):
        raise StackError(f"{name} takes {what}, got {shown(value)}")
    return int(value)


def split_args(argv):
    """The options `serve` reads itself (`--workers`, `--port`, `--address`, `--allow-websocket-origin`) and the rest,
    for panel serve; a StackError, one line, when one is malformed or given twice. `--address` is the loopback unless
    given.

    >>> split_args(["--workers", "2", "--port", "8000", "--allow-websocket-origin=course.example.org"])
    ServeOptions(workers=2, port=8000, address='127.0.0.1', origins=['course.example.org'], rest=[])
    >>> split_args(["--show"]).workers is None
    True
    >>> split_args(["--workers", "0"])
    Traceback (most recent call last):
    app.stack.StackError: --workers takes a whole number from 1 to 64, got '0'
    >>> split_args(["--port", "5006", "--port=5007"])
    Traceback (most recent call last):
    app.stack.StackError: --port is given more than once: give it once
    """
    rest, values, origins = [], {}, []
    args = iter(argv)
    for arg in args:
        name, eq, value = arg.partition("=")
        if name not in ("--workers", "--port", "--address", "--allow-websocket-origin"):
            rest.append(arg)
            continue
        if not eq:
            value = next(args, None)
            if value is None:
                raise StackError(f"{name} needs a value ({USAGE})")
        if name == "--allow-websocket-origin":
            origins.append(value)
        elif name in values:
            raise StackError(f"{name} is given more than once: give it once")
        else:
            values[name] = value
    workers = values.get("--workers")
    if workers is not None:
        workers = whole("--workers", workers, 1, 64, "a whole number from 1 to 64")
    port = whole("--port", values.get("--port", "5006"), 1, 65535, "a port number from 1 to 65535")
    address = values.get("--address", LOOPBACK)
    if not address or not address.isascii() or not address.isprintable() or " " in address:
        raise StackError(f"--address takes an address to listen on, got {shown(address)}")
    return ServeOptions(workers, port, address, origins, rest)


def die_with(parent, signum=signal.SIGTERM):
    """A Popen preexec_fn: the child gets `signum` when process `parent` (the stack's) dies, even by SIGKILL (Linux),
    so that neither nginx nor an app process outlives it holding a port. Elsewhere the next start stops a stale
    nginx (app/server.py `run_folder`)."""

    def preexec():
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum)
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:  # it died before prctl
            os._exit(1)

    return preexec


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
        self.run_dir = run_folder(say)
        self.procs = [None] * workers
        self.proxy = None
        self.proxy_log = self.run_dir / "nginx.log"
        self.proxy_told = 0  # how much of nginx's log has reached the terminal
        self.scripts = None

    def start_worker(self, i):
        command, env = serve_command(["--address", LOOPBACK, "--port", str(self.ports[i]), *self.worker_args],
                                     environ=self.env, scripts=self.scripts)
        # An app process left alone has nothing to finish (its sessions went with the proxy): SIGKILL is certain.
        self.procs[i] = subprocess.Popen(command, env=env, preexec_fn=die_with(os.getpid(), signal.SIGKILL))
        say(f"app process {i + 1}: pid {self.procs[i].pid} on {LOOPBACK}:{self.ports[i]}")

    def wait_live(self, i):
        def alive():
            if self.procs[i].poll() is not None:
                raise StackError(f"app process {i + 1} stopped at start (exit code {self.procs[i].returncode})")

        if not answers(f"http://{LOOPBACK}:{self.ports[i]}/liveness", START_TIMEOUT, alive, timeout=5, pause=0.2):
            raise StackError(f"app process {i + 1} did not answer within {START_TIMEOUT} s")

    def start(self):
        self.run_dir.chmod(0o755)
        # nginx first, before Bokeh is imported or anything written: a port it cannot have is said at once. It
        # reads the files it sends when they are asked for, and the class is told its address only at the end.
        host = f"[{self.address}]" if ":" in self.address else self.address  # IPv6 is bracketed before its port
        conf = self.run_dir / "nginx.conf"
        conf.write_text(nginx_config(self.run_dir, f"{host}:{self.port}", self.ports), encoding="utf-8")
        # nginx's own messages go to a file this process relays (`check_proxy`): its last line says why it stopped.
        with self.proxy_log.open("wb") as log:
            self.proxy = subprocess.Popen([self.nginx, "-c", str(conf), "-p", str(self.run_dir), "-g", "daemon off;"],
                                          stderr=log, preexec_fn=die_with(os.getpid()))
        self.wait_proxy(host)
        from .page import write_scripts

        # The explainer's scripts, written once for every process (each page links one; nginx sends it).
        self.scripts = write_scripts(self.run_dir / SCRIPTS_ROUTE)
        readable(self.scripts)
        static = self.run_dir / "static"
        static.mkdir()
        export_lesson(static)
        for i in range(len(self.procs)):
            self.start_worker(i)
        for i in range(len(self.procs)):
            self.wait_live(i)
        shown_host = self.address if self.address != "0.0.0.0" else "localhost"
        say(f"serving a class at http://{shown_host}:{self.port}/main with {len(self.procs)} processes "
            f"(nginx pid {self.proxy.pid}; the exported lesson at /explainer.html)")

    def wait_proxy(self, host):
        """Until nginx answers /healthz; a StackError that says why when it stops first."""
        if self.address in ("0.0.0.0", "::"):
            host = LOOPBACK if self.address == "0.0.0.0" else "[::1]"
        if not answers(f"http://{host}:{self.port}/healthz", PROXY_TIMEOUT, self.check_proxy, timeout=2, pause=0.1):
            raise StackError(f"nginx did not answer on port {self.port} within {PROXY_TIMEOUT} s")

    def check_proxy(self):
        """Relay what nginx wrote; a StackError with its last line when it has stopped."""
        with self.proxy_log.open("rb") as log:
            log.seek(self.proxy_told)
            new = log.read()
        self.proxy_told += len(new)
        if new:
            sys.stderr.write(new.decode("utf-8", "replace"))
            sys.stderr.flush()
        if self.proxy.poll() is not None:
            # Its first grave line is the cause ("bind() to 127.0.0.1:5006 failed (98: Address already in use)"), which
            # it repeats while it retries, then says "still could not bind()".
            text = self.proxy_log.read_text(encoding="utf-8", errors="replace")
            why = [m.group(1) for m in GRAVE.finditer(text)] or text.strip().splitlines()[-1:]
            raise StackError(f"nginx stopped (exit code {self.proxy.returncode}){''.join(f': {w}' for w in why[:1])}")

    def run(self):
        while True:
            self.check_proxy()
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


def main(options):
    """Serve a class (`split_args`'s options, with workers): start the stack and watch it until Ctrl-C or SIGTERM;
    0 when stopped, 1 on a failure."""
    try:
        stack = Stack(*options)
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
