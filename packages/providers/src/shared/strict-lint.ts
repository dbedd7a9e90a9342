/**
 * Lint checks for the strict modes, run on the lowered tool set (what would be sent).
 */
import { splitNote } from './description-notes';
import {
  describePointer,
  forEachSchemaNode,
  isObjectSchema,
  propertiesOf,
  requiredOf,
  schemaDepth,
  schemaTypes,
  type JsonSchema,
} from './json-schema';
import { hasRecursiveReference } from './lowering/keyword-policy';
import type { LintFinding, LoweredTool } from './provider';
import type { ProviderId } from './provider-id';

/** OpenAI Structured Outputs limits (§1.1). */
export const OPENAI_STRICT_LIMITS = Object.freeze({
  maxNestingDepth: 10,
  maxProperties: 5000,
  maxEnumValues: 1000,
  maxTotalStringLength: 120_000,
});

/** Anthropic strict tool use complexity limits (§3.1), summed over all strict tools of a request. */
export const ANTHROPIC_STRICT_LIMITS = Object.freeze({
  maxStrictTools: 20,
  maxOptionalParameters: 24,
  maxUnionParameters: 16,
});

/** Cohere `strict_tools` (§8.1). */
export const COHERE_STRICT_LIMITS = Object.freeze({ maxFields: 200 });

/** The lowered tools that have parameters. */
function eachTool(lowered: readonly LoweredTool<unknown>[]): Array<{ name: string; parameters: JsonSchema }> {
  return lowered.flatMap(({ name, parameters }) => (parameters ? [{ name, parameters }] : []));
}

/** Nodes whose `additionalProperties` (a free-form map) was moved into the note because strict mode needs `false`. */
function freeFormObjects(parameters: JsonSchema): string[] {
  const pointers: string[] = [];
  forEachSchemaNode(parameters, (node, pointer) => {
    const { note } = splitNote(typeof node['description'] === 'string' ? node['description'] : undefined);
    if (note['additionalProperties'] !== undefined && note['additionalProperties'] !== false) pointers.push(pointer);
  });
  return pointers;
}

function isUntyped(node: JsonSchema): boolean {
  return (
    schemaTypes(node).length === 0 &&
    node['anyOf'] === undefined &&
    node['oneOf'] === undefined &&
    node['$ref'] === undefined &&
    node['enum'] === undefined &&
    node['const'] === undefined &&
    node['properties'] === undefined
  );
}

export function strictModeFindings(provider: ProviderId, lowered: readonly LoweredTool<unknown>[]): LintFinding[] {
  const findings: LintFinding[] = [];
  let properties = 0;
  let enumValues = 0;
  let stringLength = 0;
  for (const { name, parameters } of eachTool(lowered)) {
    for (const pointer of freeFormObjects(parameters)) {
      findings.push({
        tool: name,
        provider,
        rule: 'strict-free-form-object',
        message: `${describePointer(pointer)} is a free-form map (additionalProperties is not false), which strict mode cannot express; it was sent as an empty object`,
        fix: 'declare the keys as properties, send the map as a JSON string parameter, or turn strict mode off for this tool set',
        severity: 'error',
      });
    }
    forEachSchemaNode(parameters, (node, pointer) => {
      if (pointer !== '' && isUntyped(node)) {
        findings.push({
          tool: name,
          provider,
          rule: 'strict-untyped-schema',
          message: `${describePointer(pointer)} accepts any value ({}), which strict mode rejects`,
          fix: 'give the parameter a type (or an anyOf of types), or turn strict mode off for this tool set',
          severity: 'error',
        });
      }
      if (isObjectSchema(node)) properties += propertiesOf(node).length;
      if (Array.isArray(node['enum'])) {
        enumValues += (node['enum'] as unknown[]).length;
        for (const value of node['enum'] as unknown[]) if (typeof value === 'string') stringLength += value.length;
      }
      for (const [propertyName] of propertiesOf(node)) stringLength += propertyName.length;
    });
    const depth = schemaDepth(parameters);
    if (depth > OPENAI_STRICT_LIMITS.maxNestingDepth) {
      findings.push({
        tool: name,
        provider,
        rule: 'strict-nesting-depth',
        message: `objects nest ${depth} levels deep; strict mode allows ${OPENAI_STRICT_LIMITS.maxNestingDepth}`,
        fix: 'flatten the parameters, or turn strict mode off for this tool set',
        severity: 'error',
      });
    }
  }
  const setWide: Array<[boolean, string, string]> = [
    [
      properties > OPENAI_STRICT_LIMITS.maxProperties,
      'strict-property-count',
      `${properties} object properties in total; strict mode allows ${OPENAI_STRICT_LIMITS.maxProperties}`,
    ],
    [
      enumValues > OPENAI_STRICT_LIMITS.maxEnumValues,
      'strict-enum-count',
      `${enumValues} enum values in total; strict mode allows ${OPENAI_STRICT_LIMITS.maxEnumValues}`,
    ],
    [
      stringLength > OPENAI_STRICT_LIMITS.maxTotalStringLength,
      'strict-string-length',
      `property names and enum values total ${stringLength} characters; strict mode allows ${OPENAI_STRICT_LIMITS.maxTotalStringLength}`,
    ],
  ];
  for (const [exceeded, rule, message] of setWide) {
    if (exceeded) {
      findings.push({
        tool: '*',
        provider,
        rule,
        message,
        fix: 'send fewer tools per request, or turn strict mode off',
        severity: 'error',
      });
    }
  }
  return findings;
}

