"""The locator fused into the playbook engine: every located clause says how it was found and how sure the
engine is, with the locator's score, rank and version; absences record the locator's best passages."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook, run_playbook
from playbooks.locator import load_locator
from playbooks.locator.fusion import calibrate

SAMPLES = Path(__file__).resolve().parents[1] / "sample_contracts"

CONTRACT = """\
MASTER SERVICES AGREEMENT

1. Services. The Supplier shall provide the services described in each statement of work.

2. Limitation of Liability. In no event shall either party's aggregate liability arising out of or
relating to this Agreement exceed the total fees paid by the Customer in the twelve months preceding
the claim.

3. Governing Law. This Agreement shall be governed by the laws of the State of New York.
"""


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    p = tmp_path_factory.mktemp("fusion") / "msa.txt"
    p.write_text(CONTRACT, encoding="utf-8")
    doc = load_document(p)
    return {"doc": doc, "fused": run_playbook(doc, load_playbook("msa-customer"))}


@pytest.mark.parametrize(
    ("p", "t", "expected"),
    [(0.0, 0.3, 0.0), (0.3, 0.3, 0.5), (1.0, 0.3, 1.0), (0.15, 0.3, 0.25), (0.65, 0.3, 0.75)],
    ids=["zero", "threshold", "one", "half-threshold", "halfway-above"],
)
def test_calibration_puts_the_threshold_at_one_half(p: float, t: float, expected: float) -> None:
    assert calibrate(p, t) == pytest.approx(expected)


def test_a_located_clause_carries_its_location(outcomes: dict[str, object]) -> None:
    """The liability cap is found by its heading; the locator's score and rank for that passage ride along."""
    fused = {o.rule: o for o in outcomes["fused"]}  # type: ignore[attr-defined]
    loc = fused["limitation_of_liability"].location
    assert loc is not None and loc.via in ("heading", "pattern", "locator")
    assert loc.category == "Cap on Liability" and loc.locator == load_locator().version
    assert loc.locator_rank == 1 and loc.locator_score is not None and 0.0 < loc.confidence <= 1.0


def test_an_absence_records_the_locators_best_passages(outcomes: dict[str, object]) -> None:
    """A required clause that is not there: the search names the locator's candidates and their scores."""
    missing = [o for o in outcomes["fused"] if o.outcome == "missing" and o.location is not None]  # type: ignore[attr-defined]
    assert missing
    o = missing[0]
    assert o.searched is not None
    line = next(q for q in o.searched.queries if q.startswith("locator "))
    assert "best passages considered and not taken" in line and "score " in line and "rank 1" in line
    assert o.location.candidates and o.location.via is None


def test_the_review_json_carries_the_location(outcomes: dict[str, object]) -> None:
    doc = outcomes["doc"]
    result = review(doc, load_playbook("msa-customer"), outcomes=outcomes["fused"])  # type: ignore[arg-type]
    cap = next(f for f in result.to_dict()["findings"] if f["rule"] == "limitation_of_liability")
    location = cap["location"]
    assert set(location) >= {"confidence", "via", "locator", "locator_score", "locator_rank", "candidates"}


def test_rules_alone_carry_no_location(tmp_path: Path) -> None:
    p = tmp_path / "msa.txt"
    p.write_text(CONTRACT, encoding="utf-8")
    out = run_playbook(load_document(p), load_playbook("msa-customer"), locator=False)
    assert all(o.location is None for o in out)


# --- the fusion never turns a clause the rules located into an absence ---------------------------------

FILLER = (
    "{n}. {title}. The parties shall cooperate in good faith in respect of the matters described in this "
    "section, shall keep written records of their meetings, shall exchange reports each calendar quarter "
    "and shall each bear their own costs of doing so unless the parties agree otherwise in writing. Any "
    "schedule to this section forms part of it, and each party shall nominate a representative for it."
)
TITLES = ["Cooperation", "Records", "Reports", "Meetings", "Representatives", "Costs", "Schedules"]
# the cap is worded in the playbook's pattern vocabulary but sits under no limitation heading
PATTERN_ONLY_CAP = (
    "{n}. Miscellaneous. The aggregate liability of the Supplier under this Agreement shall not exceed "
    "the fees paid by the Customer in the twelve months before the claim."
)


