"""Every line the exercise checkers print, in the learner's language.

The words live in two catalogues, :mod:`messages_en` and :mod:`messages_zh`: each is one dict
from a key (``"ch01.slope.wrong_sign"``) to a :meth:`str.format` template. Both have the same
keys and, per key, the same placeholders (a test checks it). :func:`msg` picks the catalogue of
the language in use now (:func:`autograd_course.i18n.get_language`: ``set_language("zh")``, the
environment variable ``AUTOGRAD_COURSE_LANG``, or a notebook run from ``notebooks/zh/``) and fills
the template in.
"""

from __future__ import annotations

from typing import Any

from ..i18n import get_language, set_language
from .messages_en import MESSAGES as MESSAGES_EN
from .messages_zh import MESSAGES as MESSAGES_ZH

CATALOGUES: dict[str, dict[str, str]] = {"en": MESSAGES_EN, "zh": MESSAGES_ZH}

__all__ = ["CATALOGUES", "get_language", "msg", "set_language"]


def msg(key: str, **fields: Any) -> str:
    """The message ``key`` in the language in use now, with ``fields`` filled in."""
    return CATALOGUES[get_language()][key].format(**fields)
