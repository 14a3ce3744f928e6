"""How the table talks to a bot: in the same process, or to a program over Botzone's protocol.

An agent is sent a request (`send`) and later asked for the response (`receive`), so that the
table can send a request to four bot processes before waiting for any of them. A bot that
fails (crashes, times out, says nothing) raises AgentError from receive(); one later than
the time limit receive() is given raises LateAnswer (the judge's TLE). `seconds` is the last
answer's time, from the request sent to the response read.

ProcessAgent runs a program the way Botzone does, in its simple (line) or JSON interaction.
A program that prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<< after a response stays running and
is sent each later request alone (a JSON string in JSON mode); the first request of each new
game is sent as a full input with turn number 1, so one process can play many games. A
program that exits after its response is started again with the whole game so far, as in
Botzone's traditional mode.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time

from ..bounds import too_deep
from ..errors import ArgumentError, MjfastError

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class AgentError(MjfastError, RuntimeError):
    """The bot did not give a usable response; the message says what happened."""


class LateAnswer(AgentError):
    """The bot answered after the time limit, or not within it (the judge's TLE)."""


def _late(seconds: "float | None", limit: float) -> LateAnswer:
    """seconds: the answer's time, None for no answer by the limit."""
    return LateAnswer(f"TLE: no answer within the {limit:g} s limit" if seconds is None else
                      f"TLE: answered in {seconds:.3f} s, the limit is {limit:g} s")


class InProcessAgent:
    """A bot object with respond(request, started, limit) -> str, called in this process."""

    def __init__(self, bot):
        self.bot = bot
        self._reply: "str | Exception" = ""
        self.seconds = 0.0

    def send(self, request: str, limit: "float | None" = None) -> None:
        started = time.perf_counter()
        try:
            self._reply = self.bot.respond(request, started, limit)
        except Exception as exc:  # a bot's failure is the bot's foul, not the table's crash
            self._reply = exc
        self.seconds = time.perf_counter() - started

    def receive(self, limit: "float | None" = None) -> str:
        if isinstance(self._reply, Exception):
            raise AgentError(f"the bot failed: {type(self._reply).__name__}: {self._reply}")
        if limit is not None and self.seconds > limit:
            raise _late(self.seconds, limit)
        return self._reply

    def close(self) -> None:
        pass


class ProcessAgent:
    """A bot program (argv list) spoken to over pipes; mode "simple" or "json"."""

    def __init__(self, command: list, mode: str = "simple", timeout: float = 30.0, stderr=subprocess.DEVNULL,
                 env: "dict | None" = None):
        if mode not in ("simple", "json"):
            raise ArgumentError(f"mode must be 'simple' or 'json', got {mode!r}")
        self.command, self.mode, self.timeout = list(command), mode, timeout
        self.stderr, self.env = stderr, env
        self.proc: "subprocess.Popen | None" = None
        self.keeps_running = False
        self.requests: list[str] = []
        self.responses: list[str] = []
        self._buffer = b""
        self.sent = 0.0
        self.seconds = 0.0

    def _start(self) -> None:
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, env=self.env, bufsize=0)
        self._buffer = b""

    def _full_input(self) -> str:
        if self.mode == "json":
            return json.dumps({"requests": self.requests, "responses": self.responses}) + "\n"
        lines = [str(len(self.requests))]
        for i, request in enumerate(self.requests):
            lines.append(request)
            if i < len(self.responses):
                lines.append(self.responses[i])
        return "\n".join(lines) + "\n"

    def send(self, request: str, limit: "float | None" = None) -> None:
        """Send the request (`limit`: the time limit the bot is told of, unused: a Botzone
        program keeps its own clock)."""
        self.sent = time.perf_counter()
        if request.startswith("0 "):  # a new game
            self.requests, self.responses = [], []
        self.requests.append(request)
        running = self.proc is not None and self.proc.poll() is None and self.keeps_running
        if running and len(self.requests) > 1:
            text = (json.dumps(request) if self.mode == "json" else request) + "\n"
        else:
            if not running:
                self.close()
                self._start()
            text = self._full_input()
        try:
            self.proc.stdin.write(text.encode())
        except (BrokenPipeError, OSError):
            pass  # receive() reports the bot's end

    def _read_line(self, deadline: float, late: LateAnswer) -> "str | None":
        """The next line of output, None at end of output; raises `late` on timeout."""
        while b"\n" not in self._buffer:
            left = deadline - time.perf_counter()
            if left <= 0:
                self.close(kill=True)  # its answer, if it ever comes, would be read as the next one
                raise late
            with selectors.DefaultSelector() as sel:
                sel.register(self.proc.stdout, selectors.EVENT_READ)
                if not sel.select(left):
                    continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                if self._buffer:
                    line, self._buffer = self._buffer, b""
                    return line.decode(errors="replace")
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode(errors="replace").rstrip("\r")

    def receive(self, limit: "float | None" = None) -> str:
        """The response, read within `limit` seconds of the request sent (default: the
        agent's timeout)."""
        late = LateAnswer(f"no response within {self.timeout:g} s") if limit is None else _late(None, limit)
        deadline = self.sent + (self.timeout if limit is None else limit)
        output: list[str] = []
        while True:
            line = self._read_line(deadline, late)
            if line is None:
                self.keeps_running = False
                self.proc.wait()
                break
            if line.strip() == KEEP_RUNNING:
                self.keeps_running = True
                break
            output.append(line)
        self.seconds = time.perf_counter() - self.sent
        lines = [line for line in output if line.strip()]
        if not lines:
            code = self.proc.poll()
            raise AgentError("the bot gave no response" + (f" (exit status {code})" if code else ""))
        response = lines[0].strip()
        if self.mode == "json":
            deep = too_deep(response)
            if deep:
                raise AgentError(f"not a JSON response object: {deep}")
            try:
                response = str(json.loads(response)["response"])
            except (ValueError, KeyError, TypeError):
                raise AgentError(f"not a JSON response object: {response[:60]!r}") from None
        self.responses.append(response)
        return response

    def memory(self) -> "tuple[int, int] | None":
        """(resident, peak resident) kB of the running program (Linux: /proc), else None."""
        if self.proc is None or self.proc.poll() is not None:
            return None
        try:
            with open(f"/proc/{self.proc.pid}/status") as status:
                found = dict(line.split(":", 1) for line in status if line.startswith(("VmRSS", "VmHWM")))
            return int(found["VmRSS"].split()[0]), int(found["VmHWM"].split()[0])
        except (OSError, KeyError, ValueError):
            return None

    def close(self, kill: bool = False) -> None:
        """End the program: its input closed (killed with `kill`, or when it does not end
        within 2 s)."""
        if self.proc is not None:
            if kill:
                self.proc.kill()
            if self.proc.poll() is None:
                self.proc.stdin.close()
                try:
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc.stdout.close()
            self.proc = None
