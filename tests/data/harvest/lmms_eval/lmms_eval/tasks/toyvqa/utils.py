raise RuntimeError("a task's code: never imported by the harvest")
