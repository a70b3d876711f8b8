import { describe, expect, it } from 'vitest';
import { parseContentRequest } from '../src/content/allow-list';
import { PortalError } from '../src/platform/portal-error';
import {
  cmsSecurityQuestionKeys,
  requireListedSecurityQuestions,
  SECURITY_QUESTIONS_CONTENT_URL,
} from '../src/identity/security-questions';

const entry = (id: number, key: string) => ({ id, attributes: { key, question: `Question ${key}?`, order: id } });
const list = { data: [entry(1, 'first-car'), entry(2, 'first-school'), entry(3, 'childhood-nickname')] };

/** The status a call ends with: `ok`, or the PortalError's status, code and field errors. */
async function outcome(call: Promise<unknown>) {
  try {
    await call;
    return 'ok';
  } catch (err) {
    if (err instanceof PortalError) return { status: err.status, code: err.code, fieldErrors: err.fieldErrors };
    throw err;
  }
}

describe("security-question keys come from the CMS's list (docs/requirements/portal.md#field-rules)", () => {
  it('reads the list through the content allow-list, with the same query as the forms', () => {
    const [path, query] = SECURITY_QUESTIONS_CONTENT_URL.replace('/api/content/', '').split('?');
    expect(parseContentRequest(path!, query!)?.path.type).toBe('security-questions');
  });

  it('takes the listed keys and refuses others on their field, without Fastify', async () => {
    const keys = cmsSecurityQuestionKeys(async (url) => {
      expect(url).toBe(SECURITY_QUESTIONS_CONTENT_URL);
      return { status: 200, body: list };
    });
    expect(await keys()).toEqual(['first-car', 'first-school', 'childhood-nickname']);
    const q = (...ids: string[]) => ids.map((questionId) => ({ questionId }));
    expect(
      await outcome(requireListedSecurityQuestions(keys, q('first-car', 'first-school', 'childhood-nickname'))),
    ).toBe('ok');
    expect(await outcome(requireListedSecurityQuestions(keys, q('first-car', 'pet-name', 'favourite-colour')))).toEqual(
      {
        status: 400,
        code: 'Validation_Failed',
        fieldErrors: {
          'securityQuestions.1.questionId': ['Security_Question_Invalid'],
          'securityQuestions.2.questionId': ['Security_Question_Invalid'],
        },
      },
    );
  });

  it('answers 503 Service_Unavailable when the list cannot be read, rather than accept unchecked keys', async () => {
    for (const answer of [
      { status: 502, body: { errorMessage: 'Content_Unavailable' } },
      { status: 404, body: { errorMessage: 'Not_Found' } },
      { status: 200, body: { data: [{ id: 1 }] } },
      { status: 200, body: null },
    ]) {
      const keys = cmsSecurityQuestionKeys(async () => answer);
      expect(
        await outcome(requireListedSecurityQuestions(keys, [{ questionId: 'first-car' }])),
        JSON.stringify(answer),
      ).toEqual({ status: 503, code: 'Service_Unavailable', fieldErrors: undefined });
    }
  });
});
