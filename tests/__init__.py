"""The test suite, in folders as the code is (docs/architecture.md, "Tests", lists them); each
file's tier is in conftest.py (docs/development.md, "Tests")."""
