"""Maintenance and test tooling of the checkout; not part of the installed package
(tools/README.md)."""