def _long_contract(tmp_path: Path) -> Path:
    """A whole contract (well over the fusion's minimum of units) whose cap only the patterns find."""
    parts = ["SERVICES AGREEMENT", ""]
    for n in range(1, 31):
        parts.append(FILLER.format(n=n, title=TITLES[n % len(TITLES)]))
        parts.append("")
    parts.append(PATTERN_ONLY_CAP.format(n=31))
    p = tmp_path / "long.txt"
    p.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return p


def _silent_locator(tmp_path: Path) -> Path:
    """A real weights file whose heads rate every passage of every contract near zero (a locator that
    sees no clause anywhere): the worst case for a pattern-only region."""
    loc = load_locator()
    meta = {
        "format": 1,
        "version": "silent-test",
        "categories": list(loc.categories),
        "blocks": [{"name": "word", "kind": "word", "lo": 1, "hi": 1}],
    }
    n = len(loc.categories)
    out = tmp_path / "silent.npz"
    np.savez(
        out,
        meta=np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8),
        word_vocab=np.frombuffer(b"zzzz", dtype=np.uint8),
        word_idf=np.ones(1, dtype=np.float32),
        coef_q=np.zeros((1, n), dtype=np.int8),
        coef_scale=np.ones(n, dtype=np.float32),
        intercept=np.full(n, -10.0, dtype=np.float32),
        thresholds=np.full(n, 0.5, dtype=np.float32),
    )
    return out


def test_a_pattern_only_clause_the_locator_does_not_see_stays_located(tmp_path: Path) -> None:
    """The rules find the cap by its words alone, the locator rates every passage far below its threshold:
    the clause is kept (never reported missing), marked doubted, and the doubt is a weak link."""
    doc = load_document(_long_contract(tmp_path))
    silent = load_locator(_silent_locator(tmp_path))
    pb = load_playbook("msa-customer")
    rules = {o.rule: o for o in run_playbook(doc, pb, locator=False)}
    fused = {o.rule: o for o in run_playbook(doc, pb, locator=silent)}
    assert rules["limitation_of_liability"].outcome != "missing"  # the rules do find it
    cap = fused["limitation_of_liability"]
    assert cap.outcome != "missing" and cap.searched is None
    assert cap.quotes and "shall not exceed" in cap.quotes[0].text
    assert doc.text[cap.quotes[0].start : cap.quotes[0].end] == cap.quotes[0].text
    loc = cap.location
    assert loc is not None and loc.via == "pattern" and loc.doubted and loc.locator == "silent-test"
    assert loc.confidence < 0.5
    assert any("learned locator (silent-test) reads no Cap on Liability clause" in w for w in cap.weak)


@pytest.mark.parametrize("which", ["shipped", "silent"])
def test_fusion_never_turns_a_rule_located_clause_into_an_absence(tmp_path: Path, which: str) -> None:
    """On every sample contract, with the shipped locator and with one that sees nothing, each clause the
    rules alone locate is still located when the locator is fused in: its location names how it was found.
    (The judgement step after location may still set a located passage aside when it states none of the
    clause's terms; that absence records the passage it considered — a judgement, not the fusion's.)"""
    locator = load_locator() if which == "shipped" else load_locator(_silent_locator(tmp_path))
    pb = load_playbook("msa-customer")
    samples = [*sorted(SAMPLES.glob("*_msa.*")), _long_contract(tmp_path)]
    for path in samples:
        doc = load_document(path)
        rules = {o.rule: o for o in run_playbook(doc, pb, locator=False)}
        fused = {o.rule: o for o in run_playbook(doc, pb, locator=locator)}
        located = [r for r, o in rules.items() if o.searched is None and o.quotes]
        assert located, path.name
        turned = [
            r
            for r in located
            if (loc := fused[r].location) is not None and loc.via not in ("heading", "pattern", "locator")
        ]
        assert turned == [], f"{path.name}: {turned}"
        kept = [r for r in located if fused[r].searched is None and fused[r].quotes]
        set_aside = [r for r in located if r not in kept]
        for r in set_aside:  # only the judgement's own "states none of its terms", with the passage recorded
            assert fused[r].searched is not None
            assert any(q.startswith("considered and not taken: ") for q in fused[r].searched.queries), r


def test_a_short_text_is_never_doubted(outcomes: dict[str, object]) -> None:
    fused = {o.rule: o for o in outcomes["fused"]}  # type: ignore[attr-defined]
    assert all(not o.location.doubted for o in fused.values() if o.location is not None)


# --- present, unconfirmed: weak evidence the locator does not see anywhere ------------------------------

