"""Every line the exercise checkers print, in the learner's language.

The words live in two catalogues, :mod:`messages_en` and :mod:`messages_zh`: each is one dict
from a key (``"ch01.slope.wrong_sign"``) to a :meth:`str.format` template. Both have the same
keys and, per key, the same placeholders (a test checks it). :func:`msg` picks the catalogue of
the language in use now (:func:`autograd_course.i18n.get_language`: ``set_language("zh")``, the
environment variable ``AUTOGRAD_COURSE_LANG``, or a notebook run from ``notebooks/zh/``) and fills
the template in.
"""

from __future__ import annotations

import re
from string import Formatter
from typing import Any

from ..i18n import get_language, set_language
from .messages_en import MESSAGES as MESSAGES_EN
from .messages_zh import MESSAGES as MESSAGES_ZH

CATALOGUES: dict[str, dict[str, str]] = {"en": MESSAGES_EN, "zh": MESSAGES_ZH}
_FORMATTER = Formatter()
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

__all__ = ["CATALOGUES", "get_language", "msg", "set_language"]


def msg(key: str, **fields: Any) -> str:
    """The message ``key`` in the language in use now, with ``fields`` filled in."""
    lang = get_language()
    if lang != "zh":
        return CATALOGUES[lang][key].format(**fields)
    text = ""
    for literal, field, spec, conversion in _FORMATTER.parse(CATALOGUES[lang][key]):
        text = _glue(text, literal)
        if field is not None:
            value = _FORMATTER.convert_field(_FORMATTER.get_field(field, (), fields)[0],
                                             conversion)
            text = _glue(text, format(value, spec or ""))
    return text


def _glue(left: str, right: str) -> str:
    """``left + right``, less a space that would then stand between two Chinese characters.

    A Chinese template keeps a space around each placeholder, as Chinese text does around a
    Latin name (``{name} 形状对`` -> ``b_grad 形状对``); when the value put in is Chinese at
    that edge (``你对 b 的梯度``), the space goes: ``你对 b 的梯度形状对``."""
    if left.endswith(" ") and _HAN.match(left[-2:-1]) and _HAN.match(right[:1]):
        return left[:-1] + right
    if right.startswith(" ") and _HAN.match(left[-1:]) and _HAN.match(right[1:2]):
        return left + right[1:]
    return left + right