function isUnionParameter(schema: JsonSchema): boolean {
  return Array.isArray(schema['anyOf']) || (Array.isArray(schema['type']) && (schema['type'] as unknown[]).length > 1);
}

/** Anthropic strict (and Bedrock strict, assumed the same): request-wide complexity limits, recursion, free-form maps. */
export function anthropicStrictFindings(provider: ProviderId, lowered: readonly LoweredTool<unknown>[]): LintFinding[] {
  const findings: LintFinding[] = [];
  const tools = eachTool(lowered);
  let optional = 0;
  let unions = 0;
  for (const { name, parameters } of tools) {
    forEachSchemaNode(parameters, (node) => {
      if (!isObjectSchema(node)) return;
      const required = new Set(requiredOf(node));
      for (const [propertyName, property] of propertiesOf(node)) {
        if (!required.has(propertyName)) optional += 1;
        if (isUnionParameter(property)) unions += 1;
      }
    });
    if (hasRecursiveReference(parameters)) {
      findings.push({
        tool: name,
        provider,
        rule: 'strict-recursive-schema',
        message: 'the parameters refer to themselves ($ref recursion), which strict tool use rejects',
        fix: 'bound the recursion to a fixed depth, or turn strict mode off for this tool',
        severity: 'error',
      });
    }
    for (const pointer of freeFormObjects(parameters)) {
      findings.push({
        tool: name,
        provider,
        rule: 'strict-free-form-object',
        message: `${describePointer(pointer)} is a free-form map, and strict tool use needs additionalProperties: false; it was sent as an empty object`,
        fix: 'declare the keys as properties, send the map as a JSON string parameter, or turn strict mode off',
        severity: 'error',
      });
    }
  }
  const checks: Array<[boolean, string, string]> = [
    [
      tools.length > ANTHROPIC_STRICT_LIMITS.maxStrictTools,
      'strict-tool-count',
      `${tools.length} strict tools; at most ${ANTHROPIC_STRICT_LIMITS.maxStrictTools} per request`,
    ],
    [
      optional > ANTHROPIC_STRICT_LIMITS.maxOptionalParameters,
      'strict-optional-count',
      `${optional} optional parameters across strict tools; at most ${ANTHROPIC_STRICT_LIMITS.maxOptionalParameters}`,
    ],
    [
      unions > ANTHROPIC_STRICT_LIMITS.maxUnionParameters,
      'strict-union-count',
      `${unions} parameters with union types across strict tools; at most ${ANTHROPIC_STRICT_LIMITS.maxUnionParameters}`,
    ],
  ];
  for (const [exceeded, rule, message] of checks) {
    if (exceeded) {
      findings.push({
        tool: '*',
        provider,
        rule,
        message,
        fix: 'mark fewer tools strict, or send fewer tools per request',
        severity: 'error',
      });
    }
  }
  return findings;
}

/** Cohere `strict_tools`: every tool needs a required parameter; at most 200 fields across all tools. */
export function cohereStrictFindings(lowered: readonly LoweredTool<unknown>[]): LintFinding[] {
  const findings: LintFinding[] = [];
  let fields = 0;
  for (const { name, parameters } of eachTool(lowered)) {
    if (requiredOf(parameters).length === 0) {
      findings.push({
        tool: name,
        provider: 'cohere',
        rule: 'strict-required-parameter',
        message: 'strict_tools needs at least one required parameter per tool; this tool has none',
        fix: 'make one parameter required, or call Cohere without strict_tools',
        severity: 'error',
      });
    }
    forEachSchemaNode(parameters, (node) => {
      if (isObjectSchema(node)) fields += propertiesOf(node).length;
    });
  }
  if (fields > COHERE_STRICT_LIMITS.maxFields) {
    findings.push({
      tool: '*',
      provider: 'cohere',
      rule: 'strict-field-count',
      message: `${fields} fields across all tools; strict_tools allows ${COHERE_STRICT_LIMITS.maxFields}`,
      fix: 'send fewer tools per request, or call Cohere without strict_tools',
      severity: 'error',
    });
  }
  return findings;
}
