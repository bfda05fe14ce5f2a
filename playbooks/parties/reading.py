"""Reading the parties from a contract's own words: names, defined terms, and what each one does."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playbooks.parties.forms import labelled_parties, named_parties

__all__ = ["Party", "read_parties"]

# the preamble: from "between"/"BETWEEN:"/"by and among" to the recitals or the operative words
_OPEN = re.compile(
    r"\b(?:by\s+and\s+(?:between|among)|between|among|B\s+E\s+T\s+W\s+E\s+E\s+N)\b\s*:?"
    # "the complete terms and conditions between the parties", "among them": no parties named there
    r"(?!\s*(?:the\s+|both\s+)?(?:parties|them|themselves|us|each\s+other)\b)",
    re.IGNORECASE,
)
_CLOSE = re.compile(
    r"\b(?:WHEREAS|W\s*I\s*T\s*N\s*E\s*S\s*S\s*E\s*T\s*H|RECITALS|BACKGROUND|NOW,?\s+THEREFORE|IT\s+IS\s+(?:HEREBY\s+)?AGREED"
    r"|agree\s+as\s+follows|in\s+consideration\s+of"
    # a "Recitals" heading in title case before its first lettered or numbered recital
    r"|Recitals(?=\s*:?\s+(?:\(?[A-H1-9][.)]\s|[A-Z][a-z])))\b"
)
_QUOTE_OPEN = "\"“”'‘’`"
# (the “Company”), ("HDI"), (each and both of them "Recipient"), hereinafter referred to as "Licensee",
# hereinafter referred to as: "T-Mobile", (the Company)
_DEFINED = re.compile(
    r"(?:\(\s*"
    # a lead clause inside the parenthesis: (together with its successors and assigns, if any, "Lessor"),
    # (including its Affiliates, "Customer")
    r"(?:(?:together\s+with|including)\s+[^()\"“”;]{1,60}?,\s*)?"
    r"|(?i:here(?:in)?after)\s+(?:(?:(?:referred\s+to|known)\s+as|called(?:\s+as)?)\s*:?\s*)?"
    r"|herein\s+(?:called|referred\s+to\s+as)\s*:?\s*)"
    r"(?:(?:the|each\s+and\s+both\s+of\s+them|collectively|individually|jointly|together|(?i:here(?:in)?after)"
    r"(?:\s+(?:referred\s+to(?:\s+as)?|called(?:\s+as)?))?|referred\s+to\s+(?:herein\s+)?as|herein|as)[\s,]+)*"
    # a term starts with a capital or a digit ("2TheMart"), or in lower case with a capital or hyphen soon
    # after ("i-on", "eBay"), or a lower-case web name ("drkoop.com")
    r"(?:[\"“”'‘’`]{1,2}\s*(?:the\s+)?(?P<term>(?:[A-Z]|\d(?=\w*[A-Za-z])|[a-z](?=[a-z]{0,3}[A-Z\-])"
    r"|[a-z](?=[a-z0-9\-]{1,30}\.(?:com|net|org|io)[\"”'’]))"
    r"[A-Za-z0-9À-ÖØ-öø-ÿ.&/\- ]{0,40}?)"
    # a comma inside the quotes only before another quoted name ("Servicing Agent," "you" or "your")
    r"(?:,(?=[\"“”]\s+[\"“])|\s)*[\"“”'‘’`]{1,2}"
    r"(?:\s+or\s+(?:the\s+)?[\"“”'‘’`]{1,2}(?P<alias>[A-Z][A-Za-z0-9.&/\- ]{0,40}?)[\"“”'‘’`]{1,2})?"
    r"|(?<=as\s)(?P<bare>[A-Z][A-Z0-9.&\-]{1,30})\s*\)"
    # an English preamble's unquoted term: "(1) WPP 2005 LIMITED … (the Company) (2) JOHN ROGERS (the
    # Executive)"
    r"|(?<=\(the\s)(?P<plain>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s*\)"
    # "(hereinafter referred to as Party A)"
    r"|(?<=as\s)(?P<partyx>Party\s+[A-H])\b"
    # an unquoted term in a bare parenthesis: "by Datec (PNG) LTD (Datec) to the Bank of South Pacific
    # Limited (BSP)", "(Licensee)", "(hereinafter Sabco)" — kept only when it is a role's word or is drawn
    # from the name before it (see `_unquoted_term`)
    r"|(?<=[(\s])(?P<paren>[A-Z][A-Za-z0-9À-ÖØ-öø-ÿ.&\-]*(?:\s[A-Z][A-Za-z0-9À-ÖØ-öø-ÿ.&\-]*){0,2})\s*\))"
)
# the words contracts call a party by when they call it by its role ("(Licensee)", "(Developer )")
_ROLE_WORD = re.compile(
    r"^(?:the\s+)?(?:customer|client|recipient|purchaser|buyer|licensee|licensor|subscriber|distributor|reseller|"
    r"sponsor|employer|employee|executive|company|supplier|vendor|provider|service\s+provider|contractor|consultant|"
    r"developer|seller|manufacturer|transporter|shipper|carrier|agent|agency|adviser|advisor|administrator|"
    r"franchisee|franchisor|lessor|lessee|landlord|tenant|owner|operator|producer|publisher|partner|member|"
    r"discloser|disclosee|bank|lender|borrower|investor|contractee|principal|purchaser|customer)$",
    re.IGNORECASE,
)
_NAME_SUFFIX = re.compile(
    r"^(?:inc|corp|corporation|company|co|llc|l\.l\.c|ltd|limited|llp|lp|l\.p|plc|gmbh|ag|sa|s\.a|bv|b\.v|nv|n\.v|"
    r"a/s|ab|pty|spa|s\.p\.a|srl|s\.r\.l|a\.s|of|the|and|&|for|de|du|la|le)\.?$",
    re.IGNORECASE,
)


_FORMS = (
    r"Inc|Corp|Corporation|Company|LLC|L\.L\.C|Ltd|Limited|LLP|L\.P|plc|PLC|GmbH|AG|S\.A|B\.V|N\.V|A/S|AB|Pty|"
    r"S\.p\.A|S\.r\.l"
)
# a legal entity's form: a numbered list of parties ("1. HealthGate Data Corp.") names them
_ENTITY = re.compile(rf"\b(?:{_FORMS})\b")
# an organisation's name: a legal form or a word that names a body ("Bank", "University", "Council")
_ORGANISATION = re.compile(
    rf"\b(?:{_FORMS}|LTD|LIMITED|Bank|Organi[sz]ation|Association|University|Authority|Agency|Council|Group|"
    r"Trust|Partners|Partnership|Institute|Society|Foundation|Board|Department|Ministry)\b"
)


def _unquoted_term(term: str, name: str) -> bool:
    """Whether an unquoted word in a bare parenthesis after a name is that party's defined term: a role's
    word ("Licensee"), a word of the name ("Datec" after "Datec (PNG) LTD"), its first words, or its
    initials ("BSP" after "the Bank of South Pacific Limited", "MICOA")."""
    if _ROLE_WORD.match(term):
        return True
    words = re.findall(r"[A-Za-z0-9À-ÖØ-öø-ÿ][\wÀ-ÖØ-öø-ÿ.&\-]*", name)
    low = term.lower().rstrip(".")
    if not words:
        return False
    if any(
        low == w.lower().rstrip(".,") for w in words if len(w.rstrip(".,")) > 2 and not _NAME_SUFFIX.match(w)
    ):
        return True
    if " ".join(words).lower().startswith(low) and len(low) > 3:
        return True
    if not _ORGANISATION.search(name):  # "Coke Dry Quenching (CDQ)" abbreviates a thing, not a party
        return False
    compact = low.replace(" ", "").replace(".", "")
    meaning = [w for w in words if not _NAME_SUFFIX.match(w)]
    if len(compact) >= 2 and compact.isalpha():
        for ws in (meaning, [w for w in words if w.lower() not in ("the",)]):
            initials = "".join(w[0] for w in ws).lower()
            if (
                compact in initials
                and (initials.startswith(compact) or initials.endswith(compact))
                and len(ws) >= 2
            ):
                return True
    return False


# a defined term ending in one of these words names a thing, not a party ("Base Terms", "Order Forms")
_THING = re.compile(
    r"\b(?:terms|forms?|attachments?|period|schedules?|exhibits?|business(?:es)?|documents?|services|products|"
    r"materials?|information|rights|fees|plan|date|product|agreement|amendment|premises|marks|software|system|"
    r"transactions?|assets|representatives|nda|purpose|websites?|content|programs?|programmes?|equipment|lease|"
    r"attributes|territories|placements|sessions|securities|debentures|stock|shares|options?|guarantee|"
    # an event or an activity the parties put on together ("PROMOTION", "the Event", "the Tour")
    r"promotions?|events?|campaigns?|tours?|contests?|sweepstakes|competitions?|tournaments?|festivals?|"
    r"conferences?|activit(?:y|ies)|benefits|sponsorship|royalt(?:y|ies)|licen[cs]es?|trademarks?|logos?)$",
    re.IGNORECASE,
)
# defined terms in a preamble that are not parties
_NOT_PARTIES = {
    "agreement",
    "this agreement",
    "amendment",
    "effective date",
    "commencement date",
    "execution date",
    "services",
    "service",
    "party",
    "parties",
    "term",
    "territory",
    "products",
    "product",
    "contract",
    "master agreement",
    "msa",
    "sow",
    "statement of work",
    "order",
    "date",
    "closing",
    "closing date",
    "affiliate",
    "affiliates",
    "program",
    "project",
    "work",
    "deliverables",
    "software",
    "system",
    "property",
    "premises",
    "site",
    "plan",
    "fund",
    "funds",
    "trust",
    "trademarks",
    "marks",
    "licensed marks",
    # statutes and codes named in a preamble ("the Investment Company Act of 1940 (the “Act”)")
    "act",
    "exchange act",
    "securities act",
    "code",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Party:
    """One contracting party as the contract names it."""

    defined_as: str  # the defined term the contract uses ("Company"); the name when there is none
    name: str  # the legal name as written before the defined term ("Driven Deliveries, Inc."), or ""
    start: int  # where the defined term is introduced
    end: int
    mentions: int = 0  # how often the defined term is used in the whole text
    aliases: tuple[str, ...] = field(default_factory=tuple)  # other defined terms for the same party
    blank: bool = False  # the form leaves the name blank ("by and between ________ (“Supplier”)")
    # the words before the defined term as written, blanks and all (what tells a name from a sentence)
    as_written: str = field(default="", compare=False, repr=False)

    @property
    def terms(self) -> tuple[str, ...]:
        return (self.defined_as, *self.aliases)

    def to_dict(self) -> dict[str, object]:
        return {
            "defined_as": self.defined_as,
            "name": self.name,
            "aliases": list(self.aliases),
            "start": self.start,
            "end": self.end,
            "mentions": self.mentions,
        }


# the document speaking of itself: "This Network Management Outsourcing Agreement incorporates … by Datec
# (PNG) LTD (Datec) to the Bank of South Pacific Limited (BSP)"
_SELF = re.compile(r"\bThis\s+(?:[A-Z][\w&\-]*\s+){0,6}(?:Agreement|Contract)\b")


def _windows(text: str) -> list[tuple[int, int, bool]]:
    """Candidate preambles: from each 'between' in the first pages to the recitals; else the opening; else
    a sentence in which the document names itself."""
    head = text[:10000]
    out = []
    for m in _OPEN.finditer(head):
        close = _CLOSE.search(head, m.end())
        end = close.start() if close and close.start() - m.start() > 40 else min(len(head), m.start() + 2500)
        out.append((m.start(), min(end, m.start() + 3000), False))
    out.append((0, min(len(head), 3000), False))
    out.extend((m.start(), min(len(head), m.start() + 1200), True) for m in _SELF.finditer(head, 3000))
    return out


def _nameless(text: str) -> list[Party]:
    """Parties named without a defined term each: "between EuroTel Bratislava a.s. … and Sicap Ltd" (by the
    names the body uses), "Party A: … Party B: …" (by their labels)."""
    for m in _OPEN.finditer(text[:10000]):
        named = named_parties(text, m.end())
        if named:
            break
    else:
        named = labelled_parties(text)
    return [
        Party(defined_as=term, name=name, start=start, end=end, mentions=_count(text, term))
        for term, name, start, end in named
    ]


def _name_before(text: str, at: int, floor: int, *, unblank: bool = True) -> str:
    """The legal name written just before a defined term: back to 'between', 'and', '(1)' or a ';'."""
    lo = max(floor, at - 400)
    while 0 < lo < at and text[lo - 1].isalnum():  # never start inside a word
        lo += 1
    seg = text[lo:at]
    # the name starts after "between", a "(1)", a ";", or the "and" that closes the party before it — not
    # after the "and" inside "England and Wales"
    starts = (
        r"\b(?i:between|among|B\s+E\s+T\s+W\s+E\s+E\s+N)\b\s*:?(?:\s*the\s+following\s+(?:\w+\s+)?parties\s*:)?"
        r"|\(\d\)|;|\n\s*\n"
        r"|[)”\",]\s*,?\s*-?\s*(?:and|AND)\b\s*-?|^\s*(?:and|AND)\b\s*-?"
        # a label before each party: "BETWEEN: A Ltd. (the “A”), located at … Hong Kong. AND: B"
        r"|\b(?:and|AND|And)\s*:"
        # a label before the name: "The Covenanter: The Huang Jia Club Inc. (hereinafter referred to as
        # Party A)", "Licensor: Acme Ltd"
        r"|\b(?:The\s+|the\s+)?(?:Covenanters?|Contracting\s+Party|Party\s+[A-H1-9]|Parties|Licensor|Licensee|"
        r"Supplier|Customer|Client|Seller|Buyer|Purchaser|Vendor|Contractor|Distributor)\s*:\s*(?=(?:the\s+|The\s+)?[A-Z])"
        # "the provision of Services by Datec (PNG) LTD (Datec) to the Bank of South Pacific Limited (BSP)"
        r"|(?<!represented\s)(?<!signed\s)(?<!owned\s)(?<!controlled\s)\bby\s+(?=[A-Z])|\)\s*to\s+(?=(?:the\s+)?[A-Z])"
        # a form's blank for the party before: "by and between ________ and Arden Corp."
        r"|" + _BLANK + r"\s*,?\s*(?:and|AND)\b\s*(?=(?:the\s+)?[A-Z])"
    )
    cut = max((m.end() for m in re.finditer(starts, seg)), default=0)
    name = seg[cut:].strip(" ,\n\t(")
    name = re.split(
        r",\s*(?:a|an|the)\s|\s*,\s*(?:with|whose|having|located|of)\b|\s+\((?:registered|company)\b|\s+whose\s"
        r"|\s+a\s+(?:subsidiary|division)\s+of\s",
        name,
    )[0]
    name = name.strip(_QUOTE_OPEN + " ")
    name = " ".join(name.split())[:120]
    return _unblanked(name) if unblank else name


def _own_name_before(text: str, at: int, floor: int) -> str:
    """The name of a party whose name, read back to the usual starts, came out as the name of the party
    before it — 'by and between A Inc., a Delaware corporation ("Company"), with offices at 1 Main Street,
    Dallas, TX 75069 and the B Association, Inc. ("Association")' has no start between the two terms but
    the address's "and". Read from the last "and" after the party before (its article dropped), or "":
    two parties are never shown under one name."""
    ands = list(re.finditer(r"\b(?:and|AND)\s+(?:(?:the|THE)\s+)?(?=[A-Z])", text[floor:at]))
    if not ands:
        return ""
    name = _name_before(text, at, floor + ands[-1].end(), unblank=False)
    # a legal name's longer words are capitalised ("Nanophase Technologies Corporation"); "Company
    # intend to discuss …" is a sentence
    if _not_a_name(name) or any(w[0].islower() for w in re.findall(r"[^\W\d_]{4,}", name)):
        return ""
    return name


# a defined term closed inside the words read as a name: ("Erchonia"), (the “Company”)
_DEFINITION_INSIDE = re.compile(r"[\"“”]\s*\)")


def _after_definition(text: str, at: int, lo: int) -> str:
    """The name written after the last definition closed before `at` ('A LLC, ("A"), B Corporation ("B")'
    → 'B Corporation'), or "" when no name follows it."""
    closes = list(_DEFINITION_INSIDE.finditer(text, max(lo, at - 400), at))
    if not closes:
        return ""
    name = _name_before(text, at, closes[-1].end(), unblank=False)
    name = re.sub(r"^(?:and|And|AND)\b[\s:,\-]*", "", name)
    # a legal name's longer words are capitalised; "authorizes International Direct Response" is a sentence
    if (
        not name[:1].isupper()
        or _not_a_name(name)
        or any(w[0].islower() for w in re.findall(r"[^\W\d_]{4,}", name))
    ):
        return ""
    return name


# a form's blank to be filled in: "________", "[ ]", "[_____]", "[•]"; a name redacted from a filing:
# "XXXXXXXX", "[***]", "*****" (no party's name)
_BLANK = r"(?:_{3,}|\[\s*[_*·•●]*\s*\]|(?<!\S)[●•](?!\S)|…{2,}|\.{5,}|(?<![A-Za-z])X{3,}(?![A-Za-z])|\*{3,})"


def _unblanked(name: str) -> str:
    """A name with a form's blank in it: the name written before the blank ("Solar Vending, Inc a ___ DE
    corporation" is "Solar Vending, Inc"); "" when the blank is the name ("____________ with offices at
    ____", "1. By execution of this Contract, _____"), so that no blank and no sentence is shown as a
    party's name."""
    m = re.search(_BLANK, name)
    if m is None:
        return name
    before = re.sub(r"[\s,]+(?:a|an|the)$", "", name[: m.start()].strip(" ,(")).strip(" ,")
    if (
        before
        and before[0].isupper()
        and not _not_a_name(before)
        and not re.search(r"[\"“”()]|:$|\b(?:AGREEMENT|Agreement|Contract|CONTRACT)\b", before)
    ):
        return before
    return ""


