/**
 * The findings every provider's lowering reports about what it lowered: a root that is not one object schema, a
 * root union the provider rejects, keywords moved into descriptions.
 */
import { splitNote } from './description-notes';
import { describePointer, forEachSchemaNode, schemaTypes, type JsonSchema } from './json-schema';
import type { LintFinding, ProviderInfo } from './provider';

function isRootUnion(parameters: JsonSchema): string | undefined {
  return ['oneOf', 'anyOf', 'allOf', 'enum', 'not'].find((keyword) => parameters[keyword] !== undefined);
}

/** The findings about one lowered tool's parameters. */
export function loweredSchemaFindings(descriptor: ProviderInfo, name: string, parameters: JsonSchema): LintFinding[] {
  const findings: LintFinding[] = [];
  const types = schemaTypes(parameters).map((type) => type.toLowerCase());
  if (!(types.length === 1 && types[0] === 'object')) {
    findings.push({
      tool: name,
      provider: descriptor.id,
      rule: 'root-type',
      message: `the parameters' root must be one object schema (type "object"), not ${JSON.stringify(parameters['type'] ?? 'untyped')}`,
      fix: 'wrap the value in an object property',
      severity: 'error',
    });
  }
  const union = isRootUnion(parameters);
  if (union && descriptor.limits.rootUnionsRejected) {
    findings.push({
      tool: name,
      provider: descriptor.id,
      rule: 'root-union',
      message: `the parameters have "${union}" at the root, which ${descriptor.label} rejects`,
      fix: 'merge the variants into one object with optional properties, or split the tool in one tool per variant',
      severity: 'error',
    });
  }
  forEachSchemaNode(parameters, (node, pointer) => {
    const { note } = splitNote(typeof node['description'] === 'string' ? node['description'] : undefined);
    const moved = Object.keys(note);
    if (moved.length === 0) return;
    findings.push({
      tool: name,
      provider: descriptor.id,
      rule: 'unsupported-keyword',
      message: `${describePointer(pointer)}: ${moved.join(', ')} cannot be sent to ${descriptor.label} and ${moved.length === 1 ? 'was' : 'were'} moved into the description`,
      fix: 'none needed: the model reads the rule in the description and the executor still enforces it',
      severity: 'info',
    });
  });
  return findings;
}
