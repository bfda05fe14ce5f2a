"""What a data room holds: PATHs (folders, files, zips, manifests) listed as entries keyed by content hash.

An entry is one path as listed — `room/a/msa.pdf`, or `room.zip!contracts/msa.pdf` for a member of a zip —
with the SHA-256 of its bytes and a *locator* a worker uses to read those bytes again. Listing never
fails as a whole: an entry whose bytes cannot be had (unreadable, a zip member that would inflate past the
limit) carries `listing_error` and is reported as failed with that reason.

- A folder is walked recursively in sorted order; hidden files and folders (a leading dot) are skipped.
- A `.zip` (given, or met in a folder) is expanded one level; its members are bounded in size and in
  compression ratio, so a zip bomb is recorded as failed rather than filling memory.
- A `.csv` or `.jsonl` given as a PATH is a manifest: a row per document with a `path` column (relative to
  the manifest's folder) and any other columns kept as the entry's metadata.
"""

from __future__ import annotations

import csv
import hashlib
import json
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ingest.errors import IngestError, MissingFileError
from ingest.load import MAX_FILE_BYTES, check_size

__all__ = ["MANIFEST_SUFFIXES", "MAX_MEMBER_BYTES", "MAX_RATIO", "list_entries", "read_bytes"]

MANIFEST_SUFFIXES = (".csv", ".jsonl")
#: A zip member may inflate to at most this many bytes, and at most MAX_RATIO times its compressed size.
MAX_MEMBER_BYTES = 200 * 1024 * 1024
MAX_RATIO = 200
#: A zip may list at most this many members.
MAX_MEMBERS = 100_000
_CHUNK = 1 << 20


class ManifestError(IngestError):
    """A manifest (CSV or JSONL) that does not list documents the documented way."""


def list_entries(paths: Sequence[str | Path]) -> list[dict[str, Any]]:
    """Every entry under `paths`, in order, each listed once (a path named twice is one entry)."""
    seen: set[str] = set()
    out: list[dict[str, Any]] = []
    for raw in paths:
        for entry in _expand(Path(raw), meta={}, top=True):
            if entry["path"] not in seen:
                seen.add(entry["path"])
                out.append(entry)
    return out


def _expand(path: Path, *, meta: Mapping[str, Any], top: bool) -> Iterator[dict[str, Any]]:
    if path.is_dir():
        for child in sorted(path.rglob("*")):
            rel = child.relative_to(path).parts
            if any(part.startswith(".") for part in rel) or not child.is_file():
                continue
            yield from _expand(child, meta=meta, top=False)
        return
    if not path.exists():
        raise MissingFileError(f"{path}: no such file or folder")
    suffix = path.suffix.lower()
    if top and suffix in MANIFEST_SUFFIXES:
        yield from _manifest(path)
    elif suffix == ".zip":
        yield from _zip(path, meta=meta)
    else:
        yield _file_entry(path, meta=meta)


def _file_entry(path: Path, *, meta: Mapping[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"path": str(path), "locator": {"file": str(path.resolve())}, "meta": dict(meta)}
    try:
        h = hashlib.sha256()
        with path.open("rb") as fh:
            while chunk := fh.read(_CHUNK):
                h.update(chunk)
        entry["source_sha256"] = h.hexdigest()
    except OSError as exc:
        entry["listing_error"] = f"{path}: cannot be read ({exc.strerror or exc})"
    return entry


def _zip(path: Path, *, meta: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    try:
        zf = zipfile.ZipFile(path)
        infos = [i for i in zf.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        yield {"path": str(path), "meta": dict(meta), "listing_error": f"{path}: not a readable zip ({exc})"}
        return
    with zf:
        if len(infos) > MAX_MEMBERS:
            yield {
                "path": str(path),
                "meta": dict(meta),
                "listing_error": f"{path}: {len(infos)} members (limit {MAX_MEMBERS}); refused as a zip bomb",
            }
            return
        for info in infos:
            name = info.filename
            if any(part.startswith(".") or part == "__MACOSX" for part in Path(name).parts):
                continue
            shown = f"{path}!{name}"
            entry: dict[str, Any] = {
                "path": shown,
                "locator": {"zip": str(path.resolve()), "member": name},
                "meta": dict(meta),
            }
            try:
                entry["source_sha256"] = hashlib.sha256(_read_member(zf, info, shown)).hexdigest()
            except IngestError as exc:
                entry["listing_error"] = str(exc)
            yield entry


def _read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str) -> bytes:
    """A member's bytes, refusing one that inflates past the limits (whatever its header claims)."""
    if info.file_size > MAX_MEMBER_BYTES:
        raise IngestError(
            f"{shown}: inflates to {info.file_size} bytes (limit {MAX_MEMBER_BYTES}); refused as a zip bomb"
        )
    limit = min(MAX_MEMBER_BYTES, max(info.compress_size, 1) * MAX_RATIO)
    try:
        with zf.open(info) as fh:
            data = fh.read(limit + 1)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError, NotImplementedError) as exc:
        why = "encrypted" if "encrypt" in str(exc).lower() or "password" in str(exc).lower() else "damaged"
        raise IngestError(f"{shown}: the zip member cannot be read ({why}: {exc})") from None
    if len(data) > limit:
        raise IngestError(
            f"{shown}: inflates more than {MAX_RATIO}× its compressed size of {info.compress_size} bytes; "
            "refused as a zip bomb"
        )
    return data


def _manifest(path: Path) -> Iterator[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: the manifest cannot be read ({exc})") from None
    if path.suffix.lower() == ".csv":
        rows = [dict(r) for r in csv.DictReader(text.splitlines())]
    else:
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise ManifestError(f"{path}: line {n} is not JSON ({exc})") from None
            if not isinstance(row, dict):
                raise ManifestError(f"{path}: line {n} is not a JSON object")
            rows.append(row)
    for n, row in enumerate(rows, start=1):
        where = row.get("path")
        if not isinstance(where, str) or not where.strip():
            raise ManifestError(f"{path}: row {n} has no 'path' (expected a 'path' column naming a document)")
        target = Path(where)
        if not target.is_absolute():
            target = path.parent / target
        meta = {k: v for k, v in row.items() if k != "path"}
        if not target.exists():
            yield {
                "path": str(target),
                "meta": meta,
                "listing_error": f"{target}: no such file (manifest row {n})",
            }
            continue
        yield from _expand(target, meta=meta, top=False)


def read_bytes(locator: Mapping[str, Any]) -> tuple[str, bytes]:
    """The file name and bytes an entry's locator points at (a worker's side of the listing)."""
    if "file" in locator:
        p = Path(locator["file"])
        try:
            if (size := p.stat().st_size) > MAX_FILE_BYTES:  # refused unread, as `load_document` does
                check_size(p.name, size)
            return p.name, p.read_bytes()
        except OSError as exc:
            raise MissingFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    zpath, member = str(locator["zip"]), str(locator["member"])
    try:
        with zipfile.ZipFile(zpath) as zf:
            return Path(member).name, _read_member(zf, zf.getinfo(member), f"{zpath}!{member}")
    except (zipfile.BadZipFile, KeyError, OSError) as exc:
        raise MissingFileError(f"{zpath}!{member}: cannot be read ({exc})") from None
