import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientKey } from './rate-limit';

export const CSP_REPORT_PATH = '/api/csp-report';
/** The name the CSP's `report-to` directive and the Reporting-Endpoints header give the endpoint. */
export const CSP_REPORT_GROUP = 'csp-endpoint';

/** Reports are small; a browser sends a handful per page at most. */
const REPORT_BODY_LIMIT = 16 * 1024;
/** Per client address: enough for a page with several violations, too few to flood the logs. */
const REPORTS_PER_MINUTE = 20;

const text = z.string().max(4096).optional();
const line = z.number().int().nonnegative().optional();

/** `report-uri` format (application/csp-report). */
const LegacyReport = z.object({
  'csp-report': z.looseObject({
    'document-uri': text,
    'violated-directive': text,
    'effective-directive': text,
    'blocked-uri': text,
    'source-file': text,
    'line-number': line,
    disposition: text,
  }),
});

/** Reporting API format (application/reports+json): a list of reports, of which only CSP ones are logged. */
const ReportingApiReports = z
  .array(
    z.looseObject({
      type: z.string().max(64),
      body: z
        .looseObject({
          documentURL: text,
          effectiveDirective: text,
          blockedURL: text,
          sourceFile: text,
          lineNumber: line,
          disposition: text,
        })
        .optional(),
    }),
  )
  .max(50);

/** Origin and path only: a query string or fragment may carry personal data (search terms, identifiers). */
function withoutQuery(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`.slice(0, 300);
  } catch {
    // `inline`, `eval`, `self` and the like are keywords, not URLs.
    return url.slice(0, 40);
  }
}

interface Violation {
  documentUrl?: string;
  directive?: string;
  blockedUrl?: string;
  sourceFile?: string;
  line?: number;
  disposition?: string;
}

function violationsOf(body: z.infer<typeof LegacyReport> | z.infer<typeof ReportingApiReports>): Violation[] {
  if (!Array.isArray(body)) {
    const r = body['csp-report'];
    return [
      {
        documentUrl: withoutQuery(r['document-uri']),
        directive: (r['effective-directive'] ?? r['violated-directive'])?.slice(0, 100),
        blockedUrl: withoutQuery(r['blocked-uri']),
        sourceFile: withoutQuery(r['source-file']),
        line: r['line-number'],
        disposition: r.disposition?.slice(0, 20),
      },
    ];
  }
  return body
    .filter((report) => report.type === 'csp-violation' && report.body)
    .map(({ body: r }) => ({
      documentUrl: withoutQuery(r!.documentURL),
      directive: r!.effectiveDirective?.slice(0, 100),
      blockedUrl: withoutQuery(r!.blockedURL),
      sourceFile: withoutQuery(r!.sourceFile),
      line: r!.lineNumber,
      disposition: r!.disposition?.slice(0, 20),
    }));
}

/**
 * Where browsers report Content-Security-Policy violations (`report-uri` and `report-to` in the CSP): each is
 * logged at warn level so a blocked script or a policy too strict for a vendor shows up in the logs. Browsers send
 * these without the portal's CSRF header; the route only logs, so it is exempt from the CSRF check, and it is rate
 * limited per client so it cannot be used to flood the logs.
 */
export async function cspReportRoutes(app: FastifyInstance) {
  // In-memory counters (one instance's view); a shared store can be passed here once one exists.
  await app.register(rateLimit, { global: false, keyGenerator: clientKey });
  app.addContentTypeParser(
    ['application/csp-report', 'application/reports+json'],
    { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT },
    app.getDefaultJsonParser('error', 'error'),
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    CSP_REPORT_PATH,
    {
      bodyLimit: REPORT_BODY_LIMIT,
      config: {
        audit: { exempt: 'browsers report policy violations here; it only logs (CSRF-exempt, rate limited)' },
        csrf: false,
        rateLimit: { max: REPORTS_PER_MINUTE, timeWindow: 60_000 },
        answers: { 204: { description: 'The report was logged.' } },
      },
      schema: {
        summary: 'Content-Security-Policy violation reports (report-uri and Reporting API forms), sent by browsers',
        body: z.union([LegacyReport, ReportingApiReports]),
      },
    },
    async (request, reply) => {
      for (const violation of violationsOf(request.body))
        request.log.warn({ cspViolation: violation }, 'content security policy violation');
      return reply.code(204).send();
    },
  );
}
