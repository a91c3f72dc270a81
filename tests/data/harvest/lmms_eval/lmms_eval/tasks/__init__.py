# the task manager lives here; never imported by the harvest
