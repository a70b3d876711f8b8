import { CONTENT_PATH, GENERIC_ERROR_CODE, type TopicEntry } from '@portal/contracts';
import { http, HttpResponse } from 'msw';

/** MSW route for a content type behind the server's content proxy, e.g. contentRoute('topics'). */
export const contentRoute = (type: string) => `${CONTENT_PATH}/${type}`;

/** A success answer of the portal server (`{ data }`). */
export const dataAnswer = (data: unknown) => HttpResponse.json({ data });

/** An error answer of the portal server (`{ errorMessage: <Code> }`). */
export const errorAnswer = (status: number, code: string) => HttpResponse.json({ errorMessage: code }, { status });

export function topic(slug: string, attributes: Partial<TopicEntry['attributes']> = {}): TopicEntry {
  return {
    id: slug.length,
    attributes: {
      title: `Title of ${slug}`,
      slug,
      summary: `Summary of ${slug}`,
      body: `Body of ${slug}.`,
      jurisdictions: null,
      publishedAt: '2026-11-01T00:00:00.000Z',
      ...attributes,
    },
  };
}

export const LICENSE_TEXT = 'CPT is a registered trademark of the American Medical Association.';

export const SYSTEM_USE_NOTICE_TEXT = 'This system is provided for Government-authorized use only.';

export const defaultTopics = [
  topic('appeals'),
  topic('part-a-billing', { title: 'Part A billing', jurisdictions: ['J5A', 'J8A'] }),
  topic('part-b-claims', { title: 'Part B claims', jurisdictions: ['J5B', 'J8B'] }),
];

export const defaultErrorMessages: Record<string, string> = {
  [GENERIC_ERROR_CODE]: 'Something went wrong on our side. Please try again later.',
  Content_Unavailable: 'Content is not available right now.',
  Login_Failed: 'The username or password is not correct.',
  Mfa_Code_Invalid: 'That code is not correct or has already been used.',
  Mfa_Setup_Code_Invalid: 'That code is not correct. Enter the 6-digit code your authenticator app shows now.',
  Email_Not_Verified: 'Your email address needs verifying before you can log in.',
  Reauthentication_Required: 'For your security, enter your password again to make this change.',
  Current_Password_Invalid: 'Your current password is not correct. Try again.',
  Password_Reused: 'You used this password recently. Choose one you have not used before.',
  Passkey_Verification_Failed: 'Your passkey could not be verified.',
  Provider_Not_Found: 'We could not find an active provider location with these details.',
  Location_Has_Administrator: 'This provider location already has an administrator.',
  Username_Taken: 'This username is already taken. Choose a different one.',
  Date_Of_Birth_Invalid: 'Date of Birth is invalid',
  Date_Of_Birth_In_Future: 'Date of birth cannot be in the future. Enter the date you were born.',
  Email_Mismatch: 'The email addresses do not match.',
  Verification_Link_Invalid: 'This verification link is not valid, has expired or was already used.',
  Email_Invalid: 'Enter a valid email address, for example name@example.com.',
  Email_Unchanged: 'This is already your email address.',
  Email_Change_Link_Invalid: 'This link to confirm a new email address is not valid, has expired or was already used.',
  Phone_Invalid: 'Enter a 10-digit US phone number, for example 410-555-0123.',
  Security_Question_Invalid: 'Choose a security question from the list.',
  Security_Questions_Not_Distinct: 'Choose three different security questions and answer each one.',
  Security_Answers_Not_Distinct: 'Give each security question a different answer.',
};

/** The CMS's security questions (the seed's first few), in order. */
export const SECURITY_QUESTIONS = [
  { key: 'childhood-street', question: 'What was the name of the street you grew up on?' },
  { key: 'first-car', question: 'What was the make and model of your first car?' },
  { key: 'first-school', question: 'What is the name of the first school you attended?' },
  { key: 'first-employer', question: 'What was the name of your first employer?' },
];

function entry(id: number, attributes: Record<string, unknown>) {
  return { id, attributes: { publishedAt: '2026-11-01T00:00:00.000Z', ...attributes } };
}

/** The CMS's error messages: the defaults plus `extra` (a test's own codes); `server.use(errorMessagesRoute({...}))`. */
export function errorMessagesRoute(extra: Record<string, string> = {}) {
  const messages = { ...defaultErrorMessages, ...extra };
  return http.get(contentRoute('error-messages'), ({ request }) => {
    const code = new URL(request.url).searchParams.get('filters[ErrorCode][$eq]') ?? '';
    const message = messages[code];
    return dataAnswer(message ? [entry(1, { ErrorCode: code, Message: message })] : []);
  });
}

/**
 * The content a healthy CMS serves through the proxy: home page, topics (filtered by slug like Strapi), license
 * and error messages. Tests override one route with `server.use(...)`.
 */
export const contentHandlers = [
  http.get(contentRoute('home-page'), () =>
    dataAnswer(entry(1, { heroTitle: 'Welcome, providers', heroText: 'Guidance for **your** region.', notices: [] })),
  ),
  http.get(contentRoute('topics'), ({ request }) => {
    const slug = new URL(request.url).searchParams.get('filters[slug][$eq]');
    return dataAnswer(slug === null ? defaultTopics : defaultTopics.filter((t) => t.attributes.slug === slug));
  }),
  // No topic has moved (tests that need a former address override this).
  http.get(contentRoute('topic-addresses'), () => dataAnswer([])),
  http.get(contentRoute('license'), () => dataAnswer(entry(1, { LicenseText: LICENSE_TEXT }))),
  http.get(contentRoute('system-use-notice'), () => dataAnswer(entry(1, { NoticeText: SYSTEM_USE_NOTICE_TEXT }))),
  http.get(contentRoute('security-questions'), () =>
    dataAnswer(SECURITY_QUESTIONS.map((q, index) => entry(index + 1, { ...q, order: index }))),
  ),
  errorMessagesRoute(),
];
