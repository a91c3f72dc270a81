"""name:
Not a task module: the registry is never read as one."""
