"""What the Learn page teaches with: the seeds' worked examples as scenarios
(:mod:`core.teaching.scenarios`: Figure 1 of Da San Martino et al. 2019, MAFALDA's Example 9) and
generated exercises with their diagnosis (:mod:`core.teaching.exercises`). Pure computation; the
page itself is ``ui/learn.py``.
"""
