"""The atheris fuzzers of both engines and the modules they share with the tests (fuzz/README.md).
Not shipped; run a fuzzer from the checkout's root as `python -m fuzz.fuzz_dict`."""
