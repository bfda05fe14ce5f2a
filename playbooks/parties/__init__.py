"""Who is who: the contract's parties, their defined terms and what each does, and which of them is *us*.

`read_parties(document)` reads the parties from the preamble ("between X (the “Company”) and Y …",
"BETWEEN: (1) … (2) …", letter agreements) with the defined term each is called by and the evidence of
what it does (pays, provides, licenses). `resolve_roles(parties, our_role, we=…)` binds *us* and *them*:
to the party named by `--we`, or to the party whose own words in the contract fit the playbook's role,
and states the basis. Playbook patterns speak of `{us}` and `{them}`; the engine binds them to the
defined terms resolved here (see `role_alternation`).
"""

from playbooks.parties.reading import Party, read_parties
from playbooks.parties.roles import RoleBinding, resolve_roles, role_alternation

__all__ = ["Party", "RoleBinding", "read_parties", "resolve_roles", "role_alternation"]
