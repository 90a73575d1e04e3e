"""Adapters to the frameworks researchers already use (docs/adapters.md).

Each module imports its framework, so import only the one you need:
`vikinger_fast.adapters.openspiel` (pip extra `openspiel`), `.pettingzoo` (`pettingzoo`),
`.gymnasium` (`gymnasium`). Every adapter takes the engine module as a parameter:
`vikinger_fast` (default) or its pure-Python twin `vikinger_ref`.
"""
