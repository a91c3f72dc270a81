# A fixture: the Hugging Face id as a module constant, and a second call whose name is not
# a literal (not read).

from evalscope.api.benchmark import BenchmarkMeta, VisionLanguageAdapter
from evalscope.api.registry import register_benchmark

HF_ID = 'toyorg/ToyVision'
OTHER_NAME = 'toy_vision_other'


@register_benchmark(
    BenchmarkMeta(
        name='toy_vision',
        pretty_name='ToyVision',
        dataset_id='https://github.com/toyorg/toyvision',
        hf_dataset_id=HF_ID,
    )
)
class ToyVisionAdapter(VisionLanguageAdapter):
    pass


@register_benchmark(BenchmarkMeta(name=OTHER_NAME, dataset_id='toyorg/other', hf_dataset_id='x/y'))
class OtherAdapter(VisionLanguageAdapter):
    pass
