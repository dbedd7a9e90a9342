import 'reflect-metadata';
import { ToolwrightError, InvalidArgumentsError } from '@toolwright/core';

describe('errors', () => {
  it('brands errors so isInstance works across copies', () => {
    const error = new InvalidArgumentsError('bad');
    expect(ToolwrightError.isInstance(error)).toBe(true);
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(error.toPayload()).toEqual({ code: 'INVALID_ARGUMENTS', message: 'bad', issues: [], retryable: true });
    expect(ToolwrightError.isInstance(new Error('x'))).toBe(false);
    expect(process.versions.node.split('.')[0]).toBe('22');
  });
});
