"""Exercises with instant feedback: one module of checkers per chapter.

Use them from a chapter notebook::

    from autograd_course.exercises import ch01
    ch01.check_predict_grad(my_answer)

Each checker prints one line: ``correct``, ``not attempted yet`` (the cell still holds its
placeholder) or ``not quite: <hint>``. It never raises for a wrong answer. The shared machinery
(verdicts, placeholder detection, comparisons with hints, gradcheck, isolation of the learner's
code) is in ``_common``; ``value`` holds the reference scalar ``Value`` that learners grow in
chapters 1-3 and that chapter 9 compares with the package.
"""

from ._common import Mismatch, NotAttempted, Verdict, checker

__all__ = ["Mismatch", "NotAttempted", "Verdict", "checker"]
