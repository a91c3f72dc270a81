from lighteval.metrics.metrics import Metrics
from lighteval.tasks.lighteval_task import LightevalTaskConfig

TASKS_TABLE = [LightevalTaskConfig(name="toy_plain", hf_repo="json", metrics=[Metrics.acc])]
