"""Word lists the synthetic catalog draws from: names, organisations, models, tags, phrases.

Invented for the generator; the organisations and people are plausible-sounding, not a claim
about anyone. Organisation names hold no " and " and no ";" (those separate organisations in
a publisher field) but may hold commas, as real ones do.
"""

NAME_HEADS = (
    "Med", "Fin", "Code", "Math", "Law", "Kor", "Multi", "Open", "Sci", "Bio", "Chem", "Geo",
    "Vis", "Agent", "Web", "Tool", "Long", "Safe", "Truth", "Hella", "Clin", "Rad", "Pharma",
    "Legal", "Tab", "Chart", "Doc", "Audio", "Video", "Robo", "Plan", "Logic", "Phys", "Astro",
    "Eco", "Edu", "Health", "Cyber", "Sec", "Wiki", "News", "Arab", "Indic", "Swahili", "Thai",
)
NAME_CORES = (
    "QA", "Bench", "Eval", "MCQA", "Arena", "Search", "Comp", "Reason", "Sum", "Chat", "Proof",
    "Gen", "Test", "Quiz", "Exam", "Hop", "Trace", "Cards", "Notes", "Dialog", "Instruct",
)
NAME_TAILS = (
    "", "", "", "", "-Pro", "-Hard", "-Lite", "-XL", " 2", " (classification)", "-MM", "-Ko",
    " v2", "+", " (MedHELM)", " Verified", " Professional", "-Long", " (zero-shot)", "-500",
)

ORGANISATIONS = (
    "Stanford University", "The Chinese University of Hong Kong, Shenzhen",
    "MIT Laboratory for Computational Physiology", "Beth Israel Deaconess Medical Center",
    "Allen Institute for AI", "Carnegie Mellon University", "University of Washington",
    "Tsinghua University", "Peking University", "Shanghai AI Laboratory", "Google DeepMind",
    "Google Research", "Meta FAIR", "Microsoft Research", "OpenAI", "Anthropic", "EleutherAI",
    "Hugging Face", "LAION", "University of Oxford", "University of Cambridge", "ETH Zurich",
    "EPFL", "Mila, Quebec AI Institute", "Vector Institute", "University of Toronto",
    "New York University", "Princeton University", "UC Berkeley", "University of Edinburgh",
    "KAIST", "Seoul National University", "NAVER Cloud", "Upstage", "Sakana AI",
    "University of Tokyo", "RIKEN AIP", "Alibaba Qwen Team", "DeepSeek-AI", "Zhipu AI",
    "Moonshot AI", "Mistral AI", "Cohere For AI", "AI2 Incubator", "Scale AI",
    "Epoch AI", "METR", "UK AI Security Institute", "Johns Hopkins University",
    "Mayo Clinic", "Massachusetts General Hospital", "Harvard Medical School",
    "Technical University of Munich", "University of Amsterdam", "Sorbonne Université",
    "Universidad de Chile", "IIT Bombay", "Masakhane", "Lelapa AI",
    "Technology Innovation Institute", "KAUST", "Nanyang Technological University, Singapore",
)
ORG_NOTES = (
    "packaging", "dataset", "leaderboard", "harness task", "annotation", "AIMI / CRFM packaging",
    "hosting", "evaluation code", "clinical review", "translation", "benchmark design",
)

FIRST_NAMES = (
    "Zhihong", "Maya", "Xiang", "Curtis", "Jean-Benoit", "Alistair", "Tom", "Ana", "Wei", "Li",
    "Sofia", "Mateo", "Aisha", "Kwame", "Yuki", "Haruto", "Min-jun", "Seo-yeon", "Priya",
    "Arjun", "Fatima", "Omar", "Elena", "Ivan", "Chloé", "Lucas", "Noor", "Hamid", "Ingrid",
    "Lars", "Amara", "Chidi", "Rosa", "Diego", "Mei", "Jun", "Sarah", "David", "Grace", "Samuel",
    "Leila", "Tariq", "Björn", "Anneke", "Rafael", "Beatriz", "Kofi", "Zanele", "Hiroshi", "Nadia",
)
LAST_NAMES = (
    "Chen", "Varma", "Wan", "Langlotz", "Delbrouck", "Johnson", "Pollard", "Wang", "Zhang", "Liu",
    "García", "Okafor", "Mensah", "Tanaka", "Sato", "Kim", "Park", "Sharma", "Iyer", "Haddad",
    "Rahman", "Petrova", "Novak", "Dubois", "Martin", "Schmidt", "Nielsen", "Eriksson", "Adeyemi",
    "Silva", "Costa", "Huang", "Zhou", "Nakamura", "Cohen", "Levi", "O'Brien", "Murphy", "Müller",
    "Rossi", "Bianchi", "Kowalski", "Nguyen", "Tran", "Singh", "Patel", "Mahlangu", "Abebe",
)

