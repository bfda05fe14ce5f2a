"""Playbooks: what a contract team expects of each clause, and the engine that proposes findings."""

__all__: list[str] = []
