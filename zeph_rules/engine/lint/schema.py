"""The JSON Schema of a rule file, generated from the pydantic models.

The validation models validate some lists one entry at a time (so one bad
rule does not hide the others); the schema wants the entries' shape, so a few
thin subclasses here give those lists their item type.  Nothing here is used
to validate — ``desugar`` does that — it is what editors read.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from .. import models

SCHEMA_ID = "https://zeph-rules.dev/schema/rule-file.json"


class PolicySection(models.Policy):
    rules: list[models.PolicyRule] = []


class AuthorizationSection(models.Authorization):
    rules: list[models.PolicyRule] = []


class ToolsSection(models.Strict):
    permissions: dict[str, list[models.PermissionRule]] = Field(default_factory=dict, description="Per tool, ordered { pattern, action } globs; first match wins.")
    shell: models.ShellSettings | None = Field(None, description="Legacy lists; `zeph-rules check --fix` migrates them to permissions.")
    file: models.FileSettings | None = None
    policy: PolicySection | None = None
    authorization: AuthorizationSection | None = None
    filters: models.FilterSettings | None = None
    dependencies: models.Dependencies | None = None


class RuleFileSchema(models.Strict):
    """A zeph-rules rule file (TOML or YAML)."""

    rules: list[models.FilterRule] = Field(default_factory=list, description="Output filters, `[[rules]]`.")
    pattern_sets: dict[str, Annotated[list[models.RegexStr], Field(min_length=1)]] = Field(
        default_factory=dict, description='Named regex lists; a strategy\'s pattern list uses one with `{ use = "name" }`.')
    tools: ToolsSection | None = None
    tests: list[models.InlineTest] = Field(default_factory=list, description="Inline examples checked by `zeph-rules check`.")
    settings: dict[str, Any] = Field(default_factory=dict)


_SET_REFERENCE = {
    "type": "object", "properties": {"use": {"type": "string", "description": "the name of a `[pattern_sets]` entry"}},
    "required": ["use"], "additionalProperties": False,
}


def _allow_set_references(node: Any) -> None:
    """Let every regex-list item of a strategy be a pattern-set reference too (desugar expands them)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in models.PATTERN_LIST_FIELDS and isinstance(value, dict):
                for variant in (value, *value.get("anyOf", ())):
                    if variant.get("type") == "array":
                        variant["items"] = {"anyOf": [variant["items"], {"$ref": "#/$defs/PatternSetReference"}]}
            else:
                _allow_set_references(value)
    elif isinstance(node, list):
        for item in node:
            _allow_set_references(item)


def rule_file_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a rule file."""
    schema = RuleFileSchema.model_json_schema()
    _allow_set_references(schema["$defs"])
    schema["$defs"]["PatternSetReference"] = _SET_REFERENCE
    schema["title"] = "zeph-rules rule file"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}
