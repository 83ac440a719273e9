"""Accounts: who may see and do what (`policy`, the one access policy every use case asks), signing in and looking
after users, roles and keys (`users`, with failed sign-ins slowed by `throttle`), sharing workspaces (`sharing`),
each user's fair share of turns (`user_turns`) and the audit trail (`audit_trail`)."""
