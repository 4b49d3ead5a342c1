"""The course layer: what only this course's notebooks need, built on top of the library.

The library (the rest of ``autograd_course``) is shaped like PyTorch and imports nothing from
here. This folder holds what PyTorch has no counterpart for:

- ``exercises/``: the checkers, one module per chapter, their messages in English and Chinese,
  and the reference scalar ``Value`` of chapters 1-3;
- ``i18n``: the course's two languages, and how a notebook's language is found;
- ``fonts``: a Chinese font for matplotlib in the Chinese chapters;
- ``zh_terms``: the Chinese edition's glossary (one translation per term);
- ``setup_check``: is everything the course uses installed?
- ``stand_ins``: a stand-in GPU (chapter 8) and Python's standard recursion limit (chapter 9).

Every chapter imports it in its first cell (``import autograd_course.course``). From then on the
library's drawings use the notebook's language by default, and plots in a Chinese chapter get
a Chinese font.
"""

from ..viz import words
from . import exercises, i18n
from .i18n import get_language, set_language
from .setup_check import check_installation
from .stand_ins import stand_in_gpu, standard_recursion_limit

__all__ = ["check_installation", "exercises", "get_language", "i18n", "set_language",
           "stand_in_gpu", "standard_recursion_limit"]

words.use_default_language(i18n.get_language)
i18n.apply_fonts()
