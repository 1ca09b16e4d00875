"""The command line: argument parsing and output formatting only."""
