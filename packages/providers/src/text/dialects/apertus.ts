/**
 * Swiss AI Apertus: `<|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>`, each item an object whose
 * one key is the tool's name and whose value is the arguments (Apertus-8B/70B-Instruct-2509 chat template; vLLM
 * `apertus_tool_parser.py`, SGLang `apertus2509_detector.py`). An item with more or fewer than one key is refused.
 */
import { isPlainObject } from '../../shared/json-schema';
import type { TextDialect } from '../dialect';
import type { CallRead } from '../read/json-calls';
import { findMarkedLists } from '../read/marked-lists';

function apertusCall(item: unknown): CallRead {
  if (!isPlainObject(item)) return { reason: 'the call is not a JSON object' };
  const keys = Object.keys(item);
  if (keys.length !== 1)
    return { reason: `the call object has ${keys.length} keys; Apertus writes one, the tool's name` };
  const name = keys[0] as string;
  const argumentsValue = item[name];
  if (!isPlainObject(argumentsValue)) return { name, reason: 'the arguments are not a JSON object' };
  return { call: { name, arguments: argumentsValue } };
}

export const apertusDialect: TextDialect = {
  name: 'apertus',
  find: (text) => findMarkedLists(text, { marker: '<|tools_prefix|>', close: '<|tools_suffix|>', items: apertusCall }),
};
