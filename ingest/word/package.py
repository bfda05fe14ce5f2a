"""The DOCX package opened defensively (part and inflation limits, no DTDs or external entities) and
its XML parts."""

from __future__ import annotations

import posixpath
import re
import zipfile
from io import BytesIO
from typing import Any

from lxml import etree

from ingest.errors import CorruptFileError, EncryptedFileError, UnsupportedFileError
from ingest.numbering import W

MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_REL_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

#: A DOCX with more parts than this is refused (a real contract has tens, at most a few hundred).
MAX_MEMBERS = 10_000
#: The parts of a DOCX may declare at most this many inflated bytes in total (zip-bomb guard).
MAX_INFLATED_BYTES = 256 << 20
#: One XML part read may inflate to at most this many bytes.
MAX_PART_BYTES = 64 << 20

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_SEP_AFTER_BODY = "\n\n"

_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.I)
_DEFINES = re.compile(
    r"^\s*[\"“”'‘’]{1,2}[A-Z][^\"“”\n]{0,80}[\"“”'‘’]{1,2}\s*(?:\([^)]*\)\s*)?"
    r"(?:means|shall mean|has the meaning|have the meaning|refers to|includes|shall include)\b"
)
_TITLE_LEAD = re.compile(
    r"^([A-Z][\w'’&/-]*(?:\s+(?:[A-Z][\w'’&/-]*|of|and|or|to|the|for|in|on|by)){0,7})\.\s"
)

# Comment range marks: no text; recorded by `map_docx_body` so a comment's anchored words can be read.
_MARKS = frozenset((W + "commentRangeStart", W + "commentRangeEnd"))

# Elements whose content is never text of the document.
_SKIP = frozenset(
    W + n
    for n in (
        "pPr",
        "rPr",
        "sdtPr",
        "sdtEndPr",
        "customXmlPr",
        "smartTagPr",
        "instrText",
        "delInstrText",
        "fldData",
        "commentReference",
        "annotationRef",
        "footnoteRef",
        "endnoteRef",
        "separator",
        "continuationSeparator",
        "lastRenderedPageBreak",
        "proofErr",
        "bookmarkStart",
        "bookmarkEnd",
        "subDoc",
        "tblPr",
        "tblGrid",
        "trPr",
        "tcPr",
        "sectPr",
    )
)


# --------------------------------------------------------------------------------------------------------
# The package
# --------------------------------------------------------------------------------------------------------


def _ole_kind(data: bytes) -> str:
    """What an OLE compound file is: 'encrypted' (an encrypted OOXML package), 'doc', or 'other'."""
    if "EncryptedPackage".encode("utf-16-le") in data or "EncryptionInfo".encode("utf-16-le") in data:
        return "encrypted"
    if "WordDocument".encode("utf-16-le") in data:
        return "doc"
    return "other"


