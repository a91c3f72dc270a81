"""The progress bar draws on a terminal and stays silent everywhere else."""

import io

from graph.cli.progress import progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_bar_when_not_a_terminal() -> None:
    assert progress_bar("reading", io.StringIO()) is None


def test_bar_draws_and_clears_on_a_terminal() -> None:
    screen = Terminal()
    draw = progress_bar("reading", screen, min_interval=0)
    assert draw is not None
    draw(5, 10)
    assert "reading [###############...............] 5/10" in screen.getvalue()
    draw(10, 10)
    assert screen.getvalue().endswith("\r\033[K")
