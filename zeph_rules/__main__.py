"""Allow ``python -m zeph_rules``."""

from .cli.main import run

run()