def _count(text: str, term: str) -> int:
    # a term defined in capitals ("LEADER") is often written in title case in the body ("Leader")
    spelt = re.escape(term) + (f"|{re.escape(term.title())}" if term.isupper() and len(term) > 3 else "")
    return len(re.findall(r"(?<![A-Za-z])(?:" + spelt + r")(?![a-z])", text))


def read_parties(text: str) -> list[Party]:
    """The parties introduced in the preamble, in order, each with its defined term; [] when none is found.

    Where at least two terms remain, a term whose "name" is a recital's or the body's words ("WHEREAS …",
    "3. Grant. During the Term …", "TKCI shall establish a wholly-owned subsidiary") is a thing the preamble
    defines, not a party ("Talent Attributes", "Holding Company")."""
    found: list[Party] = []
    opening: list[Party] = []
    for lo, hi, naming_itself in _windows(text):
        found = _in_window(text, lo, hi)
        if naming_itself:  # a sentence deep in the text naming the document: only organisations are parties
            found = [p for p in found if _ORGANISATION.search(p.name) and not _not_a_name(p.name)]
        elif lo == 0:
            opening = found
        if len(found) >= 2:
            break
    else:
        found = _nameless(text) or opening
    kept = [
        p for p in found if p.blank or not _not_a_name(p.as_written or p.name) or _acts(text, p.defined_as)
    ]
    if len(kept) == 1 and (other := _called_by_role(text, kept[0])) is not None:
        return [kept[0], other]
    return kept if 2 <= len(kept) < len(found) else found


