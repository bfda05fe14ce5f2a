"""The Typer application, its shared options, and the one place library errors become `Error: …`.

Exit codes (documented in the README):
  0  success
  1  the gate said no: `--strict` saw a rejection, `--fail-on` met its severity, `check-answer` withheld
  2  usage error (a bad option or argument)
  3  the input file could not be read (missing, unsupported, empty, corrupt, encrypted)
  4  bad proposals, findings or playbook (JSON/YAML that does not match its schema; a custom playbook
     pattern past its time bound)
  5  the document is withheld (not read whole), so nothing is reviewed against it
  6  database error, or a review/finding/version that is not in the store
  7  the audit chain is broken
  8  batch: Dask could not start, or its scheduler could not be reached
  70 an internal error (a bug): one line, no traceback — please report it
  141 stdout was closed early (`citationgate findings 3 | head`): the command stops quietly, as a
     command killed by SIGPIPE does (128 + 13)

One grammar for every command: `--format` takes `table` (the default, for people) or `json` (for pipes:
stdout is nothing but the JSON), plus document formats (md, csv, html, docx) where a command renders one
(`review --out memo.md` takes the format from the extension); choices are
listed in help (`--view <accepted|original>`), arguments are shown as words (`reverify [OPTIONS]
[REVIEW_ID] NEW_FILE`), and help paragraphs are wrapped as paragraphs, never broken mid-sentence.
"""

from __future__ import annotations

import atexit
import gc
import io
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum, StrEnum
from pathlib import Path
from typing import Annotated, Any, ClassVar, NoReturn, TextIO

import typer
from typer import _param_types as typer_params
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption, _TyperParameter
from typer.models import CommandFunctionType

from citationgate.escape import terminal
from citationgate.jsontext import pretty as pretty_json
from ingest.errors import CitationGateError

EXIT_GATE = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for `yes | head`


def quiet_stdout() -> None:
    """stdout's reader has gone: point stdout at /dev/null so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (a test runner's buffer): nothing to flush
        pass


# ── values coerced without pydantic ──────────────────────────────────────────────────────────────
# Typer (≥ 0.29) coerces each parameter's value through a pydantic `TypeAdapter` built on first use, so a
# command pays for importing pydantic and for an adapter per parameter before it does any work — for
# `verify`, more than parsing its 1,000 proposals (`benchmarks/verify_phases.py`). For the plain annotations
# our commands mostly use — text, a flag, a path without checks, a choice from an enum — the adapter only
# wraps a function of Typer's own (`_parse_cli_str`, `coerce_cli_path`, `coerce_cli_choice`); `PlainParam`
# calls it directly. Everything else (numbers, lists, files, a custom parser, `allow_dash`), and every value
# the direct call does not take as it is (not UTF-8, not one of the choices, …), goes through Typer's own
# adapter, so a wrong value gets Typer's error message word for word (`tests/test_cli_params.py` compares
# the two on every parameter of every command).
class PlainParam(RuntimeParam):
    """Typer's coercion of a text, path or choice value, minus the pydantic adapter around it."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return _plain(self.annotation, self.parameter_info, value, param, ctx)
        except Exception:  # Typer's own coercion says what is wrong, in its own words
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)


class _NotPlain(Exception):
    """The value is not one `PlainParam` coerces itself."""


