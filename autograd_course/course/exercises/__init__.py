"""Exercises with instant feedback: one module of checkers per chapter.

Use them from a chapter notebook::

    from autograd_course.exercises import ch01
    ch01.check_predict_grad(my_answer)

Each checker prints one line: ``correct``, ``not attempted yet`` (the cell still holds its
placeholder) or ``not quite: <hint>``. It never raises for a wrong answer. The shared machinery
(verdicts, placeholder detection, comparisons with hints, gradcheck, isolation of the learner's
code) is in ``_common``; ``value`` holds the reference scalar ``Value`` that learners grow in
chapters 1-3 and that chapter 9 compares with the package.

The checkers speak English or Simplified Chinese: ``set_language("zh")`` (the same setting as
:func:`autograd_course.i18n.set_language`), the environment variable ``AUTOGRAD_COURSE_LANG``,
or a notebook run from ``notebooks/zh/`` chooses Chinese. Every line they print is a template in
``messages_en`` / ``messages_zh``, looked up by :func:`messages.msg`.
"""

from ._common import Mismatch, NotAttempted, Verdict, checker
from .messages import get_language, msg, set_language

__all__ = ["Mismatch", "NotAttempted", "Verdict", "checker", "get_language", "msg",
           "set_language"]
