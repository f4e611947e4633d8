"""How the sub-commands print: with rich when it is installed (the `cli` extra), else as plain
text, so that every command works without the extra.

Commands print through an `Output`, never through rich directly: lines (with an optional
rich style, ignored in plain text), tables and a progress bar.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["Output", "PlainOutput", "RichOutput", "output"]


class Output(ABC):
    """What a command prints; `PlainOutput` and `RichOutput` are the two ways."""

    @abstractmethod
    def line(self, text: str = "", *, style: str | None = None) -> None:
        """One line of text; `style` is a rich style such as "bold red"."""

    @abstractmethod
    def table(
        self, columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None = None
    ) -> None:
        """A table with a header row."""

    @abstractmethod
    def fields(self, rows: Sequence[tuple[str, str]]) -> None:
        """Names and values, one pair a line, without a header."""

    @abstractmethod
    def progress(self, description: str, total: int) -> AbstractContextManager[Callable[[], None]]:
        """A progress bar over `total` units; the context gives the function that advances
        it by one."""


class PlainOutput(Output):
    """Plain text: tables as aligned columns, no colours, no progress bar."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    @property
    def stream(self) -> TextIO:
        # looked up at each call, so pytest's capture and redirections see the output
        return self._stream if self._stream is not None else sys.stdout

    def line(self, text: str = "", *, style: str | None = None) -> None:
        print(text, file=self.stream)

    def table(
        self, columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None = None
    ) -> None:
        if title:
            print(title, file=self.stream)
        widths = [len(name) for name in columns]
        for row in rows:
            widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]
        for cells in (columns, ["-" * width for width in widths], *rows):
            text = "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))
            print(text.rstrip(), file=self.stream)

    def fields(self, rows: Sequence[tuple[str, str]]) -> None:
        width = max((len(name) for name, _ in rows), default=0)
        for name, value in rows:
            print(f"{name.ljust(width)}  {value}", file=self.stream)

    @contextmanager
    def progress(self, description: str, total: int) -> Iterator[Callable[[], None]]:
        yield lambda: None


class RichOutput(Output):
    """rich's tables, styles and a transient progress bar."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def line(self, text: str = "", *, style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False)

    def table(
        self, columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None = None
    ) -> None:
        from rich.table import Table

        table = Table(*columns, title=title, title_justify="left")
        for row in rows:
            table.add_row(*row)
        self.console.print(table)

    def fields(self, rows: Sequence[tuple[str, str]]) -> None:
        from rich.table import Table

        table = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for row in rows:
            table.add_row(*row)
        self.console.print(table)

    @contextmanager
    def progress(self, description: str, total: int) -> Iterator[Callable[[], None]]:
        from rich.progress import Progress

        with Progress(console=self.console, transient=True) as bar:
            task = bar.add_task(description, total=total)
            yield lambda: bar.advance(task)


def output(*, plain: bool = False) -> Output:
    """rich's output when rich is importable and `plain` is false, else plain text."""
    if not plain:
        try:
            from rich.console import Console
        except ImportError:
            pass
        else:
            return RichOutput(Console(highlight=False))
    return PlainOutput()
