"""The review's values against CUAD's own normalised answers, over every shared CUAD contract.

CUAD's experts wrote, beside each clause, a normalised answer: the governing law's jurisdiction
("New York"), the agreement, effective and expiration dates ("6/21/99", "[]/[]/2004" where a part is not
given, "perpetual"), the renewal term ("Successive 1 year") and the notice period to terminate renewal
("30 days"). For every contract whose answer is stated, the review's value (the built-in playbook, run as a
user would) is compared with it; a value the review did not read counts as wrong. Answers in a form we do
not read (a renewal term given only as "until terminated", an expiry "upon completion of the services")
are listed as `unscored` rather than guessed at.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from citationgate.evaluation.data import cuad_records
from citationgate.model import Evidence, Finding
from citationgate.review import review
from ingest.load import load_document
from playbooks import load_playbook

__all__ = ["ANSWERS", "evaluate_cuad_answers"]

_DATE = re.compile(r"^\s*(\[\]|\d{1,2})/(\[\]|\d{1,2})/(\[\]|\d{2,4})\s*$")
_PERIOD = re.compile(r"(\d+(?:\.\d+)?)\s*(day|week|month|year)s?\b", re.IGNORECASE)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twelve": 12}


def _value(findings: Mapping[str, Finding], rule: str, field: str) -> Any:
    f = findings.get(rule)
    if f is None or f.evidence is not Evidence.QUOTE:
        return None
    v = (f.proposal.details.get("extracted") or {}).get(field)
    return v.get("value") if isinstance(v, Mapping) else v


def _gold_date(answer: str) -> tuple[int | None, int | None, int | None] | None:
    m = _DATE.match(answer)
    if not m:
        return None
    mon, day, year = (None if g == "[]" else int(g) for g in m.groups())
    if (
        year is not None and year < 100
    ):  # CUAD's contracts date from the 1990s on; their terms run to the 2050s
        year += 2000 if year <= 60 else 1900
    return year, mon, day


def _effective(findings: Mapping[str, Finding]) -> Any:
    """The date the contract defines as its Effective Date, else the date its effective-date clause states,
    else the agreement's date where it says it takes effect then ("effective as of the date first written
    above") or states no effective date at all (the review: "the agreement takes effect on signature")."""
    stated = _value(findings, "effective_date", "defined_date") or _value(findings, "effective_date", "date")
    if stated is not None:
        return stated
    f = findings.get("effective_date")
    # no effective-date clause: the review says the agreement "takes effect on signature", i.e. its date
    unstated = f is None or f.proposal.details.get("outcome") in ("missing", "not_applicable")
    if unstated or _value(findings, "effective_date", "same_as_signing") is True:
        return _value(findings, "agreement_date", "date")
    return None


def _expiry(findings: Mapping[str, Finding]) -> Any:
    """The date the contract defines as its expiry, else the expiry date the review states, or the one its
    start date and term give ("three (3) years from the Effective Date"): the arithmetic a reader does, on
    two values each read with its quote."""
    stated = _value(findings, "expiration_date", "defined_date") or _value(
        findings, "expiration_date", "expires_on"
    )
    if stated is not None:
        return stated
    months = _value(findings, "expiration_date", "term_months")
    start = _effective(findings) or _value(findings, "agreement_date", "date")
    if not isinstance(months, int | float) or not isinstance(start, str):
        return None
    if re.fullmatch(r"\d{4}", start) and round(months) % 12 == 0:  # a start dated "____, 2004": the year
        return f"{int(start) + round(months) // 12:04d}"
    if not re.match(r"\d{4}-\d{2}-\d{2}$", start):
        return None
    y, mo, d = (int(x) for x in start.split("-"))
    total = y * 12 + (mo - 1) + round(months)
    return f"{total // 12:04d}-{total % 12 + 1:02d}-{d:02d}"


def _same_date(answer: str, ours: Any) -> bool | None:
    gold = _gold_date(answer)
    if gold is None or gold == (None, None, None):
        return None  # not a date answer ("perpetual"), or one redacted whole ("[]/[]/[]"): not scored
    if not isinstance(ours, str) or not re.fullmatch(r"\d{4}(?:-\d{2}(?:-\d{2})?)?", ours):
        return False
    # a date the contract leaves partly blank ("____ day of March, 2018") is read as the parts it states
    parts = [int(x) for x in ours.split("-")]
    got = (parts[0], parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None)
    if all(g is None or g == o for g, o in zip(gold, got, strict=True)):
        return True
    # "ends on the anniversary" and "ends the day before it" are the same term (May 31 and June 1 too)
    y, m, d = gold
    if None in (y, m, d) or got[1] is None or got[2] is None:
        return False
    try:
        apart = datetime.date(y, m, d) - datetime.date(got[0], got[1], got[2])  # type: ignore[arg-type]
    except ValueError:
        return False
    return abs(apart.days) == 1


