import { SecurityQuestionListSchema } from '@portal/contracts/content';
import { z } from 'zod/mini';
import { PortalError } from '../platform/portal-error';

/**
 * The keys of the CMS's current security-question list: answers may be set only for those
 * (docs/requirements/portal.md#field-rules). The list is read the way the forms read it, through the content
 * service's allow-list and cache (the same URL, so the same cache entry): no extra CMS call while it is cached.
 */
export type SecurityQuestionKeys = () => Promise<readonly string[]>;

/** The same request the forms make (`web/src/lib/security-questions.ts`), so both share one cache entry. */
export const SECURITY_QUESTIONS_CONTENT_URL = '/api/content/security-questions?sort=order:asc&pagination[pageSize]=100';

const ListAnswer = z.object({ data: SecurityQuestionListSchema });

/**
 * Reads the keys through `readPublished` (the content service). When the CMS cannot be reached or answers something
 * else than the list, the answer is 503 `Service_Unavailable`: answers are never stored under unchecked keys.
 */
export function cmsSecurityQuestionKeys(
  readPublished: (url: string) => Promise<{ status: number; body: unknown }>,
): SecurityQuestionKeys {
  return async () => {
    const { status, body } = await readPublished(SECURITY_QUESTIONS_CONTENT_URL);
    const parsed = status === 200 ? ListAnswer.safeParse(body) : undefined;
    if (!parsed?.success) throw new PortalError(503, 'Service_Unavailable');
    return parsed.data.data.map((entry) => entry.attributes.key);
  };
}

/**
 * 400 `Validation_Failed` with `Security_Question_Invalid` on each `securityQuestions.<n>.questionId` that is not a
 * key of the CMS's current list (the shape, distinctness and answers are the contracts' schema's checks).
 */
export async function requireListedSecurityQuestions(
  listedKeys: SecurityQuestionKeys,
  questions: readonly { questionId: string }[],
): Promise<void> {
  const listed = new Set(await listedKeys());
  const fieldErrors: Record<string, string[]> = {};
  questions.forEach((q, index) => {
    if (!listed.has(q.questionId)) fieldErrors[`securityQuestions.${index}.questionId`] = ['Security_Question_Invalid'];
  });
  if (Object.keys(fieldErrors).length) throw new PortalError(400, 'Validation_Failed', fieldErrors);
}
