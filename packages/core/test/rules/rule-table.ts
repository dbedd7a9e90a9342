import { dateEdgeCases } from '@toolwright/core/rules/date';
import { dateTimeEdgeCases } from '@toolwright/core/rules/date-time';
import { timeEdgeCases } from '@toolwright/core/rules/time';
import { integerBoundEdgeCases, integerEdgeCases } from '@toolwright/core/rules/integer';
import { numberEdgeCases } from '@toolwright/core/rules/number';
import { booleanEdgeCases } from '@toolwright/core/rules/boolean';
import { stringEdgeCases, stringLengthEdgeCases } from '@toolwright/core/rules/string';
import { EDGE_ENUM, enumEdgeCases } from '@toolwright/core/rules/enum';
import { arrayEdgeCases } from '@toolwright/core/rules/array';
import { FORMATS } from '@toolwright/core/rules/format';
import type { LabelledValue } from '@toolwright/core/rules/outcome';
import { isJsonValue } from '../support/rule-engines';

/**
 * Each rule of `rules/` as a JSON Schema parameter, with the rule's own labelled edge cases (the values JSON text can
 * carry): what the labelled tests and the differential test draw from.
 */
export interface RuleCase {
  readonly name: string;
  readonly parameter: Record<string, unknown>;
  readonly cases: readonly LabelledValue[];
  /**
   * `false` where the canonical check does not model the node (a union, a value of several types): the walk and the
   * hot tier then refuse every value and leave it to the normalizer, by design. They must still refuse every invalid one.
   */
  readonly canonical?: false;
}

const json = (cases: LabelledValue[]) => cases.filter((edge) => isJsonValue(edge.value));

export const RULES: readonly RuleCase[] = [
  { name: 'date-time', parameter: { type: 'string', format: 'date-time' }, cases: json(dateTimeEdgeCases()) },
  { name: 'date', parameter: { type: 'string', format: 'date' }, cases: json(dateEdgeCases()) },
  { name: 'time', parameter: { type: 'string', format: 'time' }, cases: json(timeEdgeCases()) },
  { name: 'integer', parameter: { type: 'integer' }, cases: json(integerEdgeCases()) },
  {
    name: 'integer bounds',
    parameter: { type: 'integer', minimum: -5, maximum: 5 },
    cases: json(integerBoundEdgeCases(-5, 5)),
  },
  { name: 'number', parameter: { type: 'number' }, cases: json(numberEdgeCases()) },
  { name: 'boolean', parameter: { type: 'boolean' }, cases: json(booleanEdgeCases()) },
  { name: 'string', parameter: { type: 'string' }, cases: json(stringEdgeCases()) },
  {
    name: 'string length (code points)',
    parameter: { type: 'string', minLength: 3 },
    cases: json(stringLengthEdgeCases(3, 'code-points')),
  },
  {
    name: 'string length in a union',
    parameter: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'integer' }] },
    cases: json(stringLengthEdgeCases(3, 'code-points')),
    canonical: false,
  },
  { name: 'enum', parameter: { enum: EDGE_ENUM }, cases: json(enumEdgeCases()), canonical: false },
  {
    name: 'enum of strings',
    parameter: { type: 'string', enum: ['red', 'Green', 'e\u0301'] },
    cases: json(enumEdgeCases()).filter((edge) => typeof edge.value === 'string' && edge.value !== '1'),
  },
  {
    name: 'array',
    parameter: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3, uniqueItems: true },
    cases: json(arrayEdgeCases()),
  },
  ...[...FORMATS.values()]
    .filter((format) => !['date', 'date-time', 'time'].includes(format.name))
    .map((format) => ({
      name: `format ${format.name}`,
      parameter: { type: 'string', format: format.name },
      cases: json(format.edgeCases()),
    })),
];

/** The JSON Schema of a tool taking one required parameter `v` of the rule. */
export function toolParameters(rule: RuleCase): Record<string, unknown> {
  return { type: 'object', properties: { v: rule.parameter }, required: ['v'], additionalProperties: false };
}