def _months(answer: str) -> float | None:
    text = answer.lower()
    for word, number in _WORD_NUMBERS.items():
        text = re.sub(rf"\b{word}\b", str(number), text)
    m = _PERIOD.search(text)
    if not m:
        return None
    n = float(m.group(1))
    unit = m.group(2).lower()
    return n * {"day": 1 / 30, "week": 7 / 30, "month": 1, "year": 12}[unit]


def _days(answer: str) -> float | None:
    months = _months(answer)
    if months is None:
        return None
    m = _PERIOD.search(answer.lower())
    if m and m.group(2).lower() == "day":
        return float(m.group(1))
    if m and m.group(2).lower() == "year":  # a year's notice is 365 days, as the review counts it
        return float(m.group(1)) * 365
    return months * 30


def _same_law(answer: str, ours: Any) -> bool | None:
    if not re.search(r"[A-Za-z]", answer):
        return None  # redacted ("[* * *]"): nothing to compare with
    if not isinstance(ours, str) or not ours:
        return False
    golds = {_norm_place(g) for g in re.split(r"[;/]|,\s*(?=[A-Z])", answer) if g.strip()}
    mine = _norm_place(ours)
    # "England" and "England and Wales" name one law; "Province of Ontario, Canada" is Ontario
    return any(mine == g or mine.startswith(g + " ") or g.startswith(mine + " ") for g in golds)


def _norm_place(s: str) -> str:
    s = re.sub(
        r"^(?:the\s+)?(?:state|commonwealth|province|(?:people['’]s\s+)?republic)\s+of\s+",
        "",
        s.strip().lower(),
    )
    return re.sub(r",?\s*(?:canada|usa|u\.s\.a\.|united\s+states)$", "", s).strip()


def _close(gold: float | None, ours: Any, tolerance: float) -> bool | None:
    if gold is None:
        return None
    if not isinstance(ours, int | float) or isinstance(ours, bool):
        return False
    return abs(gold - ours) <= tolerance


#: CUAD category → how the review's value is compared with its answer (None: answer not scorable).
ANSWERS: Mapping[str, Callable[[str, Mapping[str, Finding]], bool | None]] = {
    "Governing Law": lambda a, f: _same_law(a, _value(f, "governing_law", "law")),
    "Agreement Date": lambda a, f: _same_date(a, _value(f, "agreement_date", "date")),
    "Effective Date": lambda a, f: _same_date(a, _effective(f)),
    "Expiration Date": lambda a, f: _same_date(a, _expiry(f)),
    "Renewal Term": lambda a, f: _close(_months(a), _value(f, "auto_renewal", "renewal_months"), 0.5),
    "Notice Period to Terminate Renewal": lambda a, f: _close(
        _days(a), _value(f, "auto_renewal", "notice_days"), 1
    ),
}


def evaluate_cuad_answers(
    data_dir: Path,
    *,
    playbook_ref: str = "msa-customer",
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Per category: right, scored (answers stated in a form we read), unscored, and accuracy."""
    playbook = load_playbook(playbook_ref)
    counts = {c: {"right": 0, "scored": 0, "unscored": 0} for c in ANSWERS}
    misses: list[dict[str, Any]] = []
    for rec in cuad_records(data_dir, limit=limit):
        result = review(load_document(rec.text_path), playbook)
        by_rule: dict[str, Finding] = {}
        for f in result.findings:
            by_rule.setdefault(f.proposal.rule or "", f)
        for category, compare in ANSWERS.items():
            answer = str((rec.categories.get(category) or {}).get("answer") or "").strip()
            if not answer:
                continue
            ok = compare(answer, by_rule)
            c = counts[category]
            if ok is None:
                c["unscored"] += 1
                continue
            c["scored"] += 1
            c["right"] += int(ok)
            if not ok and len(misses) < 200:
                misses.append({"id": rec.id, "category": category, "answer": answer})
        if progress:
            progress(1)
    per = {k: v | {"accuracy": v["right"] / v["scored"] if v["scored"] else None} for k, v in counts.items()}
    return {"categories": per, "misses": misses}
