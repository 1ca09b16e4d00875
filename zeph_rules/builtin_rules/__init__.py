"""The shipped rule files (package data), loaded like any user file."""
