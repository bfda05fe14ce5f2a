"""The data room: many contracts reviewed on Dask into one store, a portfolio view, clause families.

`run_batch` lists a room (folders, files, zips, manifests), reviews each distinct document once, one
transaction per document, and can be resumed; `portfolio` reads a run back as one row per contract;
`families` groups near-identical clause wordings and near-duplicate documents (MinHash LSH).
"""

from __future__ import annotations

from citationgate.batch.engine import Progress, run_batch

__all__ = ["Progress", "run_batch"]
