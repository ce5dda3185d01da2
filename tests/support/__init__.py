"""Helpers the tests share (not collected by pytest) and checks too long for the suite, run by hand."""