def _plain(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    if isinstance(value, str):
        value.encode("utf-8")  # a lone surrogate (undecodable argv bytes): Typer's adapter decides
    if typer_params.lenient_issubclass(annotation, Enum):
        return typer_params.coerce_cli_choice(
            value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx
        )
    if annotation is bool and type(value) is bool:
        return value  # a flag's own value (Typer skips coercing it, but for `--help`)
    if annotation is str:
        if type(value) is not str:
            raise _NotPlain
        return value  # what `_parse_cli_str` returns for a str, and pydantic's str for it
    if annotation is Path and type(value) is str:
        # `coerce_cli_path` builds a pydantic adapter only to turn the str into a Path
        return typer_params.coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    raise _NotPlain


def plain_param(descriptor: TypeDescriptor) -> RuntimeParam | None:
    """A `PlainParam` for a parameter whose annotation it coerces exactly as Typer does, else None."""
    annotation, info = descriptor.annotation, descriptor.parameter_info
    if descriptor.file_annotation is not None or getattr(info, "parser", None) is not None:
        return None
    if typer_params.lenient_issubclass(annotation, Enum) or annotation in (str, bool):
        return PlainParam(annotation=annotation, parameter_info=info)
    if annotation is Path and not (
        getattr(info, "allow_dash", False) or getattr(info, "path_type", None) is not None
    ):
        return PlainParam(annotation=annotation, parameter_info=info)
    return None


class _Plain(_TyperParameter):
    """A text, path or choice value coerced as Typer does, without pydantic (`citationgate.cli.app`)."""

    def get_runtime_param(self) -> Any:
        if self._runtime_param is None:
            self._runtime_param = plain_param(self.type_descriptor)
        return self._runtime_param or super().get_runtime_param()


class _Argument(_Plain, TyperArgument):
    """An argument shown as a word: `FILE`, `[NEW]`, `PARTS...`, or its metavar exactly as given."""

    def _usage_display_name(self) -> str:
        if self.metavar is not None:
            return self.metavar
        name = self.name.upper() if self.name else "ARG"
        name = name if self.required else f"[{name}]"
        return f"{name}..." if self.nargs != 1 else name

    def _rich_display_name(self) -> str:
        return self._usage_display_name()

    def display_type_rich(self, ctx: Any) -> str | None:
        return None  # the word says what it is; `<path>` / `<list[str]>` add nothing


class _Option(_Plain, TyperOption):
    """An option's value shown as a word (`--db URL`, `--top N`); choices as `<table|json>`."""

    _WORDS: ClassVar[dict[str, str]] = {"<str>": "TEXT", "<path>": "PATH", "<int>": "N", "<float>": "NUMBER"}

    def display_type_rich(self, ctx: Any) -> str | None:
        shown = super().display_type_rich(ctx)
        if shown and shown.startswith("<list[") and shown.endswith("]>"):  # a repeatable option: one value
            shown = f"<{shown[6:-2]}>"
        return self._WORDS.get(shown or "", shown)


class _Command(TyperCommand):
    """A command whose usage line and help read as words (see `_Argument`, `_Option`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = _Argument
            elif type(param) is TyperOption:
                param.__class__ = _Option

    def get_help_option(self, ctx: Any) -> Any:
        return _ours(super().get_help_option(ctx))


def _ours(option: Any) -> Any:
    """`--help` as one of our options, so its flag too is read without pydantic."""
    if type(option) is TyperOption:
        option.__class__ = _Option
    return option


#: command → (module, one-line help): commands whose module is imported only when they are used.
_LAZY: dict[str, tuple[str, str]] = {}


def register_lazy(commands: dict[str, tuple[str, str]]) -> None:
    _LAZY.update(commands)


def _build(name: str) -> Any:
    """The click command `name` from what its module registered on `app` (imported just now)."""
    import typer.main as typer_main

    for info in app.registered_commands:
        if (info.name or typer_main.get_command_name(info.callback.__name__)) == name:  # type: ignore[union-attr]
            return typer_main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=None
            )
    for group in app.registered_groups:
        if group.name == name:
            return typer_main.get_group_from_info(
                group,
                pretty_exceptions_short=app.pretty_exceptions_short,
                suggest_commands=app.suggest_commands,
                rich_markup_mode=None,
            )
    return None


class _EscapingStream(io.TextIOBase):
    """stdout/stderr with every control and bidi-override character shown as a visible escape
    (`citationgate.escape.terminal`): whatever a document, a proposal or a file name holds, nothing it
    says reaches the terminal as a command. JSON output is unchanged for a JSON reader (the escape is
    JSON's own spelling)."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError("text only")  # so Click treats this as the text stream it is
        self._inner.write(terminal(s))
        return len(s)

    def flush(self) -> None:
        self._inner.flush()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._inner, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._inner, "errors", None)

    def isatty(self) -> bool:
        return self._inner.isatty()

    def fileno(self) -> int:
        return self._inner.fileno()

    @property
    def buffer(self) -> Any:
        """The raw byte stream, for a protocol that speaks bytes (the MCP server's stdio): not escaped."""
        return self._inner.buffer

    def writable(self) -> bool:
        return True


@contextmanager
def _escaped_output() -> Iterator[None]:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _EscapingStream(out), _EscapingStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


class _Group(TyperGroup):
    def get_help_option(self, ctx: Any) -> Any:
        return _ours(super().get_help_option(ctx))

    def list_commands(self, ctx: Any) -> list[str]:
        names: list[str] = super().list_commands(ctx)
        if self.name != "citationgate":
            return names
        return list(dict.fromkeys([*_LAZY, *names]))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None and self.name == "citationgate" and cmd_name in _LAZY:
            import importlib

            importlib.import_module(_LAZY[cmd_name][0])
            cmd = _build(cmd_name)
            if cmd is not None:
                self.add_command(cmd, cmd_name)
        return cmd

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The listing of `citationgate --help`, from the registry: it imports no command module."""
        if self.name != "citationgate":
            return super().format_commands(ctx, formatter)
        from typer._click.utils import make_default_short_help

        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in _LAZY and name not in self.commands:
                rows.append((name, make_default_short_help(_LAZY[name][1], limit)))
            else:
                cmd = self.get_command(ctx, name)
                if cmd is not None and not cmd.hidden:
                    rows.append((name, cmd.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
        return None

    def invoke(self, ctx: Any) -> Any:
        with _escaped_output():
            return self._invoke(ctx)

    def _invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # `| head` closed stdout: stop quietly, once, with the conventional status
            quiet_stdout()
            raise typer.Exit(EXIT_BROKEN_PIPE) from None
        except CitationGateError as exc:
            fail(str(exc), code=exc.exit_code)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:
            if type(exc).__module__.startswith(("typer", "click")):
                raise
            fail(f"internal error ({type(exc).__name__}): {exc} — please report this", code=EXIT_INTERNAL)


class _App(typer.Typer):
    """Every command (and sub-app) of ours is a `_Command` in a `_Group`: one grammar throughout."""

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls or _Command, **kwargs)


def sub_app(**kwargs: Any) -> typer.Typer:
    """A sub-command group (`citationgate playbooks …`) that speaks the same grammar."""
    return _App(cls=_Group, rich_markup_mode=None, **kwargs)


app = _App(
    cls=_Group,
    name="citationgate",
    help="Contract review whose every finding is a quote verified at real character offsets.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,  # locals hold contract text; errors are one line anyway
    add_completion=False,
    rich_markup_mode=None,  # help is plain text: "[mcp]" is an extra's name, not markup
)


@app.callback()
def _root() -> None:
    # A callback makes `app` a group even before any command module is imported (they load lazily).
    pass


class _Ending:
    """Whether the running command has said that it leaves nothing for the interpreter's teardown."""

    at_once = False


def end_at_once() -> None:
    """Called by a command whose run leaves nothing behind but what it has written and closed: its
    store's connections closed after each transaction, no file left open, no thread or child process.
    The console script (`citationgate.cli.run`) then ends the process as soon as stdout and stderr are
    flushed, rather than have the interpreter free every object a large run made (~0.1 CPU-s of `verify`
    on a 1 MB contract) — when nothing else could need the interpreter's own exit (`may_end_at_once`)."""
    _Ending.at_once = True


def may_end_at_once() -> bool:
    """The command asked (`end_at_once`), and nothing has registered anything the interpreter's own exit
    would run or wait for: no exit handler (`atexit`: temporary folders, pools, process managers), no
    other thread, and no SQLAlchemy engine whose pooled connections it would close."""
    return (
        _Ending.at_once
        and atexit._ncallbacks() == 0
        and threading.active_count() == 1
        and "sqlalchemy" not in sys.modules
    )


@contextmanager
def few_collections() -> Iterator[None]:
    """For a command that makes many objects and keeps nearly all of them until it ends — `verify`: a
    1 MB contract's index, 1,000 findings and 2,000 audit entries, none of them garbage until the exit —
    the cyclic garbage collector is paused while it works, so it does not walk those live objects again
    and again (141 young, 13 middle and a full collection, ~0.05 CPU-s of such a verify). What it makes
    is freed by reference counting as usual (its peak memory is the same: 74 MB either way); the
    collector is resumed after, and collects whatever cycles there are then."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def fail(message: str, *, code: int) -> NoReturn:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


def check_out_path(path: Path, *, option: str = "--out") -> None:
    """Refuse an output path that cannot be written before any work is done or stored (exit 2)."""
    parent = path.parent if str(path.parent) else Path()
    if path.is_dir():
        fail(f"{option} {path}: is a folder (expected a file to write)", code=EXIT_USAGE)
    if not parent.is_dir():
        fail(f"{option} {path}: the folder {parent} does not exist; nothing was done", code=EXIT_USAGE)
    target = path if path.exists() else parent
    if not os.access(target, os.W_OK):
        fail(f"{option} {path}: not writable; nothing was done", code=EXIT_USAGE)


def info(message: str) -> None:
    """Progress and warnings: stderr, so stdout stays clean for results."""
    typer.echo(message, err=True)


def emit_json(data: Any) -> None:
    sys.stdout.write(pretty_json(data) + "\n")


class Format(StrEnum):
    table = "table"
    json = "json"


class ReportFormat(StrEnum):
    table = "table"
    json = "json"
    md = "md"
    html = "html"
    docx = "docx"
    issues_docx = "issues-docx"
    csv = "csv"


class View(StrEnum):
    """How tracked changes in a DOCX are read: one view, never a mixture."""

    accepted = "accepted"
    original = "original"


ViewOption = Annotated[
    View, typer.Option("--view", help="Tracked changes in a DOCX: read as accepted (default) or original.")
]

NoStoreOption = Annotated[
    bool,
    typer.Option(
        "--no-store", help="A look without writing: nothing is stored (no version, review or audit entry)."
    ),
]

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        envvar="CITATIONGATE_DB",
        help="Database: a path to a SQLite file or any SQLAlchemy URL. "
        "Default: $XDG_DATA_HOME/citationgate/citationgate.db.",
        show_envvar=True,
    ),
]
