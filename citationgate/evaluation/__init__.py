"""Measuring the engine on real annotated contracts (CUAD, ContractNLI): `citationgate eval`.

Each measurement is a function over a data folder in the CUAD/ContractNLI layout of `../shared/data`,
so the same command runs on contracts nobody here has seen. Nothing in it knows a document id or text.
"""

from citationgate.evaluation.data import DataMissingError, cuad_records, default_data_dir

__all__ = ["DataMissingError", "cuad_records", "default_data_dir"]