# the party after the first one's term with no term of its own: 'between Tripath Technology, Inc. ("Tripath"),
# and Uniquest Corporation 780 Montague Expressway …', the body then calling it "Distributor"
_AND_THEN_NAME = re.compile(
    r"[\"”'’]?\s*\)\s*,?\s*(?:and|AND|And)\s+(?P<name>[A-Z][\w&.,'’\- ]{1,80}?\b(?:" + _FORMS + r")\b\.?)"
)


def _called_by_role(text: str, first: Party) -> Party | None:
    """The second party of a preamble that defines a term for the first party only, by the role word the body
    makes the subject of its duties most often ("Distributor will", "Distributor shall") — the first party's
    own term excepted; None when no such entity or word is found."""
    m = _AND_THEN_NAME.match(text, first.end, first.end + 200)
    if m is None:
        return None
    counts: dict[str, int] = {}
    for w in re.finditer(r"(?<![\w\"“])([A-Z][a-z]+)\s+(?:shall|will|may|must|agrees)\b", text):
        word = w.group(1)
        if _ROLE_WORD.match(word) and word.lower() != first.defined_as.lower():
            counts[word] = counts.get(word, 0) + 1
    if not counts:
        return None
    word, n = max(counts.items(), key=lambda kv: kv[1])
    if n < 3:
        return None
    name = " ".join(m.group("name").split()).strip(" ,")
    return Party(
        defined_as=word, name=name, start=m.start("name"), end=m.end("name"), mentions=_count(text, word)
    )


