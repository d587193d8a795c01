"""What the environments' ``render()`` gives: ``"ansi"`` the table as text, ``"human"`` that text
printed, ``"rgb_array"`` the game's SVG drawing of the table rasterised by CairoSVG (in the
``research`` extra; it needs the system's Cairo library, ``libcairo2``)."""

from __future__ import annotations

import io
from typing import Any

import numpy as np

import azul
from azul.extras import install

MODES = ("human", "ansi", "rgb_array")
"""The render modes of the environments."""


def rgb_array(state: azul.State) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The table as every player sees it: an (height, width, 3) array of 8-bit RGB."""
    try:
        import cairosvg
        from PIL import Image
    except (ImportError, OSError) as e:  # OSError: the Cairo library itself is missing
        raise ImportError(
            f"rgb_array rendering needs CairoSVG and the Cairo library ({e}): "
            f"{install('research')} and, on Debian, apt install libcairo2"
        ) from None
    svg = state.game.presenter().render_svg(state)
    png = cairosvg.svg2png(bytestring=svg.encode())
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def render(state: azul.State | None, mode: str | None) -> str | np.ndarray[Any, Any] | None:
    """What ``render()`` returns in ``mode`` (None before the first reset or without a mode)."""
    if state is None or mode is None:
        return None
    if mode == "human":
        print(state.render())
        return None
    return state.render() if mode == "ansi" else rgb_array(state)


def check_mode(mode: str | None) -> None:
    """OptionError unless ``mode`` is None or one of ``MODES``."""
    if mode not in (None, *MODES):
        raise azul.OptionError(f"render_mode: {mode!r} is not None, {', '.join(map(repr, MODES))}")
