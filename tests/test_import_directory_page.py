"""The directory page importer: the seed, the scores section, odd and broken pages."""

from decimal import Decimal
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.ingest.importers.base import Imported, RecordRejected, SourceFile
from graph.ingest.importers.directory_page import DirectoryPageImporter
from graph.ingest.importers.directory_sections import STATUSES, parse_related, parse_score
from graph.ingest.importers.reading import decode_record_bytes
from graph.ingest.records.directory_page import (
    DirectoryPage,
    Fact,
    ModelCardSection,
    RelatedEntry,
    Score,
    ScoresSection,
    Section,
)
from graph.settings import Settings

DATA = Path(__file__).parent / "data" / "directory"
SEED = DATA / "mimic_cxr_classification.txt"
IMPORTER = DirectoryPageImporter()


def source(text: str, name: str = "page.txt") -> SourceFile:
    return SourceFile(Path(name), PurePosixPath(name), text)


def make_settings(**limits: int) -> Settings:
    """Settings from defaults and ``limits`` only (no BENCHGRAPH_* environment)."""
    return Settings.model_validate(limits)


def load(text: str, **limits: int) -> Imported:
    return IMPORTER.load(source(text), make_settings(**limits))


def load_file(path: Path) -> Imported:
    return IMPORTER.load(SourceFile(path, PurePosixPath(path.name), path.read_text("utf-8")),
                         make_settings())


def page_of(imported: Imported) -> DirectoryPage:
    assert isinstance(imported.record, DirectoryPage)
    return imported.record


def pct(model: str, value: str) -> Score:
    return Score(model=model, value=Decimal(value), unit="percent")


SEED_AUTHORS_WORDS_START = "Chest radiography is an extremely powerful imaging modality"
SEED_AUTHORS_WORDS_END = (
    "The dataset is made freely available to facilitate and encourage a wide range of research "
    "in medical computer vision."
)

EXPECTED_SEED_RELATED = [
    RelatedEntry(
        title="MedXpertQA-MM", status="In use",
        summary="Models answer expert-level medical exam questions that combine images with "
                "clinical records and test results. Scoring is accuracy.",
        top_score=pct("Qwen 3.8 Max", "80.4")),
    RelatedEntry(
        title="HealthBench Professional", status="In use",
        summary="525 physician-authored tasks from real clinician chats (care consult, "
                "documentation, research) with physician-adjudicated rubrics.",
        top_score=pct("Claude Sonnet 5.5", "69.2")),
    RelatedEntry(
        title="HealthBench", status="In use",
        summary="5,000 realistic health conversations graded against physician-written rubrics. "
                "A length-adjusted variant penalizes verbosity.",
        top_score=pct("GPT-5", "67.2")),
    RelatedEntry(
        title="FinSearchComp", status="In use",
        summary="Agents search the web to fetch live financial data, look up history, and run "
                "multi-step investigations, across 635 expert-written questions. Scored by "
                "answer accuracy.",
        top_score=pct("Ling-3.1-flash", "81.7")),
    RelatedEntry(
        title="KBL", status="In use",
        summary="Models answer Korean legal knowledge and reasoning tasks and Korean bar exam "
                "questions. It has 7 knowledge tasks, 4 reasoning tasks and 2,510 bar exam items.",
        top_score=pct("Solar Pro 4", "77.5")),
    RelatedEntry(
        title="KorMedMCQA", status="In use",
        summary="Models answer 7,469 multiple-choice questions from Korean licensing exams for "
                "doctors, nurses, pharmacists and dentists, held from 2012 to 2024.",
        top_score=pct("Solar Pro 4", "93.2")),
]


