import { describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/result';
import {
  describeServiceError,
  isTransient,
  neverSent,
  provesNothingCreated,
  serviceErrors,
} from './serviceFailures';

describe('the service’s failures', () => {
  it('reads one error object or a list, pointer or parameter as the place', () => {
    expect(serviceErrors({ errors: { code: 'X', title: 'Bad', source: { parameter: 'q' } } })).toEqual([
      { status: undefined, code: 'X', title: 'Bad', detail: undefined, pointer: 'q' },
    ]);
    expect(serviceErrors({ errors: [{ status: '422', detail: 'd', source: { pointer: '/a' } }, 7] })).toEqual(
      [{ status: '422', code: undefined, title: undefined, detail: 'd', pointer: '/a' }],
    );
    expect(serviceErrors(null)).toEqual([]);
  });

  it('puts an error in words, falling back to its code', () => {
    expect(describeServiceError({ title: 'Bad', detail: 'why' })).toBe('Bad: why');
    expect(describeServiceError({ code: 'X' })).toBe('X');
    expect(describeServiceError({})).toBe('Refused');
  });

  it('asks again on 429 and 5xx except 501 and 505', () => {
    expect([429, 500, 502, 503, 501, 505, 404].map(isTransient)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('knows a connection that never opened', () => {
    expect(neverSent({ cause: { code: 'ECONNREFUSED' } })).toBe(true);
    expect(neverSent({ cause: { code: 'ECONNRESET' } })).toBe(false);
    expect(neverSent(null)).toBe(false);
  });

  it('proves nothing was created only from a clear refusal', () => {
    expect(provesNothingCreated(new DeskFailure('CONFLICT', 'x'))).toBe(true);
    expect(provesNothingCreated(new DeskFailure('AMBIGUOUS', 'x'))).toBe(false);
    expect(provesNothingCreated(new DeskFailure('BAD_RESPONSE', 'x'))).toBe(false);
    expect(provesNothingCreated(new Error('x'))).toBe(false);
  });
});
