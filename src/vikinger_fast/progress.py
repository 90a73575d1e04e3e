"""The progress bar of the long commands (arena, ladder, self-play, training, sharded work) on
stderr: a tqdm bar when tqdm is installed (the extra `arena`), else a line at every tenth of the
work, so a run without the extra still shows that it moves."""

import sys
from typing import Optional, Protocol


class ProgressBar(Protocol):
    """What progress_bar returns: a tqdm bar, or the line printer without tqdm."""

    def update(self, n: int, /) -> object: ...

    def close(self) -> object: ...


def progress_bar(total: int, enabled: bool, unit: str = "game") -> Optional[ProgressBar]:
    """A bar over `total` units (`unit`: what one is, "game" or "step"); None when disabled."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return _Lines(total, unit)
    return tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True)


class _Lines:
    def __init__(self, total: int, unit: str) -> None:
        self.total, self.unit, self.done, self.next = total, unit, 0, 0

    def update(self, count: int) -> None:
        self.done += count
        if self.done >= self.next:
            print(f"  {self.done}/{self.total} {self.unit}s", file=sys.stderr, flush=True)
            self.next = self.done + max(1, self.total // 10)

    def close(self) -> None:
        pass