# a cap that meets the playbook's standard (fees of twelve months, the indemnities carved out), worded in its
# pattern vocabulary under no limitation heading
STANDARD_CAP = (
    "{n}. Miscellaneous. Except for a party's indemnification obligations, breach of confidentiality, "
    "gross negligence, wilful misconduct or fraud, the aggregate liability of each party under this "
    "Agreement shall not exceed the fees paid or payable in the twelve months preceding the event giving "
    "rise to the claim."
)
# only a hint of a governing-law clause: the laws of a state named, nothing "governed by" them
LAW_HINT = (
    "32. Compliance. The Supplier shall at all times comply with the laws of the State of Delaware in "
    "performing the services."
)


def _one_word_locator(tmp_path: Path, category: str, word: str, *, intercept: float = -10.0) -> Path:
    """A real weights file whose `category` head fires on `word` and on nothing else (a unit holding only
    the word scores the logistic of 20 + `intercept`; the threshold is 0.5)."""
    loc = load_locator()
    meta = {
        "format": 1,
        "version": "one-word-test",
        "categories": list(loc.categories),
        "blocks": [{"name": "word", "kind": "word", "lo": 1, "hi": 1}],
    }
    n = len(loc.categories)
    coef = np.zeros((1, n), dtype=np.int8)
    coef[0, list(loc.categories).index(category)] = 127
    out = tmp_path / f"one_word_{word}_{intercept:g}.npz"  # a file of its own: loaded locators are cached
    np.savez(
        out,
        meta=np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8),
        word_vocab=np.frombuffer(word.encode("utf-8"), dtype=np.uint8),
        word_idf=np.ones(1, dtype=np.float32),
        coef_q=coef,
        coef_scale=np.full(n, 20.0 / 127, dtype=np.float32),
        intercept=np.full(n, intercept, dtype=np.float32),
        thresholds=np.full(n, 0.5, dtype=np.float32),
    )
    return out


def _contract_with(tmp_path: Path, cap: str, extra: str = "") -> Path:
    p = _long_contract(tmp_path)
    text = p.read_text(encoding="utf-8").replace(PATTERN_ONLY_CAP.format(n=31), cap.format(n=31))
    p.write_text(text + (f"\n{extra}\n" if extra else ""), encoding="utf-8")
    return p


def test_a_doubted_standard_clause_is_present_but_unconfirmed(tmp_path: Path) -> None:
    """A cap the rules find by its words alone and judge standard, which the locator reads nowhere in the
    contract: not a confident position — it needs review, quoted, with the locator's best passage named —
    and never "missing". With a locator that reads it, the same cap keeps the rules' position."""
    doc = load_document(_contract_with(tmp_path, STANDARD_CAP))
    pb = load_playbook("msa-customer")
    rules = {o.rule: o for o in run_playbook(doc, pb, locator=False)}["limitation_of_liability"]
    assert rules.outcome in ("standard", "fallback")
    silent = load_locator(_silent_locator(tmp_path))
    cap = {o.rule: o for o in run_playbook(doc, pb, locator=silent)}["limitation_of_liability"]
    assert cap.outcome == "needs_review" and cap.searched is None
    assert cap.location is not None and cap.location.doubted
    assert cap.quotes and "shall not exceed" in cap.quotes[0].text
    assert "unconfirmed: the learned locator's best passage for Cap on Liability is characters" in cap.reason
    assert "against its threshold 0.50" in cap.reason
    seeing = load_locator(_one_word_locator(tmp_path, "Cap on Liability", "exceed"))
    seen = {o.rule: o for o in run_playbook(doc, pb, locator=seeing)}["limitation_of_liability"]
    assert seen.outcome == rules.outcome and seen.location is not None and not seen.location.doubted


def test_weaker_language_the_locator_reads_nowhere_is_not_the_clause(tmp_path: Path) -> None:
    """Only a hint of a governing-law clause, and a locator that reads no governing-law clause anywhere in
    the contract, far under its threshold: the hint decides nothing — the clause is missing, and the hinted
    sentence is in the search record as considered and not taken, with the locator's best passage named."""
    doc = load_document(_contract_with(tmp_path, PATTERN_ONLY_CAP, LAW_HINT))
    pb = load_playbook("msa-customer")
    silent = load_locator(_silent_locator(tmp_path))
    law = {o.rule: o for o in run_playbook(doc, pb, locator=silent)}["governing_law"]
    assert law.outcome == "missing" and not law.quotes
    assert law.searched is not None
    (note,) = [q for q in law.searched.queries if q.startswith("considered and not taken")]
    assert "Delaware" in note and "the learned locator's best passage for Governing Law" in note
    without = {o.rule: o for o in run_playbook(doc, pb, locator=False)}["governing_law"]
    assert without.outcome == "needs_review"  # with no locator, the hint is still read, as before


