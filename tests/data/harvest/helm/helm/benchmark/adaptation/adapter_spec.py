ADAPT_GENERATION: str = "generation"
ADAPT_MULTIPLE_CHOICE_JOINT: str = "multiple_choice_joint"
ADAPT_MULTIPLE_CHOICE_SEPARATE_ORIGINAL: str = "multiple_choice_separate_original"
ADAPT_MULTIPLE_CHOICE_SEPARATE_METHODS: list[str] = [ADAPT_MULTIPLE_CHOICE_SEPARATE_ORIGINAL]


class AdapterSpec:
    pass