MODEL_FAMILIES = (
    ("GPT", ("4o", "4.1", "5", "5.1", "5.2 mini", "5 Codex", "OSS 120B")),
    ("Claude", ("Sonnet 5.5", "Opus 4.1", "Haiku 4.5", "Sonnet 4", "Opus 5")),
    ("Gemini", ("2.5 Pro", "2.5 Flash", "3 Pro", "3 Flash", "Ultra 2")),
    ("Qwen", ("3.8 Max", "3 235B", "2.5 72B (instruct)", "3 Coder", "3.5 Plus")),
    ("Llama", ("4 Maverick", "4 Scout", "3.3 70B", "3.1 405B", "3.1 8B (instruct)")),
    ("DeepSeek", ("V3.2", "R1", "R2", "V4", "Coder V2")),
    ("Mistral", ("Large 3", "Medium 3.1", "Small 3.2", "Magistral 1.2")),
    ("Solar", ("Pro 4", "Pro 3", "Mini 2")),
    ("Ling", ("3.1-flash", "2.0 Plus", "Lite")),
    ("Grok", ("4", "4.1 Fast", "3 mini")),
    ("Kimi", ("K2", "K2 Thinking", "K1.5")),
    ("GLM", ("4.6", "4.5 Air", "5")),
    ("Phi", ("4", "4 reasoning", "5 mini")),
    ("Command", ("R+", "A", "R7B")),
)

TOPIC_TAGS = (
    "biomedical", "radiology", "summarization", "llm-jury", "clinical", "question-answering",
    "multiple-choice", "reasoning", "math", "coding", "agents", "tool-use", "multilingual",
    "korean", "arabic", "legal", "finance", "safety", "long-context", "retrieval", "vision",
    "speech", "multimodal", "dialogue", "instruction-following", "factuality", "hallucination",
    "translation", "science", "chemistry", "physics", "education", "web-browsing", "planning",
    "open-ended", "exact-match", "human-eval", "contaminated", "saturated", "leaderboard",
)
SUITE_TAGS = ("medhelm",)
ACCESS_TAGS = ("gated", "public", "private")

CATEGORIES = (
    ("domain", ("radiology summarization", "clinical question answering", "legal reasoning",
                "financial analysis", "drug interaction lookup", "chemistry problem solving")),
    ("reasoning", ("grade-school math", "competition math", "logical deduction", "commonsense")),
    ("coding", ("function synthesis", "repository repair", "code review", "SQL generation")),
    ("knowledge", ("closed-book trivia", "expert exams", "multilingual exams")),
    ("safety", ("refusal behaviour", "jailbreak robustness", "bias probes")),
    ("agents", ("web navigation", "tool calling", "long-horizon tasks")),
    ("multimodal", ("chart reading", "document understanding", "video question answering")),
)

