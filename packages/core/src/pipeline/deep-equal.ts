// The pipeline's name for the one JSON equality helper (schema/json-equals.ts: `0` and `-0` are equal, as in JSON).
export { jsonEquals as deepEqual } from '../schema/json-equals';