def test_an_absence_from_weaker_language_claims_only_what_the_rule_looks_for(tmp_path: Path) -> None:
    """Only the weaker language of an effect-of-termination clause ("the indemnity shall survive the
    termination"), which the locator reads nowhere: missing — and the claim says what is missing (our data
    returned, help with the transition), not that nothing at all is said of the end."""
    extra = "33. Indemnity. The Customer's indemnity of the Supplier shall survive the termination hereof."
    doc = load_document(_contract_with(tmp_path, PATTERN_ONLY_CAP, extra))
    silent = load_locator(_silent_locator(tmp_path))
    end = {o.rule: o for o in run_playbook(doc, load_playbook("msa-customer"), locator=silent)}
    found = end["effect_of_termination"]
    assert found.outcome == "missing" and "returns our data" in found.claim
    assert found.searched is not None and any("survive" in q for q in found.searched.queries)


def test_weaker_language_the_locator_nearly_reads_is_unconfirmed(tmp_path: Path) -> None:
    """Only a hint of a governing-law clause: the engine's own "may be one" finding. Where the locator's best
    passage scores under its threshold but not far under it, the location is doubted and the reason names
    the locator's best passage; where the locator reads the hinted sentence as the clause, that sentence is
    the clause."""
    doc = load_document(_contract_with(tmp_path, PATTERN_ONLY_CAP, LAW_HINT))
    pb = load_playbook("msa-customer")
    # the hinted sentence scores about 0.4 against a threshold of 0.5: under it, but not far
    near = load_locator(_one_word_locator(tmp_path, "Governing Law", "delaware", intercept=-20.4))
    law = {o.rule: o for o in run_playbook(doc, pb, locator=near)}["governing_law"]
    assert law.outcome == "needs_review" and law.quotes and "Delaware" in law.quotes[0].text
    assert law.location is not None and law.location.doubted
    assert "unconfirmed: the learned locator's best passage for Governing Law" in law.reason
    seeing = load_locator(_one_word_locator(tmp_path, "Governing Law", "delaware"))
    law = {o.rule: o for o in run_playbook(doc, pb, locator=seeing)}["governing_law"]
    assert law.location is not None and law.location.via == "locator" and not law.location.doubted
    assert law.quotes and "Delaware" in law.quotes[0].text and "unconfirmed" not in law.reason


def test_eval_clauses_counts_an_unconfirmed_presence_apart(tmp_path: Path) -> None:
    """`eval clauses` reads a doubted finding as neither present nor absent: it is counted apart."""
    from citationgate.evaluation.clause_eval import CUAD_MAP, _present, _Tally

    doc = load_document(_contract_with(tmp_path, STANDARD_CAP))
    silent = load_locator(_silent_locator(tmp_path))
    findings = list(review(doc, load_playbook("msa-customer"), locator=silent).findings)
    (when,) = CUAD_MAP["Cap on Liability"]
    assert _present(findings, when) is None
    assert _present(findings, when, unconfirmed=True)
    tally = _Tally(["Cap on Liability"])
    for expert in (True, False):
        tally.add(
            "Cap on Liability",
            present=False,
            absent=False,
            ours=[],
            expert=[],
            expert_present=expert,
            unconfirmed=True,
        )
    m = tally.report({"Cap on Liability": CUAD_MAP["Cap on Liability"]})["categories"]["Cap on Liability"]
    assert (m["unconfirmed_present"], m["unconfirmed_absent"], m["false_absence_rate"]) == (1, 1, 0.0)
    assert m["predicted_present"] == 0


# --- the locator's pick inside a long passage is taken ------------------------------------------------

# one sentence of well over `units.HARD` characters: the locator reads it as two or more units, and the
# word that makes its head fire is only in the last of them, where no passage starts
LONG_SENTENCE = (
    "32. Control. "
    + "the parties shall meet and confer and keep records and exchange reports and bear their own costs " * 10
    + "and where the zebra event occurs the other party may end this agreement on notice"
    + ".\n"
)


