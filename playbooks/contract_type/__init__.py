"""What kind of contract this is, and whether a playbook fits it.

`classify(text)` reads the title (the first lines), the recitals and the clause profile and returns a
`ContractType` with the type, the words that decided it and the runner-up. A playbook declares the types
it fits (`fits:`) and a clause the types it applies to (`applies_to:`); the engine makes the clauses that
do not apply `not_applicable` and the review states a mismatch at the top of every report.
"""

from playbooks.contract_type.classify import TYPES, ContractType, classify

__all__ = ["TYPES", "ContractType", "classify"]
