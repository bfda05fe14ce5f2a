"""The learned clause locator: which passages of a contract are the liability cap, the assignment clause…

`CATEGORIES` are the clause categories it knows (CUAD v1's clause types); a playbook rule names the one
that backs it with `locate: {category: "Cap on Liability"}`.
"""

from playbooks.locator.categories import CATEGORIES

__all__ = ["CATEGORIES"]