_NOT_A_NAME = re.compile(
    r"^(?:[^A-Z]*$|\d+(?:\.\d+)*\.?\s|[A-Z]\.\s|(?:AND\s+)?WHEREAS\b[\s,]*(?:$|[a-z])|NOW\b|The\s+Parties\b)"
    r"|\b(?:shall|will|agrees?|wish(?:es)?)\s|\bis\s+(?:the|a|an)\s"
)


def _acts(text: str, term: str) -> bool:
    """Whether the contract makes `term` the subject of its duties and rights, as it does a party
    ("the Executive shall", "Executive may") — at least twice."""
    rx = re.compile(r"(?<![A-Za-z])" + re.escape(term) + r"\s+(?:shall|will|may|must|agrees|hereby)\b")
    return len(rx.findall(text)) >= 2


def _not_a_name(name: str) -> bool:
    """Whether the words read as a party's name are no name but a recital's or the body's words."""
    m = _NOT_A_NAME.search(name)
    return m is not None and not (m.group(0)[:1].isdigit() and _ENTITY.search(name))


# a term defined inside another term's definition ('“Agency Affiliate” means … the Agency's parent (“Owner”)',
# 'information belonging to one party (the “Disclosing Party”)') names a role or a non-party, not a party
_DEFINING = re.compile(r"\b(?:means|shall\s+mean|is\s+defined\s+as|refers?\s+to)\b", re.IGNORECASE)
_SENTENCE_START = re.compile(r"(?:[.;:]\s|\n)")


