import 'reflect-metadata';
import { hasNestedQuantifier } from '../../../src/schema/regex-safety';
import { cpuMillisecondsOf } from '../../support/cpu-time';

describe('hasNestedQuantifier', () => {
  it.each([
    '(a+)+',
    '(a*)*b',
    '(\\w+\\s?)*',
    '^(a+)+$',
    '((ab)*c)+',
    '(a{2,})*',
    '(a{1,5}){2}',
    '(?:a+)+',
    '(?<word>\\w+)+',
    '((a+))+',
    '((a+)?)*',
    '(a+?)+?',
    '([a-z]+\\.)+[a-z]+',
  ])('flags %s', (pattern) => {
    expect(hasNestedQuantifier(pattern)).toBe(true);
  });

  it.each([
    '^[a-z]+$',
    '(ab)+',
    '(a|b)*',
    '(a?)+',
    '(a{1})+',
    '(a{0,1})*',
    '(a+)?',
    '(a+)',
    '[(a+)+]',
    '\\(a+\\)+',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '\\p{L}+',
    '(?=a+)b',
    'a{2,}b+',
    'x{,3}',
    '',
    ')+(',
  ])('does not flag %s', (pattern) => {
    expect(hasNestedQuantifier(pattern)).toBe(false);
  });

  it('scans a long pattern in linear time', () => {
    const pattern = '(a)'.repeat(50_000) + '+';
    expect(cpuMillisecondsOf(() => expect(hasNestedQuantifier(pattern)).toBe(false))).toBeLessThan(500);
  });
});
