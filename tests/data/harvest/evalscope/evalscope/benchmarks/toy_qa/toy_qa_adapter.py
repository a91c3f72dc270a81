# A fixture: two benchmarks registered in one module, as evalscope's aime24/aime25 are.

from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags


@register_benchmark(
    BenchmarkMeta(
        name='toy_qa',
        pretty_name='ToyQA',
        tags=[Tags.QA, Tags.REASONING],
        dataset_id='toyorg/toy_qa',
        hf_dataset_id='toyorg/toy_qa_hf',
        subset_list=['easy', 'hard'],
        metric_list=['acc', {'f1': {'ignore_case': True}}],
    )
)
class ToyQAAdapter(DefaultDataAdapter):
    pass


@register_benchmark(
    BenchmarkMeta(
        name='toy_cited',
        pretty_name='ToyCited',
        dataset_id='toyorg/toy_cited',
        hf_dataset_id=None,
    )
)
class ToyCitedAdapter(DefaultDataAdapter):
    pass