def _inside_a_definition(text: str, lo: int, at: int) -> bool:
    starts = [m.end() for m in _SENTENCE_START.finditer(text, lo, at)]
    return _DEFINING.search(text, starts[-1] if starts else lo, at) is not None


def _paren_term_of_a_party(text: str, m: re.Match[str], term: str, lo: int) -> bool:
    """An unquoted "(Datec)" is a party's term when a name stands right before it, nothing of a name follows
    it ("Datec (PNG) LTD": "PNG" is part of the name) and the word is the name's or a role's."""
    if text[m.start()] != "(" or re.search(r"(?i)\bwhereas\b", text[lo : m.start()]):
        return False  # a recital's "(Agent)" names a role the parties take, not a party
    after = text[m.end() : m.end() + 30]
    # "Datec (PNG) LTD", "Alpha Mariah (Prime), Inc.": the parenthesis is inside a name
    if re.match(r"\s*(?!(?:and|AND|And|to|with|of|An?)\b)[A-Z][A-Za-z]", after) or _ENTITY.match(
        after.lstrip(" ,")
    ):
        return False
    name = _name_before(text, m.start(), lo)
    return bool(name) and not _not_a_name(name) and _unquoted_term(term, name)


# a role's word in a bare parenthesis before the name it stands for: "… (Developer), and (Client) Pelican
# Delivers Inc. for the performance of …"
_ROLE_THEN_NAME = re.compile(r"\s*(?P<name>[A-Z][\w&.,'’\- ]{1,80}?\b(?:" + _FORMS + r")\b\.?)(?=[\s,(]|$)")


