"""Guards shared by every entry point that reads a user's data or writes a user's files
(docs/security.md): argparse validators for the CLI's numbers (flags.py), output paths checked
before any work and files written atomically (outputs.py), JSON read with bounded size and depth
and written strictly (json_limits.py), the files a person hands over opened as regular files only,
bounded, without blocking (files.py), and an unpickler that only rebuilds this package's own
objects (unpickle.py)."""
