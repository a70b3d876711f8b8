import { describe, expect, it } from 'vitest';
import { ErrorResponseCheck, SESSION_ENDED_CODES, SessionStateCheck } from './response-checks';
import { PendingLoginStep, SessionState } from './auth';
import { ErrorResponseSchema } from './http';

// The zod-free checks must answer exactly what their schemas answer: same verdict, same data (unknown fields dropped).
const agree = (
  check: { safeParse: (v: unknown) => { success: boolean; data?: unknown } },
  schema: { safeParse: (v: unknown) => { success: boolean; data?: unknown } },
  value: unknown,
) => {
  const ours = check.safeParse(value);
  const zods = schema.safeParse(value);
  expect({ value, success: ours.success }).toEqual({ value, success: zods.success });
  if (zods.success) expect(ours.data).toStrictEqual(zods.data);
};

const wrongValues = [undefined, null, 0, 1.5, Infinity, NaN, '', 'x', true, false, [], {}, ['x']];

describe('SessionStateCheck', () => {
  it('covers every field of SessionState', () => {
    const full = {
      loggedIn: true,
      endedBecause: 'Session_Ended_Mfa_Reset',
      username: 'a',
      displayName: 'A',
      idleSecondsLeft: 10,
      absoluteSecondsLeft: 20,
      mfaPending: 'mfa',
      recertificationOverdue: false,
      administersLocation: true,
    };
    expect(Object.keys(full).sort()).toEqual(Object.keys(SessionState.shape).sort());
    agree(SessionStateCheck, SessionState, full);
  });

  it('answers what the schema answers for every field with every kind of value', () => {
    const base = { loggedIn: false };
    for (const key of Object.keys(SessionState.shape))
      for (const value of [...wrongValues, ...PendingLoginStep.options, ...SESSION_ENDED_CODES, 'other-step'])
        agree(SessionStateCheck, SessionState, { ...base, [key]: value });
    for (const value of [...wrongValues, 'text', { loggedIn: true, extra: 1 }, Object.create({ loggedIn: true })])
      agree(SessionStateCheck, SessionState, value);
  });
});

describe('ErrorResponseCheck', () => {
  it('answers what ErrorResponseSchema answers', () => {
    const base = { errorMessage: 'Generic_Error_For_Services' };
    for (const key of Object.keys(ErrorResponseSchema.shape))
      for (const value of [...wrongValues, { a: ['x'] }, { a: 'x' }, { a: [1] }, { a: [] }])
        agree(ErrorResponseCheck, ErrorResponseSchema, { ...base, [key]: value });
    for (const value of [...wrongValues, { ...base, requestId: 'r', other: 1 }])
      agree(ErrorResponseCheck, ErrorResponseSchema, value);
  });
});