def _name_after_role(text: str, m: re.Match[str], term: str) -> str:
    """The legal name right after an unquoted role word in a parenthesis that opens a party's entry
    ("and (Client) Pelican Delivers Inc."), or "" where the parenthesis follows a name as usual."""
    if text[m.start()] != "(" or not _ROLE_WORD.match(term):
        return ""
    if not re.search(r"(?:\b(?:and|AND|between|BETWEEN)|:)\s*$", text[max(0, m.start() - 12) : m.start()]):
        return ""
    after = _ROLE_THEN_NAME.match(text, m.end(), m.end() + 100)
    return " ".join(after.group("name").split()) if after else ""


# a plain-language form's parenthesis that names a party first by pronouns and then by its term: ("we,"
# "us," "our" or "Franchisor"), ("you," "Franchise Owner," or "Franchisee")
_PRONOUN = r"(?:we|us|our|ours|you|your|yours)"
_PRONOUNS_THEN_TERMS = re.compile(
    r"\(\s*(?:(?:the\s+)?[\"“]\s*" + _PRONOUN + r"\s*,?\s*[\"”]\s*,?\s*(?:or\s+|and\s+)?)+"
    r"(?P<terms>(?:(?:the\s+)?[\"“][^\"”()\n]{1,40}?,?[\"”]\s*,?\s*(?:or\s+|and\s+)?)+)\)"
)
_QUOTED = re.compile(r"[\"“](?P<t>[A-Z][^\"”()\n]{1,40}?),?[\"”]")