def check_seed(page: DirectoryPage) -> None:
    assert page.title == "MIMIC-CXR (classification)"
    assert page.benchmark_id == "mimic_cxr_classification"
    assert page.summary == (
        "Models read chest X-rays from Beth Israel Deaconess and say whether five common "
        "conditions are present. Scored by average F1 over the conditions.")
    assert page.access == "Access needs PhysioNet credentials."
    assert page.access_note == (
        "Google reports two test sets, Med-Gemini radiologist-adjudicated labels and the MAIRA "
        "test set, and their scores differ a lot.")
    assert page.facts == [
        Fact(key="Made by", value="MIT Laboratory for Computational Physiology and Beth Israel "
                                  "Deaconess Medical Center (Johnson et al.)"),
        Fact(key="Released", value="January 2019"),
        Fact(key="Kind", value="Medicine"),
        Fact(key="Level", value="Expert"),
        Fact(key="Scored", value="Checked automatically"),
        Fact(key="Answers", value="Short answer"),
        Fact(key="Tasks", value="All public"),
    ]
    assert page.authors_words is not None
    assert page.authors_words.startswith(SEED_AUTHORS_WORDS_START)
    assert page.authors_words.endswith(SEED_AUTHORS_WORDS_END)
    assert "\n" not in page.authors_words  # one paragraph in the seed
    assert "377,110 chest x-rays" in page.authors_words
    assert page.scores == ScoresSection(
        heading="No scores here yet",
        statement="No lab, leaderboard or Epoch AI run has reported a score for MIMIC-CXR "
                  "(classification) yet.",
        scores=[])
    assert page.model_cards == ModelCardSection(
        heading="No lab model card reports it yet",
        statement="We read the headline results of 522 launch posts from 52 labs, and none of "
                  "them list this benchmark.",
        launch_posts=522, labs=52)
    assert page.category == "Law, finance and medicine"
    assert page.related == EXPECTED_SEED_RELATED
    assert page.unknown_sections == []


def test_seed_parses_to_the_expected_record() -> None:
    imported = load_file(SEED)
    check_seed(page_of(imported))
    assert imported.warnings == []


def test_seed_authors_words_are_the_whole_paragraph() -> None:
    lines = SEED.read_text("utf-8").split("\n")
    quoted = lines[lines.index("In the authors’ words") + 1]
    assert page_of(load_file(SEED)).authors_words == quoted


def test_fixture_seed_is_the_bundled_seed() -> None:
    bundled = Path(__file__).parents[1] / "catalog" / "002_e36a0be437d5fce5.txt"
    assert SEED.read_bytes() == bundled.read_bytes()


def test_crlf_and_cr_line_endings_give_the_same_record() -> None:
    text = SEED.read_text("utf-8")
    plain = page_of(load(text))
    assert page_of(load(text.replace("\n", "\r\n"))) == plain
    assert page_of(load(text.replace("\n", "\r"))) == plain
    check_seed(page_of(load(text.replace("\n", "\r\n"))))


def test_blank_lines_and_trailing_spaces_are_ignored() -> None:
    text = SEED.read_text("utf-8")
    spaced = "\n\n".join(line + "  " for line in text.split("\n"))
    check_seed(page_of(load(spaced)))


def test_page_with_scores() -> None:
    imported = load_file(DATA / "with_scores.txt")
    page = page_of(imported)
    assert imported.warnings == []
    assert page.title == "ToolBench Arena"
    assert page.access == "Access needs a free API key from each tool's provider."
    assert page.access_note == (
        "Some tools went offline in 2024, so runs before then are not comparable.")
    assert page.facts == [Fact(key="Released", value="March 2024"),
                          Fact(key="Made by", value="Example Agents Lab (Doe et al.)")]
    assert page.authors_words == (
        "We present a benchmark of 1,600 tasks that call live web APIs.\n"
        "Each task is checked by replaying the calls.")
    assert page.scores == ScoresSection(
        heading="Top scores",
        statement="Scores as reported by the labs that ran them.",
        scores=[
            pct("GPT-5 (high)", "88.1"),
            pct("Claude 3.5 Sonnet", "71"),
            pct("o1-preview 2024-09-12", "55.5"),
            Score(model="Llama 3.1 405B [instruct]", value=Decimal("1204.5"), unit=None),
        ])
    assert page.model_cards == ModelCardSection(
        heading="Reported in 3 lab model cards",
        statement="OpenAI, Anthropic and Meta list it among their headline results.",
        launch_posts=None, labs=None)
    assert page.category == "Agents and tools"
    assert page.related == [
        RelatedEntry(title="WebArena", status="Saturated",
                     summary="Agents complete tasks on self-hosted copies of websites.",
                     top_score=pct("GPT-5", "71.2")),
        RelatedEntry(title="SWE-bench Verified", status="In use",
                     summary="Models fix real GitHub issues. Scored by the repository's tests "
                             "passing.",
                     top_score=pct("Claude Opus 4", "74.5")),
        RelatedEntry(title="OldToolBench", status="Retired",
                     summary="The first version, with tools that no longer answer."),
    ]
    assert page.unknown_sections == []


