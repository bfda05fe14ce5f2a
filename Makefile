.PHONY: lint test check bench

lint:
	ruff check ingest playbooks citationgate tests benchmarks
	ruff format --check ingest playbooks citationgate
	mypy
	lint-imports

test:
	python -m pytest -q

check: lint test

bench:
	python benchmarks/ingest.py
	python benchmarks/gate.py
