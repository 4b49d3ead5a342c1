"""``progress(iterable, recorder)``: a tqdm progress bar over a training loop (``tqdm.auto``: a
widget in Jupyter, text elsewhere; without tqdm the items simply pass through).

With a recorder, the bar's postfix shows its last step: the largest saturated fraction of a
layer and the largest log10 update:data ratio of a parameter.
"""

from __future__ import annotations

import math


def postfix(recorder) -> dict[str, str]:
    """``{"saturated": ..., "log10 update": ...}`` of the recorder's last step (empty before
    its first step)."""
    if not recorder.steps:
        return {}
    shown = {}
    saturated = [v for v in recorder.latest("activations", "saturated").values()
                 if not math.isnan(v)]
    if saturated:
        shown["saturated"] = f"{max(saturated):.1%}"
    ratios = [v for v in recorder.latest("parameters", "update_to_data").values()
              if v > 0 and not math.isnan(v)]
    if ratios:
        shown["log10 update"] = f"{math.log10(max(ratios)):.2f}"
    return shown


def progress(iterable, recorder=None, **tqdm_options):
    """Yield the items of ``iterable`` under a progress bar (``tqdm_options`` go to tqdm, e.g.
    ``total=``, ``desc=``)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        yield from iterable
        return
    bar = tqdm(iterable, **tqdm_options)
    try:
        for item in bar:
            yield item
            if recorder is not None:
                bar.set_postfix(postfix(recorder), refresh=False)
    finally:
        bar.close()