def _candidates(text: str, lo: int, hi: int) -> list[tuple[int, re.Match[str], str, str, str]]:
    """Each defined term in the window: (where the name before it ends, its match, which group, the term, an
    alias or "") — the preamble's terms (`_DEFINED`) and the terms a form names after its pronouns ("we,"
    "us" or "Franchisor")."""
    out = []
    for m in _DEFINED.finditer(text, lo, hi):
        group = next(g for g in ("term", "bare", "plain", "paren", "partyx") if m.group(g))
        out.append((m.start(), m, group, m.group(group), (m.group("alias") or "")))
    for m in _PRONOUNS_THEN_TERMS.finditer(text, lo, hi):
        terms = list(_QUOTED.finditer(text, m.start("terms"), m.end("terms")))
        if terms and not any(o[1].start() <= terms[0].start() < o[1].end() for o in out):
            alias = terms[1].group("t") if len(terms) > 1 else ""
            out.append((m.start(), terms[0], "t", terms[0].group("t"), alias))
    return sorted(out, key=lambda o: o[0])


def _in_window(text: str, lo: int, hi: int) -> list[Party]:
    found: list[Party] = []
    seen: set[str] = set()
    for at, m, group, raw, raw_alias in _candidates(text, lo, hi):
        term = raw.strip(" .")
        if len(term) < 2 or term.lower() in _NOT_PARTIES or _THING.search(term):
            continue
        if _inside_a_definition(text, lo, at):
            continue
        named_after = _name_after_role(text, m, term) if group == "paren" else ""
        if group == "paren" and not named_after and not _paren_term_of_a_party(text, m, term, lo):
            continue
        if term.lower() in seen:
            continue
        mentions = _count(text, term)
        if mentions < 2:  # a party's defined term is used again; a one-off label is not a party
            continue
        alias = raw_alias.strip(" .")
        aliases = (alias,) if alias and alias.lower() not in seen and _count(text, alias) >= 2 else ()
        seen.update(t.lower() for t in (term, *aliases))
        written = _name_before(text, at, lo, unblank=False)
        # "______ (“Supplier”)": the form's blank is the name; the party stays a party
        before = text[max(lo, at - 24) : at]
        name, blank = _unblanked(written), re.search(_BLANK + r"[\s,(]*$", before) is not None
        if written and any(written == q.as_written for q in found):
            # the name of the party before: this party's own, or none (who is a party is still
            # decided on the words as written, below)
            name = _unblanked(_own_name_before(text, at, found[-1].end))
        elif _DEFINITION_INSIDE.search(written):
            # the words run back over another definition ('Erchonia Corporation. ("Erchonia") whose address
            # is … 32904 and InnerScope Hearing Technologies Inc, ("Distributor")'): a legal name holds no
            # defined term, so this party's name is the one after it, or none
            own = _own_name_before(text, at, found[-1].end) if found else ""
            name = _unblanked(own or _after_definition(text, at, lo))
        if named_after:
            name, written = named_after, named_after
        found.append(
            Party(
                defined_as=term,
                name=name,
                start=m.start(group),
                end=m.end(group),
                mentions=mentions,
                aliases=aliases,
                blank=blank,
                as_written=written,
            )
        )
    return found