def test_scores_heading_without_the_word_score_is_found_by_position() -> None:
    page = page_of(load("Bench\nA summary.\n- Kind\n- Maths\nLeaderboard\n"
                        "- GPT-5 (high) 88.1%\n- o1 55 %\nNo lab model card reports it yet\n"
                        "We read 10 launch posts from 3 labs.\n"))
    assert page.scores == ScoresSection(heading="Leaderboard", statement=None,
                                        scores=[pct("GPT-5 (high)", "88.1"), pct("o1", "55")])
    assert page.model_cards is not None
    assert (page.model_cards.launch_posts, page.model_cards.labs) == (10, 3)
    assert page.unknown_sections == []


def test_a_scores_line_that_is_not_a_score_is_kept_and_reported() -> None:
    imported = load("Bench\nA summary.\nTop scores\n- GPT-5 91%\n- GPT-4 pending\n")
    page = page_of(imported)
    assert page.scores == ScoresSection(heading="Top scores", scores=[pct("GPT-5", "91")])
    assert page.unknown_sections == [Section(heading="Top scores", lines=["- GPT-4 pending"])]
    assert [(w.field, "line 5" in w.reason) for w in imported.warnings] == [("scores", True)]


def test_facts_in_another_order_a_subset_and_odd_text_kept_verbatim() -> None:
    imported = load_file(DATA / "facts_subset.txt")
    page = page_of(imported)
    assert imported.warnings == []
    assert page.title == '<b>Odd</b> {Bench} #1 "quoted"'
    assert page.benchmark_id == "b_odd_b_bench_1_quoted"
    assert page.summary == ('A page whose text is merely odd: <i>markup</i>, {braces}, # hashes '
                            'and "quotes" are data.')
    assert page.access is None and page.access_note is None
    assert page.facts == [Fact(key="Kind", value="Coding {and} <b>maths</b>"),
                          Fact(key="Licence", value="CC BY 4.0 # see the repo"),
                          Fact(key="Released", value="2021")]
    assert page.authors_words is None
    assert page.scores == ScoresSection(
        heading="No scores here yet", statement="Nobody has reported a score for <b>Odd</b> yet.")
    assert page.model_cards is None and page.category is None and page.related == []


def test_unknown_section_is_kept_and_reported() -> None:
    path = DATA / "unknown_section.txt"
    imported = load_file(path)
    page = page_of(imported)
    assert page.unknown_sections == [Section(
        heading="Leaderboard links",
        lines=["https://example.org/sampleqa/leaderboard", "https://example.org/sampleqa/mirror"])]
    assert len(imported.warnings) == 1
    warning = imported.warnings[0]
    assert (warning.path, warning.field) == (path, "unknown_sections")
    assert "line 6" in warning.reason and "Leaderboard links" in warning.reason
    # The sections around it are still read.
    assert page.access is None
    assert page.access_note == "This page was written by hand for the tests."
    assert page.facts == [Fact(key="Kind", value="Reading")]
    assert page.authors_words == "SampleQA is a small reading test."
    assert page.scores is not None and page.scores.heading == "No scores here yet"
    assert page.model_cards is not None
    assert (page.model_cards.launch_posts, page.model_cards.labs) == (1204, 61)


def test_text_under_no_heading_and_a_repeated_section_are_kept_and_reported() -> None:
    imported = load("Bench\nA summary.\nA note.\nAn extra paragraph.\n- Kind\n- Maths\n"
                    "In the authors' words\nFirst quote.\nIn the authors’ words\nSecond quote.\n")
    page = page_of(imported)
    assert page.access_note == "A note."
    assert page.facts == [Fact(key="Kind", value="Maths")]
    assert page.authors_words == "First quote."
    assert page.unknown_sections == [
        Section(heading="", lines=["An extra paragraph."]),
        Section(heading="In the authors’ words", lines=["Second quote."]),
    ]
    assert [w.field for w in imported.warnings] == ["unknown_sections", "unknown_sections"]
    assert "line 4" in imported.warnings[0].reason
    assert "line 9" in imported.warnings[1].reason