LANGUAGES = ("en", "en", "en", "zh", "ko", "ar", "hi", "sw", "fr", "de", "ja", "es", "pt")
MODALITIES = ("text", "text", "text", "image", "audio", "video", "table", "code")
LICENCES = (
    "CC BY 4.0", "CC BY-SA 4.0", "CC BY-NC 4.0", "MIT", "Apache-2.0",
    "PhysioNet credentialed access; reconstruction scripts only, not a labelled dump",
    "research use only, by request to the authors", "proprietary; evaluation through an API",
)
PAGE_STATUSES = ("active", "active", "active", "deprecated", "superseded", "draft")
RISKS = ("low", "low", "medium", "high", "unknown")
SATURATION_STATUSES = ("unknown", "not_saturated", "near_saturation", "saturated")
DIRECTIONS = ("higher_is_better", "higher_is_better", "higher_is_better", "lower_is_better")
METRIC_UNITS = ("percent", "percent", "points", "F1", "accuracy", "pass@1", "Elo")
DISPOSITION_STATUSES = ("unassessed", "unassessed", "verified", "needs_review", "merged")
REASONS = (
    "score source disagrees with the leaderboard", "paper and harness use different splits",
    "alias of another catalogued benchmark", "results older than eighteen months",
)
RESEARCHERS = (
    "Grok Build, batch-006 (Codex coordinated)", "Grok Build independent review, batch-006",
    "catalog team, batch-011", "A. Curator, spring review", "automated refresh, batch-020",
)
VENUE_URLS = (
    "https://aclanthology.org/{year}.acl-long.{n}/", "https://aclanthology.org/{year}.emnlp-main.{n}/",
    "https://openreview.net/forum?id=bg{n}x{year}",
    "https://proceedings.neurips.cc/paper/{year}/hash/{n:08x}-Abstract-Datasets.html",
)
SOURCE_TITLES = (
    "{name} scenario source", "{name} run spec", "{name} annotator prompt",
    "schema entry for {name}",
    "{name} leaderboard snapshot", "{name} dataset card", "paper: {title}", "{name} harness task",
    "{name} issue tracker thread", "{name} model card mention",
)
SOURCE_HOSTS = (
    "https://github.com/example-org/{id}/blob/main/README.md",
    "https://huggingface.co/datasets/example/{id}", "https://arxiv.org/abs/{arxiv}",
    "https://crfm.stanford.edu/helm/latest/#/{id}", "https://paperswithcode.com/dataset/{id}",
    "https://example.org/benchmarks/{id}/leaderboard", "https://docs.example.org/evals/{id}.html",
)

BODY_HEADINGS = (
    "What it measures", "How it is scored", "Dataset and licence", "Who publishes it", "Lineage",
    "Saturation and contamination", "How to run it", "Reading the numbers",
)
SUBJECTS = (
    "The test set", "Each item", "The harness", "The scoring script", "The leaderboard",
    "The original paper", "The released split", "A jury of models", "The rubric", "The prompt",
)
VERBS = (
    "reports", "averages", "restricts", "filters", "compares", "excludes", "rescales", "samples",
    "normalises", "truncates", "weights", "deduplicates", "aggregates", "annotates",
)
OBJECTS = (
    "exact-match accuracy over the held-out items", "scores from three annotators per answer",
    "the findings to a 128-token impression", "multiple-choice questions from licensing exams",
    "answers that quote the source document", "the hardest tenth of the problems",
    "items that leaked into public pretraining corpora", "per-category results before averaging",
    "the instruction-following subset", "long documents beyond the context window",
)
QUALIFIERS = (
    "on the official split", "in its zero-shot setting", "without chain-of-thought prompts",
    "as the paper describes it", "unlike the harness defaults", "since the second release",
    "for every language in the set", "when the jury disagrees", "with a fixed random seed",
)

# Directory pages (the plain-text format of the second seed).
DIRECTORY_KINDS = ("Medicine", "Law", "Finance", "Coding", "Mathematics", "Science", "Languages")
DIRECTORY_LEVELS = ("Expert", "Professional", "Undergraduate", "General")
DIRECTORY_SCORED = ("Checked automatically", "Graded by models", "Graded by people")
DIRECTORY_ANSWERS = ("Short answer", "Multiple choice", "Long form", "Code")
DIRECTORY_TASKS = ("All public", "Some held back", "All held back")
DIRECTORY_CATEGORIES = (
    "Law, finance and medicine", "Coding and software", "Maths and science",
    "Languages of the world", "Agents and tools",
)
DIRECTORY_ACCESS = (
    "Access needs PhysioNet credentials.", "Access needs a signed data use agreement.",
    "Access needs an account with the host.",
)
