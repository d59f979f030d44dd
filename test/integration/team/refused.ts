import { expect } from 'vitest';

/** That a statement was refused by the team database with this SQLSTATE (and, given, this message). */
export async function expectRefused(
  promise: Promise<unknown>,
  sqlstate: string,
  message?: RegExp,
): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as { code?: string; message?: string },
  );
  expect(error, `expected a refusal ${sqlstate}`).not.toBeNull();
  expect(error?.code).toBe(sqlstate);
  if (message) expect(error?.message).toMatch(message);
}
