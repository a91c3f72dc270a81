"""
name:
Helpers of the toy suite: not a task module, never read.
"""
