"""Whether a passage supports one atomic claim: the deterministic checks, and a judge for the rest."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from citationgate.ledger.labels import MISSING_UNSUPPORTED, Support, _wordset
from citationgate.ledger.sentences import split_sentences
from citationgate.ledger.values import _MONTHS, _SCALES, _TENS, _UNITS, extract_values, value_present
from citationgate.ledger.words import (
    _CAUSAL,
    _CLAUSE_VERBS,
    _NEGATIONS,
    _PRECISION,
    _STOP,
    _UNIVERSAL,
    _WORD,
    _canon,
    _content_stems,
    _has_phrase,
    _mask_values,
    _modal_classes,
    _negated_stems,
    _stem,
    _words,
)


# ── the checks ───────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One reason a claim is not fully supported: which check, the words at issue, and whether
    deleting `remove` from the claim would leave a wording the passage does support."""

    check: str  # value | name | scope | negation | modal | precision | causal | vocabulary
    words: str
    detail: str
    remove: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "words": self.words, "detail": self.detail, "remove": self.remove}


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeVerdict:
    """What a judge says about a claim the rules could not decide."""

    label: Support
    explanation: str


@runtime_checkable
class Judge(Protocol):
    """A model-based judge, asked only what the deterministic rules could not decide.

    Any exception, or a label that is not a `Support`, makes the row `unverifiable` — never a pass.
    """

    name: str

    def judge(self, claim: str, passages: Sequence[str]) -> JudgeVerdict: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportCheck:
    """The outcome of checking one atomic claim against its passages."""

    label: Support
    explanation: str
    problems: tuple[Problem, ...] = ()
    proposed: str | None = None  # the narrower wording, for `partial`
    decided_by: str = "rules"


def check_support(claim: str, passages: Sequence[str], *, judge: Judge | None = None) -> SupportCheck:
    """Check one atomic claim against the union of its cited passages."""
    texts = [p for p in passages if p and p.strip()]
    if not texts:
        return SupportCheck(
            label=Support.UNVERIFIABLE,
            explanation="no verified passage to inspect: the claim cannot be checked against the text",
        )
    passage = "\n".join(texts)
    problems = _problems(claim, passage)
    hard = [p for p in problems if p.remove is None and p.check != "vocabulary"]
    soft = [p for p in problems if p.remove is not None]
    vocab = [p for p in problems if p.check == "vocabulary"]
    if hard:
        return SupportCheck(
            label=Support.UNSUPPORTED, explanation=_explain(hard + soft), problems=tuple(problems)
        )
    narrowed = claim
    for p in soft:
        narrowed = _remove(narrowed, p.remove or "")
    # the vocabulary check is made on the narrowed wording: "contractors" is dealt with by removing it
    missing = _missing_content(narrowed, passage)
    total = max(len(_content_stems(narrowed)), 1)
    if missing and len(missing) / total >= MISSING_UNSUPPORTED:
        words = ", ".join(f"'{w}'" for w in missing)
        vocab_problem = Problem(
            check="vocabulary", words=words, detail=f"the passage does not contain {words}"
        )
        return SupportCheck(
            label=Support.UNSUPPORTED,
            explanation=_explain([*soft, vocab_problem]),
            problems=(*problems, vocab_problem) if not vocab else tuple(problems),
        )
    if missing:
        words = ", ".join(f"'{w}'" for w in missing)
        undecided = Problem(
            check="vocabulary",
            words=words,
            detail=f"the passage does not use {words}; the rules cannot tell whether it says the same",
        )
        if judge is not None:
            return _ask_judge(judge, narrowed if soft else claim, texts, soft, undecided)
        return SupportCheck(
            label=Support.UNVERIFIABLE,
            explanation=_explain([*soft, undecided]) + " (needs a reviewer or a judge)",
            problems=(*soft, undecided),
            proposed=narrowed if soft else None,
        )
    if soft:
        return SupportCheck(
            label=Support.PARTIAL,
            explanation=_explain(soft) + "; narrower: " + "; ".join(f"remove '{p.remove}'" for p in soft),
            problems=tuple(soft),
            proposed=narrowed,
        )
    return SupportCheck(
        label=Support.SUPPORTED,
        explanation="every value, name, scope word and modal in the claim is in the passage",
    )


def _ask_judge(
    judge: Judge, claim: str, passages: Sequence[str], soft: Sequence[Problem], undecided: Problem
) -> SupportCheck:
    name = getattr(judge, "name", type(judge).__name__)
    try:
        verdict = judge.judge(claim, list(passages))
        label = Support(verdict.label)
        explanation = str(verdict.explanation)
    except Exception as exc:  # a judge's failure is never a pass
        return SupportCheck(
            label=Support.UNVERIFIABLE,
            explanation=f"{undecided.detail}; judge {name} failed ({type(exc).__name__}: {exc})",
            problems=(*soft, undecided),
            decided_by=f"judge:{name}",
        )
    if label is Support.SUPPORTED and soft:
        label = Support.PARTIAL
    return SupportCheck(
        label=label,
        explanation=f"judge {name}: {explanation}",
        problems=(*soft, undecided),
        proposed=claim if soft else None,
        decided_by=f"judge:{name}",
    )


