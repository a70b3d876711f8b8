import { z } from 'zod/mini';

/**
 * Content shapes as the CMS answers them through /api/content (Strapi's v4 response format: the SPA reads
 * `data.attributes.*`, docs/requirements/api.md#response-envelope). Answers are parsed, not cast: editors can change content types.
 */
export const CONTENT_PATH = '/api/content';

const entry = <T extends z.core.$ZodLooseShape>(attributes: T) =>
  z.object({
    id: z.number(),
    documentId: z.optional(z.string()),
    attributes: z.object({ publishedAt: z.nullish(z.string()), ...attributes }),
  });

export const TopicAttributes = {
  title: z.string(),
  slug: z.string(),
  summary: z.nullish(z.string()),
  body: z.nullish(z.string()),
  jurisdictions: z.nullish(z.array(z.string())),
  order: z.nullish(z.number()),
  updatedAt: z.optional(z.string()),
};
export const TopicEntrySchema = entry(TopicAttributes);
export type TopicEntry = z.infer<typeof TopicEntrySchema>;
export const TopicListSchema = z.array(TopicEntrySchema);

/**
 * An address a topic was published under (the CMS keeps every one, src/portal/topic-addresses.js): when no topic
 * has that slug now, the page answers 301 to the topic's current address (docs/requirements/public-site.md#topic-page).
 */
export const TopicAddressListSchema = z.array(entry({ slug: z.string(), topicDocumentId: z.string() }));
/** A topic's current address only (`fields[0]=slug`). */
export const TopicSlugListSchema = z.array(entry({ slug: z.string() }));

export const NoticeSchema = z.object({
  id: z.optional(z.number()),
  title: z.string(),
  text: z.nullish(z.string()),
  severity: z.nullish(z.enum(['info', 'warning'])),
});

export const HomePageEntrySchema = entry({
  heroTitle: z.nullish(z.string()),
  heroText: z.nullish(z.string()),
  featuredTopics: z.nullish(z.object({ data: TopicListSchema })),
  notices: z.nullish(z.array(NoticeSchema)),
});

export const LicenseEntrySchema = entry({ LicenseText: z.nullable(z.string()) });

/** The system-use notice shown above the login form (docs/requirements/session.md#login). */
export const SystemUseNoticeEntrySchema = entry({ NoticeText: z.nullable(z.string()) });

export const ErrorMessageListSchema = z.array(entry({ ErrorCode: z.string(), Message: z.string() }));

/** `key`: the stable slug answers are stored under (the documentId changes when an entry is recreated). */
export const SecurityQuestionListSchema = z.array(
  entry({ key: z.string(), question: z.string(), order: z.nullish(z.number()) }),
);
export type SecurityQuestion = z.infer<typeof SecurityQuestionListSchema>[number];

// CONTENT_NOT_FOUND_TEXT is in errors.ts (without zod): the topic page shows it and builds no schema.
export { CONTENT_NOT_FOUND_TEXT } from './errors';
/** docs/requirements/api.md#request-rules: content requests time out after 180000 ms. */
export const CONTENT_TIMEOUT_MS = 180_000;
