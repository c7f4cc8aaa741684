"""The test suite, in folders as the code is (docs/development.md, "Tests"); each file's tier is in
conftest.py."""