def _explain(problems: Iterable[Problem]) -> str:
    return "; ".join(p.detail for p in problems)


def _remove(text: str, words: str) -> str:
    i = text.find(words)
    if i == -1:
        return text
    out = text[:i] + text[i + len(words) :]
    return re.sub(r"\s{2,}", " ", out).strip()


def _missing_content(claim: str, passage: str) -> list[str]:
    have = set(_content_stems(passage))
    out: list[str] = []
    masked = _mask_values(claim)
    starts = {a for a, _b in split_sentences(masked)}
    for m in _WORD.finditer(masked):
        w = m.group(0).strip("'’-")
        lw = w.lower()
        if lw in _STOP or lw in _NEGATIONS or lw in _UNIVERSAL or lw in _MONTHS or len(lw) < 2:
            continue
        if lw in _UNITS or lw in _TENS or lw in _SCALES:
            continue  # numbers are the value check's
        if w[0].isupper() and not _first_word(masked, m.start(), starts):
            continue  # capitalised words are the name check's, except where a sentence starts
        if _canon(_stem(w)) not in have and lw not in out:
            out.append(lw)
    return out


def _best_sentence(claim: str, passage: str) -> str:
    stems = set(_content_stems(claim))
    best, best_score = passage, -1
    for a, b in split_sentences(passage):
        s = passage[a:b]
        score = len(stems & set(_content_stems(s)))
        if score > best_score:
            best, best_score = s, score
    return best


def _problems(claim: str, passage: str) -> list[Problem]:
    problems: list[Problem] = []
    # values
    pvalues = extract_values(passage)
    for v in extract_values(claim):
        if not value_present(v, pvalues):
            same = [p.text for p in pvalues if p.kind == v.kind]
            has = f" (it has {', '.join(repr(s) for s in same)})" if same else ""
            problems.append(
                Problem(check="value", words=v.text, detail=f"'{v.text}' is not in the passage{has}")
            )
    # names and defined terms
    problems.extend(_name_problems(claim, passage))
    # scope: coordinated nouns, universal quantifiers
    problems.extend(_scope_problems(claim, passage, skip={p.words for p in problems}))
    # strength
    sentence = _best_sentence(claim, passage)
    problems.extend(_modal_problems(claim, sentence, passage))
    problems.extend(_negation_problems(claim, sentence))
    for phrase in _PRECISION:
        if _has_phrase(claim, phrase) and not _has_phrase(passage, phrase):
            problems.append(
                Problem(
                    check="precision",
                    words=phrase,
                    detail=f"adds precision the passage does not give: '{phrase}'",
                )
            )
    for phrase in _CAUSAL:
        if _has_phrase(claim, phrase) and not _has_phrase(passage, phrase):
            problems.append(
                Problem(
                    check="causal",
                    words=phrase,
                    detail=f"stronger causal language than the passage: '{phrase}'",
                )
            )
    return problems


_NAME_STOP = _wordset(
    """The A An This That These Those It Its If In On At Under Upon Each Either Neither Both All Any No Not
    Where When While Whereas However Also Only As For To By With Without There Such Our We You Your They
    He She His Her Clause Clauses Section Sections Schedule Article Paragraph Part Para Sub I
    Ltd Limited Inc Incorporated LLC LLP Plc PLC Corp Corporation Co GmbH AG SA BV NV"""
)


def _name_problems(claim: str, passage: str) -> list[Problem]:
    out: list[Problem] = []
    masked = _mask_values(claim)
    sentence_starts = {a for a, _b in split_sentences(masked)}
    for m in re.finditer(r"\b[A-Z][A-Za-z'’-]*", masked):
        word = m.group(0).rstrip("'’-")
        if len(word) < 2 or word in _NAME_STOP or word.lower() in _MONTHS or word.lower() in ("ii", "iii"):
            continue
        if _first_word(masked, m.start(), sentence_starts):
            continue  # a capital because the sentence starts there: the vocabulary check reads it
        if word.isupper() and _acronym_in(word, passage):
            continue  # "IP" for "Intellectual Property"
        base = re.sub(r"['’]s$", "", word)
        if re.search(rf"(?<![\w]){re.escape(base)}(?![\w])", passage):
            continue
        if re.search(rf"(?<![\w]){re.escape(base.upper())}(?![\w])", passage):
            continue  # "SUPPLIER" in an all-capitals clause
        coord = _coordination_containing(claim, m.start(), m.end(), passage)
        if any(p.words == base for p in out):
            continue
        out.append(
            Problem(
                check="name",
                words=base,
                detail=f"names '{base}', which the passage does not",
                remove=coord.strip(" ,") if coord else None,
            )
        )
    return out


