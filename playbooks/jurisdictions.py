"""Jurisdictions named in contract text by canonical name: US states, UK jurisdictions ("England and Wales"),
countries, and laws named by their adjective ("English law") or initials ("the PRC")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from playbooks.hits import Hit

__all__ = ["OTHER_JURISDICTIONS", "US_STATES", "find_jurisdictions"]

# ---------------------------------------------------------------------------------------------- jurisdictions

US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware",
    "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky",
    "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri",
    "Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
    "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island",
    "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington",
    "West Virginia", "Wisconsin", "Wyoming", "District of Columbia",
)  # fmt: skip
OTHER_JURISDICTIONS = {
    "England and Wales": "England and Wales", "England & Wales": "England and Wales",
    "England": "England and Wales", "Scotland": "Scotland", "Northern Ireland": "Northern Ireland",
    "Ireland": "Ireland", "Republic of Ireland": "Ireland", "Nigeria": "Nigeria", "Lagos State": "Nigeria",
    "Ontario": "Ontario", "British Columbia": "British Columbia", "Quebec": "Quebec", "Québec": "Quebec",
    "Alberta": "Alberta",
    "New South Wales": "New South Wales", "Victoria": "Victoria", "Singapore": "Singapore",
    "Hong Kong": "Hong Kong", "Germany": "Germany", "France": "France", "the Netherlands": "Netherlands",
    "Netherlands": "Netherlands", "Switzerland": "Switzerland", "Sweden": "Sweden", "Spain": "Spain",
    "Italy": "Italy", "India": "India", "Japan": "Japan", "China": "China",
    "People's Republic of China": "China", "Israel": "Israel", "Canada": "Canada",
    "Australia": "Australia", "South Africa": "South Africa", "Kenya": "Kenya", "Ghana": "Ghana",
    "Luxembourg": "Luxembourg", "Belgium": "Belgium", "Denmark": "Denmark", "Norway": "Norway",
    "Finland": "Finland", "Brazil": "Brazil", "Mexico": "Mexico", "Korea": "Korea", "Taiwan": "Taiwan",
    "United Arab Emirates": "United Arab Emirates", "Dubai": "United Arab Emirates",
    "the United Kingdom": "England and Wales", "United Kingdom": "England and Wales",
    "United States": "United States", "New Zealand": "New Zealand", "Papua New Guinea": "Papua New Guinea",
    "Bermuda": "Bermuda", "Cayman Islands": "Cayman Islands",
    "British Virgin Islands": "British Virgin Islands",
    "Austria": "Austria", "Poland": "Poland", "Czech Republic": "Czech Republic", "Portugal": "Portugal",
    "Greece": "Greece", "Turkey": "Turkey", "Russia": "Russia", "Russian Federation": "Russia",
    "Ukraine": "Ukraine", "Argentina": "Argentina", "Chile": "Chile", "Colombia": "Colombia", "Peru": "Peru",
    "Thailand": "Thailand", "Malaysia": "Malaysia", "Indonesia": "Indonesia", "Philippines": "Philippines",
    "Vietnam": "Vietnam", "Pakistan": "Pakistan", "Egypt": "Egypt", "Saudi Arabia": "Saudi Arabia",
    "Qatar": "Qatar", "Romania": "Romania", "Hungary": "Hungary", "Cyprus": "Cyprus", "Malta": "Malta",
    "Iceland": "Iceland", "Puerto Rico": "Puerto Rico", "Manitoba": "Manitoba",
    "Saskatchewan": "Saskatchewan",
    "Nova Scotia": "Nova Scotia", "New Brunswick": "New Brunswick", "Queensland": "Queensland",
    "Western Australia": "Western Australia", "South Australia": "South Australia", "Macau": "Macau",
    "Vanuatu": "Vanuatu", "Liechtenstein": "Liechtenstein", "Monaco": "Monaco", "Isle of Man": "Isle of Man",
    "Guernsey": "Guernsey", "Barbados": "Barbados", "Bahamas": "Bahamas", "Panama": "Panama",
    "Costa Rica": "Costa Rica", "Hong Kong SAR": "Hong Kong", "Republic of Korea": "Korea",
    "South Korea": "Korea", "Slovakia": "Slovakia", "Slovenia": "Slovenia", "Croatia": "Croatia",
    "Bulgaria": "Bulgaria", "Serbia": "Serbia", "Estonia": "Estonia", "Latvia": "Latvia",
    "Lithuania": "Lithuania", "Morocco": "Morocco", "Tunisia": "Tunisia", "Uruguay": "Uruguay",
    "Venezuela": "Venezuela", "Ecuador": "Ecuador", "Sri Lanka": "Sri Lanka", "Nepal": "Nepal",
    "Bangladesh": "Bangladesh", "Kuwait": "Kuwait", "Bahrain": "Bahrain", "Oman": "Oman",
}  # fmt: skip
_JURIS = {s: s for s in US_STATES} | OTHER_JURISDICTIONS
_US_STATE_SET = frozenset(US_STATES)


def _names(keys: Iterable[str]) -> str:
    """An alternation of names in which a space matches any run of whitespace (PDF text reflows)."""
    return "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(keys, key=len, reverse=True))


def _key(found: str) -> str:
    return " ".join(found.split())


_JURIS_RE = re.compile(rf"\b(?:{_names(_JURIS)})\b")
_JURIS_UPPER = {k.upper(): v for k, v in _JURIS.items()}
_JURIS_UPPER_RE = re.compile(rf"\b(?:{_names(_JURIS_UPPER)})\b")


#: a country's name that is only part of a court's name: the court sits in the state named after it
_COURT_NAME = re.compile(r"\s+(?:federal\s+)?(?:district|bankruptcy|circuit)\s+courts?\b", re.IGNORECASE)


#: federal law laid over a state's ("except to the extent governed by the United States Trademark Act",
#: "the copyright laws of the United States"): not the law that governs the contract
_FEDERAL_AFTER = re.compile(r"(?:\s+of\s+America)?\s+(?:\w+\s+){0,3}(?:Act|Code)\b", re.IGNORECASE)
_FEDERAL_BEFORE = re.compile(
    r"(?:copyright|patent|trademark|federal|intellectual\s+property|securities|export|tax)\s+"
    r"(?:and\s+\w+\s+)?laws?\s+of\s+(?:the\s+)?$",
    re.IGNORECASE,
)


#: a law named by its adjective ("English law", "Swiss law") or its initials ("the PRC"): a jurisdiction only
#: where the word "law" follows (or the initials stand alone)
_LAW_ADJECTIVES = {
    "English": "England and Wales", "Scottish": "Scotland", "Scots": "Scotland", "Irish": "Ireland",
    "Swiss": "Switzerland", "German": "Germany", "French": "France", "Dutch": "Netherlands",
    "Italian": "Italy", "Spanish": "Spain", "Swedish": "Sweden", "Israeli": "Israel", "Japanese": "Japan",
    "Chinese": "China", "PRC": "China", "Singaporean": "Singapore", "Singapore": "Singapore",
    "Hong Kong": "Hong Kong", "Indian": "India", "Canadian": "Canada", "Australian": "Australia",
    "Danish": "Denmark", "Norwegian": "Norway", "Finnish": "Finland", "Belgian": "Belgium",
    "Austrian": "Austria", "Korean": "Korea", "Brazilian": "Brazil", "Mexican": "Mexico",
    "Luxembourg": "Luxembourg", "New York": "New York", "Delaware": "Delaware", "California": "California",
}  # fmt: skip
_LAW_ADJ_RE = re.compile(
    rf"\b({_names(_LAW_ADJECTIVES)})\s+(?:substantive\s+|governing\s+)?laws?\b", re.IGNORECASE
)
_PRC_RE = re.compile(r"\b(?:the\s+)?P\.?R\.?C\.?(?![A-Za-z])")
_ADJ_KEYS = {k.lower(): v for k, v in _LAW_ADJECTIVES.items()}


_PROVINCES = frozenset(
    {
        "Ontario",
        "British Columbia",
        "Quebec",
        "Alberta",
        "Manitoba",
        "Saskatchewan",
        "Nova Scotia",
        "New Brunswick",
    }
)


def _federal_overlay(text: str, m: re.Match[str]) -> bool:
    if _key(m.group()).lower() != "united states":
        return False
    return bool(
        _FEDERAL_AFTER.match(text, m.end())
        or _FEDERAL_BEFORE.search(text[max(0, m.start() - 60) : m.start()])
    )


def find_jurisdictions(text: str, base: int = 0) -> list[Hit]:
    """Named jurisdictions by canonical name: "State of New York" → "New York", "England" → "England
    and Wales". Federal law laid over a state's ("the copyright laws of the United States") is left out."""
    hits = [
        Hit(value=_JURIS[_key(m.group())], start=base + m.start(), end=base + m.end())
        for m in _JURIS_RE.finditer(text)
        # "United States District Court for … Virginia"
        if not _COURT_NAME.match(text, m.end()) and not _federal_overlay(text, m)
    ]
    hits += [
        Hit(value=_JURIS_UPPER[_key(m.group())], start=base + m.start(), end=base + m.end())
        for m in _JURIS_UPPER_RE.finditer(text)
        if not _JURIS_RE.fullmatch(m.group()) and not _federal_overlay(text, m)
    ]
    for m in _LAW_ADJ_RE.finditer(text):  # "English law", "PRC Laws"
        if not any(h.start <= base + m.start(1) < h.end for h in hits):
            hits.append(
                Hit(value=_ADJ_KEYS[_key(m.group(1)).lower()], start=base + m.start(1), end=base + m.end(1))
            )
    for m in _PRC_RE.finditer(text):  # "the laws of the PRC"
        if not any(h.start <= base + m.start() < h.end for h in hits):
            hits.append(Hit(value="China", start=base + m.start(), end=base + m.end()))
    # "the laws of the State of New York and the laws of the United States applicable therein": the state's;
    # "the laws of the Province of Québec and the laws of Canada applicable therein": the province's
    if any(h.value in _US_STATE_SET for h in hits):
        hits = [h for h in hits if h.value != "United States"]
    if any(h.value in _PROVINCES for h in hits):
        hits = [h for h in hits if h.value != "Canada"]
    hits.sort(key=lambda h: h.start)
    return hits