def test_a_fact_key_with_no_value_is_a_warning() -> None:
    imported = load("Bench\nA summary.\n- Kind\n- Maths\n- Level\nNo scores here yet\nNone.\n")
    page = page_of(imported)
    assert page.facts == [Fact(key="Kind", value="Maths")]
    assert page.scores is not None and page.scores.statement == "None."
    assert len(imported.warnings) == 1
    assert imported.warnings[0].field == "facts"
    assert "'Level'" in imported.warnings[0].reason and "line 5" in imported.warnings[0].reason


def test_access_sentence_with_an_abbreviation_is_not_cut_short() -> None:
    page = page_of(load("Bench\nA summary.\nAccess needs a course (e.g. CITI) first. Then "
                        "apply.\n"))
    assert page.access == "Access needs a course (e.g. CITI) first."
    assert page.access_note == "Then apply."


def test_access_paragraph_with_only_the_sentence() -> None:
    page = page_of(load("Bench\nA summary.\nAccess needs a login.\n- Kind\n- Maths\n"))
    assert (page.access, page.access_note) == ("Access needs a login.", None)


def test_related_entry_without_a_status_is_reported_and_guessed() -> None:
    imported = load("Bench\nA summary.\nMore in Tests\n"
                    "- KBL Models answer Korean legal questions. Solar Pro 4 77.5%\n")
    page = page_of(imported)
    assert page.related == [RelatedEntry(
        title="KBL", status=None, summary="Models answer Korean legal questions.",
        top_score=pct("Solar Pro 4", "77.5"))]
    assert [w.field for w in imported.warnings] == ["related"]
    assert "line 4" in imported.warnings[0].reason


def test_related_entry_statuses_and_scores() -> None:
    for status in STATUSES:
        entry, problem = parse_related(f"Some Bench v2 {status} It tests things. Model X 1.5%")
        assert problem is None
        assert entry == RelatedEntry(title="Some Bench v2", status=status,
                                     summary="It tests things.", top_score=pct("Model X", "1.5"))
    # A bare number after the last sentence is not taken as a same-line top score.
    entry, _ = parse_related("Bench In use It has tasks. Version 2")
    assert entry is not None and entry.top_score is None
    assert entry.summary == "It has tasks. Version 2"
    # A lower-case "new" inside a summary is not a status.
    entry, _ = parse_related("Bench Deprecated Replaced by a new one.")
    assert entry is not None and (entry.title, entry.status) == ("Bench", "Deprecated")


def test_score_lines() -> None:
    assert parse_score("GPT-5 (high) 88.1%") == pct("GPT-5 (high)", "88.1")
    assert parse_score("Claude 3.5 Sonnet 71%") == pct("Claude 3.5 Sonnet", "71")
    assert parse_score("o1-preview 2024-09-12 55.5%") == pct("o1-preview 2024-09-12", "55.5")
    assert parse_score("Elo model: 1,234") == Score(model="Elo model", value=Decimal(1234),
                                                    unit=None)
    assert parse_score("Top scores") is None
    assert parse_score("88.1%") is None
    assert parse_score("model 2024-09-12") is None
    assert parse_score("model 5", need_percent=True) is None


@pytest.mark.parametrize("text", [
    "\nNo Title Bench\nA summary.\n", "   \nBench\n", "- Made by\n- MIT\n",
    "In the authors’ words\nSome words.\n", "No scores here yet\nNone.\n",
    "More in Law\n- KBL In use Korean law.\n", "No lab model card reports it yet\n",
    "!!! ---\nA summary.\n",
])
def test_a_page_with_no_title_is_rejected(text: str) -> None:
    with pytest.raises(RecordRejected) as caught:
        load(text)
    assert caught.value.field == "title"


def test_no_title_fixture_is_rejected() -> None:
    with pytest.raises(RecordRejected) as caught:
        load_file(DATA / "no_title.txt")
    assert caught.value.field == "title"
    assert "no title" in caught.value.reason