class _Package:
    """A DOCX package opened with limits; parts are read and parsed on demand."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        if data.startswith(_OLE_MAGIC):
            kind = _ole_kind(data)
            if kind == "encrypted":
                raise EncryptedFileError(
                    f"{name}: the document is password-protected (an encrypted Office file); "
                    "remove the password in Word and save it again"
                )
            if kind == "doc":
                raise UnsupportedFileError(
                    f"{name}: this is a legacy Word 97-2003 .doc file named .docx "
                    "(expected a .docx package); open it in Word and save it as .docx"
                )
            raise CorruptFileError(f"{name}: an OLE compound file, not a DOCX package (expected a ZIP)")
        if data.startswith(b"%PDF"):
            raise CorruptFileError(f"{name}: this is a PDF named .docx (expected a DOCX package); rename it")
        if not data.startswith(b"PK"):
            raise CorruptFileError(
                f"{name}: not a DOCX package (expected a ZIP-based Word file; it does not start with a "
                "ZIP header)"
            )
        try:
            self.zip = zipfile.ZipFile(BytesIO(data))
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
            raise CorruptFileError(
                f"{name}: the DOCX package is truncated or corrupt (its ZIP directory cannot be read)"
            ) from None
        if len(infos) > MAX_MEMBERS:
            raise CorruptFileError(
                f"{name}: the DOCX package has {len(infos)} parts (limit {MAX_MEMBERS}); "
                "refused as a possible zip bomb"
            )
        inflated = sum(i.file_size for i in infos)
        if inflated > MAX_INFLATED_BYTES:
            raise CorruptFileError(
                f"{name}: the DOCX package inflates to {inflated} bytes (limit {MAX_INFLATED_BYTES}); "
                "refused as a possible zip bomb"
            )
        self.infos = {i.filename: i for i in infos}
        self._cache: dict[str, Any] = {}

    def has(self, part: str) -> bool:
        return part in self.infos

    def read(self, part: str) -> bytes:
        info = self.infos[part]
        if info.file_size > MAX_PART_BYTES:
            raise CorruptFileError(
                f"{self.name}: {part} inflates to {info.file_size} bytes (limit {MAX_PART_BYTES}); "
                "refused as a possible zip bomb"
            )
        try:
            with self.zip.open(info) as fh:
                data = fh.read(MAX_PART_BYTES + 1)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:
            if "encrypt" in str(exc).lower() or "password" in str(exc).lower():
                raise EncryptedFileError(
                    f"{self.name}: the DOCX package is password-protected (ZIP encryption)"
                ) from None
            raise CorruptFileError(
                f"{self.name}: the DOCX package is corrupt ({part} cannot be inflated: {exc})"
            ) from None
        if len(data) > MAX_PART_BYTES:
            raise CorruptFileError(
                f"{self.name}: {part} inflates past {MAX_PART_BYTES} bytes; refused as a possible zip bomb"
            )
        return data

    def xml(self, part: str) -> Any | None:
        """The parsed root of `part`, or None when the package has no such part."""
        if part in self._cache:
            return self._cache[part]
        if not self.has(part):
            return None
        root = parse_xml(self.name, part, self.read(part))
        self._cache[part] = root
        return root

    def rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationships of `part`: id -> (type suffix, target part name) for internal targets."""
        folder, base = posixpath.split(part)
        root = self.xml(posixpath.join(folder, "_rels", base + ".rels"))
        out: dict[str, tuple[str, str]] = {}
        if root is None:
            return out
        for rel in root.iter(_REL_NS + "Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            rid, rtype, target = rel.get("Id"), rel.get("Type", ""), rel.get("Target", "")
            if not rid or not target:
                continue
            if target.startswith("/"):
                resolved = target.lstrip("/")
            else:
                resolved = posixpath.normpath(posixpath.join(folder, target))
            out[rid] = (rtype.rsplit("/", 1)[-1], resolved)
        return out


def parse_xml(name: str, part: str, data: bytes) -> Any:
    """Parse one package part safely: no DTD, no entities resolved, no network; a DOCTYPE is refused."""
    probe = data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        probe = data.decode("utf-16", errors="replace").encode("utf-8")
    # Markup, not text: "<!" can only appear in a part as a declaration (text has "&lt;!").
    if b"<!DOCTYPE" in probe or b"<!ENTITY" in probe:
        raise CorruptFileError(
            f"{name}: {part} declares a DOCTYPE or entities (refused: a DOCX part never needs one, and "
            "external entities are never resolved)"
        )
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
        huge_tree=False,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise CorruptFileError(f"{name}: {part} is not well-formed XML ({exc})") from None
    if root is None:
        raise CorruptFileError(f"{name}: {part} is empty (expected XML)")
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise CorruptFileError(
            f"{name}: {part} declares a DOCTYPE (refused: a DOCX part never needs one, and external "
            "entities are never resolved)"
        )
    return root


def _main_part(pkg: _Package) -> str:
    root = pkg.xml("_rels/.rels")
    if root is not None:
        for rel in root.iter(_REL_NS + "Relationship"):
            if rel.get("Type", "").endswith("/officeDocument") and rel.get("TargetMode") != "External":
                target = str(rel.get("Target", "")).lstrip("/")
                if pkg.has(target):
                    return target
    if pkg.has("word/document.xml"):
        return "word/document.xml"
    raise CorruptFileError(
        f"{pkg.name}: not a Word document (the package has no word/document.xml; expected a .docx)"
    )


# --------------------------------------------------------------------------------------------------------
# The walker
# --------------------------------------------------------------------------------------------------------
