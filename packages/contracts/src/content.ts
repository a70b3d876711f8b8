import { z } from 'zod';

/**
 * Content shapes as the CMS answers them through /api/content (Strapi's v4 response format: the SPA reads
 * `data.attributes.*`, spec §3, §7). Answers are parsed, not cast: editors can change content types.
 */
export const CONTENT_PATH = '/api/content';

const entry = <T extends z.ZodRawShape>(attributes: T) =>
  z.object({
    id: z.number(),
    documentId: z.string().optional(),
    attributes: z.object({ publishedAt: z.string().nullable().optional(), ...attributes }),
  });

export const TopicAttributes = {
  title: z.string(),
  slug: z.string(),
  summary: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  jurisdictions: z.array(z.string()).nullable().optional(),
  order: z.number().nullable().optional(),
  updatedAt: z.string().optional(),
};
export const TopicEntrySchema = entry(TopicAttributes);
export type TopicEntry = z.infer<typeof TopicEntrySchema>;
export const TopicListSchema = z.array(TopicEntrySchema);

export const NoticeSchema = z.object({
  id: z.number().optional(),
  title: z.string(),
  text: z.string().nullable().optional(),
  severity: z.enum(['info', 'warning']).nullable().optional(),
});

export const HomePageEntrySchema = entry({
  heroTitle: z.string().nullable().optional(),
  heroText: z.string().nullable().optional(),
  featuredTopics: z.object({ data: TopicListSchema }).nullable().optional(),
  notices: z.array(NoticeSchema).nullable().optional(),
});
export type HomePageEntry = z.infer<typeof HomePageEntrySchema>;

export const LicenseEntrySchema = entry({ LicenseText: z.string().nullable() });

export const ErrorMessageListSchema = z.array(entry({ ErrorCode: z.string(), Message: z.string() }));

export const SecurityQuestionListSchema = z.array(entry({ question: z.string(), order: z.number().nullable().optional() }));
export type SecurityQuestion = z.infer<typeof SecurityQuestionListSchema>[number];

/** Spec §4/§8: the text shown for unpublished or unknown content. */
export const CONTENT_NOT_FOUND_TEXT = 'This content was not found.';
/** Spec §9: content requests time out after 180000 ms. */
export const CONTENT_TIMEOUT_MS = 180_000;