def test_a_line_over_the_limit_is_rejected_naming_line_and_limit() -> None:
    text = "Bench\nA summary.\n- Kind\n- " + "x" * 1_000_001 + "\n"
    with pytest.raises(RecordRejected) as caught:
        load(text)
    assert caught.value.field == "line 4"
    assert "max_string_chars = 1000000" in caught.value.reason
    with pytest.raises(RecordRejected) as caught:
        load("Bench\nA summary.\n" + "x" * 20, max_string_chars=10)
    assert "max_string_chars = 10" in caught.value.reason


def test_joined_authors_words_over_the_limit_is_rejected() -> None:
    with pytest.raises(RecordRejected) as caught:
        load("Bench\nIn the authors' words\n" + "abcdefghi.\n" * 5, max_string_chars=40)
    assert caught.value.field == "authors_words"


def test_a_page_with_a_nul_character_is_rejected_by_the_reader() -> None:
    """The reader rejects it before any importer sees the text (an empty or white-space page
    too: ``tests/test_bad_input.py``), so the parser has no check of its own."""
    with pytest.raises(RecordRejected, match="a binary file"):
        decode_record_bytes(b"Bench\x00\nA summary.\n")


PATHOLOGICAL_LINES = {
    "letters": "a" * 2_000_000,
    "words": "x " * 1_000_000,
    "sentence-ends": ". " * 1_000_000,
    "statuses": "In use " * 300_000,
    "capitals": "A " * 1_000_000,
    "separators": "1," * 1_000_000 + "%",
    "digits": "9" * 2_000_000 + "%",
    "brackets": "((" * 1_000_000,
}
PATHOLOGICAL_PAGES = {
    "title": "{line}",
    "related": "Bench\nMore in X\n- Foo In use {line}\n- Foo {line}\n",
    "access": "Bench\nA summary.\nAccess needs {line}\n",
    "model_cards": "Bench\nNo lab model card reports it yet\n{line}\n",
    "scores": "Bench\nTop scores\n- {line}\n",
    "authors": "Bench\nIn the authors' words\n{line}\n",
}


@pytest.mark.parametrize("kind", sorted(PATHOLOGICAL_LINES))
@pytest.mark.parametrize("where", sorted(PATHOLOGICAL_PAGES))
def test_pathological_long_lines_finish(kind: str, where: str) -> None:
    # No timing assertion: the point is that this finishes (a backtracking parser would hang).
    text = PATHOLOGICAL_PAGES[where].replace("{line}", PATHOLOGICAL_LINES[kind])
    try:
        imported = load(text, max_string_chars=5_000_000)
    except RecordRejected as rejected:
        assert where == "title" and rejected.field == "title"  # no letter or digit
    else:
        assert isinstance(imported.record, DirectoryPage)
    with pytest.raises(RecordRejected) as caught:
        load(text)
    assert caught.value.field is not None and caught.value.field.startswith(("line ", "title"))


def test_can_read_by_content() -> None:
    assert IMPORTER.can_read(source(SEED.read_text("utf-8"), "page.json"))
    assert IMPORTER.can_read(source("<b>Odd</b> bench\n", "x"))
    assert not IMPORTER.can_read(source('{"page": {"id": "x"}}', "page.txt"))
    assert not IMPORTER.can_read(source('\n  [1, 2]', "page.txt"))
    seed_json = Path(__file__).parents[1] / "catalog" / "000_501ccd0cd0e2608f.txt"
    assert not IMPORTER.can_read(source(seed_json.read_text("utf-8"), seed_json.name))


def test_name() -> None:
    assert IMPORTER.name == "directory-page"


_PIECES = st.sampled_from([
    "- ", "-", "\n", "\r\n", " ", "In the authors’ words", "No scores here yet", "Top scores",
    "More in ", "No lab model card reports it yet", "In use", "Saturated", ". ", "% ", "88.1%",
    "GPT-5", "{", "#", "<b>", '"', "Access needs ", "1,234", "launch posts", "labs", "\x0b",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=40))
def test_any_text_gives_a_record_or_a_rejection(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        imported = load(text)
    except RecordRejected as rejected:
        assert rejected.reason
        return
    page = page_of(imported)
    assert page.benchmark_id
    for warning in imported.warnings:
        assert warning.field and warning.reason.startswith("line ")