def test_the_locators_pick_inside_a_long_passage_is_taken(tmp_path: Path) -> None:
    """Where the rules find nothing and the locator's best unit is a later piece of one long sentence
    (no passage starts inside it), the fusion takes that sentence as the clause — before, the pick held no
    passage and was silently dropped, so the clause went unread."""
    p = _long_contract(tmp_path)
    text = p.read_text(encoding="utf-8").replace(PATTERN_ONLY_CAP.format(n=31), LONG_SENTENCE)
    p.write_text(text, encoding="utf-8")
    doc = load_document(p)
    locator = load_locator(_one_word_locator(tmp_path, "Change of Control", "zebra"))
    scan = locator.scan(doc)
    best = scan.top("Change of Control", k=1)[0]
    start = doc.text.index("32. Control.")
    assert best.start > start  # the pick is not the sentence's first unit
    pb = load_playbook("msa-customer")
    rules = {o.rule: o for o in run_playbook(doc, pb, locator=False)}
    assert rules["change_of_control"].outcome == "not_applicable"  # no wording of the rules' own
    cc = {o.rule: o for o in run_playbook(doc, pb, locator=locator)}["change_of_control"]
    assert cc.location is not None and cc.location.via == "locator"
    assert cc.quotes and all(start <= q.start < q.end <= start + len(LONG_SENTENCE) for q in cc.quotes)


# --- a rule's exclusion rules out its own words, not the rest of the locator's passage ----------------

# one sentence, no limb the engine splits at: the exclusion ("insolvent") and the clause ("a change in the
# control") side by side
CONTROL_BESIDE_INSOLVENCY = (
    "32. Ending. Either party may end this Agreement on notice if the other party becomes insolvent or "
    "undergoes a change in the control of its business, zebra.\n"
)
ONLY_EXCLUDED_WORDS = (
    "32. Operations. The Supplier shall maintain its licence under the insurance laws, zebra.\n"
)
BROKEN_NON_EXCLUSIVE = (
    "32. Materials. The materials are and shall remain the sole and exclusive property of the Supplier, "
    "and the Supplier grants the Customer a non- exclusive licence to use them, zebra.\n"
)


def _with_clause(tmp_path: Path, clause: str) -> Path:
    p = _long_contract(tmp_path)
    text = p.read_text(encoding="utf-8").replace(PATTERN_ONLY_CAP.format(n=31), clause)
    p.write_text(text, encoding="utf-8")
    return p


def test_the_locators_pick_stands_where_its_clause_words_lie_outside_the_exclusion(tmp_path: Path) -> None:
    """The rule excludes insolvency wording; the same sentence also gives a right on "a change in the
    control": the rules alone locate nothing (the sentence is excluded whole), the locator's pick is read,
    and its quote is that sentence."""
    doc = load_document(_with_clause(tmp_path, CONTROL_BESIDE_INSOLVENCY))
    pb = load_playbook("msa-customer")
    alone = {o.rule: o for o in run_playbook(doc, pb, locator=False)}["change_of_control"]
    assert alone.location is None and not alone.quotes
    locator = load_locator(_one_word_locator(tmp_path, "Change of Control", "zebra"))
    cc = {o.rule: o for o in run_playbook(doc, pb, locator=locator)}["change_of_control"]
    assert cc.location is not None and cc.location.via == "locator"
    start = doc.text.index("32. Ending.")
    end = start + len(CONTROL_BESIDE_INSOLVENCY)
    assert cc.quotes and all(start <= q.start < q.end <= end for q in cc.quotes)


@pytest.mark.parametrize(
    ("clause", "rule", "category"),
    [(ONLY_EXCLUDED_WORDS, "insurance", "Insurance"), (BROKEN_NON_EXCLUSIVE, "exclusivity", "Exclusivity")],
)
def test_the_locators_pick_is_dropped_where_only_excluded_words_match(
    tmp_path: Path, clause: str, rule: str, category: str
) -> None:
    """Where the rule's own wording in the passage is inside what it excludes ("insurance laws"; "non-
    exclusive", broken at a line end as "non- exclusive"), the locator's pick is not the clause."""
    doc = load_document(_with_clause(tmp_path, clause))
    locator = load_locator(_one_word_locator(tmp_path, category, "zebra"))
    out = {o.rule: o for o in run_playbook(doc, load_playbook("msa-customer"), locator=locator)}[rule]
    assert out.location is None or out.location.via != "locator"
    assert not out.quotes