def _first_word(text: str, pos: int, sentence_starts: set[int]) -> bool:
    before = text[:pos].rstrip()
    return pos in sentence_starts or not before or before[-1] in ':—–("“'


def _acronym_in(acronym: str, passage: str) -> bool:
    """Whether the passage spells out `acronym` as capitalised words ("IP" ← "Intellectual Property")."""
    letters = acronym.rstrip("s")
    if len(letters) < 2:
        return False
    words = r"\W+".join(rf"{ch}[a-z]+" for ch in letters)
    return re.search(rf"\b{words}\b", passage) is not None


_COORD = re.compile(
    r"(?P<left>(?:[A-Za-z][\w'’-]*\s+){0,1}[A-Za-z][\w'’-]*)"
    r"(?P<conj>\s*,?\s+(?:and|or|and/or)\s+)"
    r"(?P<right>(?:(?:the|its|their|all|any|other)\s+)?[A-Za-z][\w'’-]*)"
)


def _coordination_containing(claim: str, start: int, end: int, passage: str) -> str | None:
    """If claim[start:end] is one conjunct of "X and Y" and the other conjunct is in the passage,
    the text to delete so the claim keeps only the supported conjunct; else None."""
    have = set(_content_stems(passage)) | {w.lower() for w in _words(passage)}
    for m in _COORD.finditer(claim):
        lw = _words(m.group("left"))[-1]
        rw = _words(m.group("right"))[-1]
        ls, rs = m.start("left") + m.group("left").rfind(lw), m.start("right") + m.group("right").rfind(rw)
        if ls <= start < ls + len(lw) and (_canon(_stem(rw)) in have or rw.lower() in have):
            return claim[ls : m.end("conj")]
        if rs <= start < rs + len(rw) and (_canon(_stem(lw)) in have or lw.lower() in have):
            return claim[m.start("conj") : m.end("right")]
    return None


def _scope_problems(claim: str, passage: str, *, skip: set[str]) -> list[Problem]:
    out: list[Problem] = []
    have = set(_content_stems(passage))
    for m in _COORD.finditer(claim):
        lw = _words(m.group("left"))[-1]
        rw = _words(m.group("right"))[-1]
        if lw in skip or rw in skip or lw.lower() in _CLAUSE_VERBS or rw.lower() in _CLAUSE_VERBS:
            continue
        if len(lw) < 2 or len(rw) < 2:
            continue
        if lw.lower() in _STOP or rw.lower() in _STOP:
            continue
        l_in, r_in = _canon(_stem(lw)) in have, _canon(_stem(rw)) in have
        if l_in and not r_in:
            out.append(
                Problem(
                    check="scope",
                    words=rw,
                    detail=f"the passage names '{lw}' but not '{rw}'",
                    remove=claim[m.start("conj") : m.end("right")].strip(" ,"),
                )
            )
        elif r_in and not l_in:
            ls = m.start("left") + m.group("left").rfind(lw)
            out.append(
                Problem(
                    check="scope",
                    words=lw,
                    detail=f"the passage names '{rw}' but not '{lw}'",
                    remove=claim[ls : m.end("conj")].strip(" ,"),
                )
            )
    passage_universal = any(w.lower() in _UNIVERSAL for w in _words(passage))
    if not passage_universal:
        for w in _words(claim):
            if w.lower() in _UNIVERSAL:
                out.append(
                    Problem(
                        check="scope",
                        words=w,
                        detail=f"broadens scope with '{w}', which the passage does not say",
                        remove=w,
                    )
                )
    return out


def _modal_problems(claim: str, sentence: str, passage: str) -> list[Problem]:
    c = _modal_classes(claim)
    if not c:
        return []
    p = _modal_classes(sentence) or _modal_classes(passage)
    if not p:
        return []
    out = []
    for cls, words in c.items():
        if cls not in p:
            said = ", ".join(f"'{w}' ({k})" for k, w in p.items())
            out.append(
                Problem(
                    check="modal",
                    words=words,
                    detail=f"'{words}' ({cls}) but the passage says {said}",
                )
            )
    return out


def _negation_problems(claim: str, sentence: str) -> list[Problem]:
    c_neg, c_all = _negated_stems(claim)
    p_neg, p_all = _negated_stems(sentence)
    out = []
    # a word one side negates that the other states without negation
    for negated, other_all, other_neg, who, other in (
        (p_neg, c_all, c_neg, "the passage", "the claim"),
        (c_neg, p_all, p_neg, "the claim", "the passage"),
    ):
        flipped = [negated[s] for s in negated if s in other_all and s not in other_neg]
        if flipped:
            words = ", ".join(repr(w) for w in flipped)
            out.append(
                Problem(
                    check="negation",
                    words=", ".join(flipped),
                    detail=f"{who} negates {words}; {other} does not",
                )
            )
    return out
