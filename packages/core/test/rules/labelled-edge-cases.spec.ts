import { jsonText, RuleEngines } from '../support/rule-engines';
import { RULES, toolParameters } from './rule-table';

/**
 * Each rule's own edge cases, labelled valid or invalid by the rule's module, against every engine that decides the
 * rule: the default compiled path, the reference path, Standard Schema's `validate`, the output-schema check, the
 * shared walk and the hot tier's generated code. Under `strict`, a valid value is handed on exactly as sent and an
 * invalid one is refused, by each of them.
 */
describe.each(RULES.map((rule) => [rule.name, rule] as const))('the %s rule, on its labelled edge cases', (_, rule) => {
  const engines = RuleEngines.forJsonSchema(toolParameters(rule), 'strict');

  it('every engine accepts exactly the valid values, and hands them on as sent', async () => {
    const wrong: string[] = [];
    for (const edge of rule.cases) {
      const args = { v: edge.value };
      const answers = await engines.all(args);
      const label = edge.valid ? 'valid' : 'invalid';
      const where = `${JSON.stringify(edge.value)} (${edge.note}, ${label})`;
      for (const path of ['compiled', 'reference', 'standard'] as const) {
        const answer = answers[path];
        if (answer.ok !== edge.valid) wrong.push(`${path} ${answer.ok ? 'accepted' : 'refused'} ${where}`);
        else if (answer.ok && jsonText((answer.value as { v: unknown }).v) !== jsonText(edge.value))
          wrong.push(`${path} handed on ${JSON.stringify(answer.value)} for ${where}`);
      }
      if (answers.output !== edge.valid) wrong.push(`output ${answers.output ? 'accepted' : 'refused'} ${where}`);
      // The canonical check (walk and hot tier) accepts exactly the valid values of a node it models, and refuses
      // every value of one it does not (the normalizer then decides).
      const canonical = rule.canonical !== false && edge.valid;
      for (const check of ['walk', 'hot'] as const)
        if (answers[check] !== canonical) wrong.push(`${check} ${answers[check] ? 'accepted' : 'refused'} ${where}`);
    }
    expect(wrong).toStrictEqual([]);
  });

  it('has valid and invalid edge cases', () => {
    expect(rule.cases.some((edge) => edge.valid)).toBe(true);
    expect(rule.cases.some((edge) => !edge.valid)).toBe(true);
  });
});
