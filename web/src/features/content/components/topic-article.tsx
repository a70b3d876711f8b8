import { Alert, Box, Button, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useEffect } from 'react';
import { CONTENT_NOT_FOUND_TEXT } from '@portal/contracts/errors';
import { selectableJurisdictions } from '@portal/contracts/jurisdiction-list';
import { Link as RouterLink, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import type { TopicEntry } from '@portal/contracts';
import { useTopic } from '../api/get-topic';
import { useTopicPreview, type PreviewLink } from '../api/get-topic-preview';
import { ContentMarkdown } from '../../../components/content-markdown/content-markdown';
import { PRINT_BLOCK_ID, usePrintBlock } from './use-print-block';
import { useErrorMessage } from '../../../lib/error-messages';
import { ApiError } from '../../../lib/api-error';
import { useRegion } from '../../../lib/region/region-context';
import { useHydrated } from '../../../lib/use-hydrated';

function TopicSkeleton() {
  return (
    <Box role="status" aria-busy="true" aria-label="Loading the topic">
      <Skeleton variant="text" sx={{ fontSize: '2rem', width: '60%' }} />
      <Skeleton variant="text" />
      <Skeleton variant="text" />
      <Skeleton variant="rectangular" height={160} sx={{ mt: 2 }} />
    </Box>
  );
}

export function TopicNotFound() {
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="h1">{CONTENT_NOT_FOUND_TEXT}</Typography>
      <Button component={RouterLink} to={paths.home.href()} variant="contained">
        Go to the home page
      </Button>
    </Stack>
  );
}

function ContentError({ code }: { code: string }) {
  const message = useErrorMessage(code);
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={() => window.location.reload()}>
          Try again
        </Button>
      }
    >
      {/* The message is what this page is about: it is the page's level-one heading, in the alert's own type. */}
      <Typography component="h1" sx={{ font: 'inherit' }}>
        {message.data ?? 'Loading…'}
      </Typography>
    </Alert>
  );
}

/** "A and B" / "A, B and C". */
function listOf(names: string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * A topic for other jurisdictions than the visitor's (docs/requirements/public-site.md#topic-page) says so, with a
 * way to choose another jurisdiction. Shown once hydrated: the server's page is shared by every visitor.
 */
function OtherJurisdictionNotice({ jurisdictions }: { jurisdictions: readonly string[] | null | undefined }) {
  const hydrated = useHydrated();
  const { jurisdiction, option, openPicker } = useRegion();
  const list = jurisdictions ?? [];
  if (!hydrated || !jurisdiction || list.length === 0 || list.includes(jurisdiction)) return null;
  const names = selectableJurisdictions.filter((j) => list.includes(j.value)).map((j) => j.title);
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" onClick={openPicker}>
          Choose another jurisdiction
        </Button>
      }
    >
      This topic is for {listOf(names)}. You chose {option?.title ?? jurisdiction}.
    </Alert>
  );
}

/**
 * A topic's former address (an editor changed its slug after publishing): the server answers 301 to the current one
 * (docs/requirements/public-site.md#topic-page); in the app, the same move, in place of the old address in history.
 */
function TopicMoved({ to }: { to: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace: true });
  }, [navigate, to]);
  return (
    <Typography>
      This page has moved to{' '}
      <Link component={RouterLink} to={to}>
        {to}
      </Link>
      .
    </Typography>
  );
}

/** A CMS topic: unpublished or unknown → 'This content was not found.' (docs/requirements/public-site.md#topic-page). */
export function TopicArticle({ slug }: { slug: string }) {
  const topic = useTopic(slug);
  const print = usePrintBlock();
  const attributes = topic.data?.topic?.attributes;
  const published = !!attributes?.publishedAt;
  const movedTo = topic.data?.movedTo === undefined ? undefined : paths.topic.href(topic.data.movedTo);
  const notFound =
    (!topic.isPending && !topic.isError && !published && !movedTo) ||
    (topic.error instanceof ApiError && topic.error.status === 404);
  const title = published ? attributes?.title : movedTo ? 'Page moved' : 'Content not found';
  useDocumentTitle(topic.isPending ? 'Loading' : title, {
    description: published ? (attributes?.summary ?? undefined) : undefined,
    notFound,
    movedTo,
  });

  if (topic.isPending) return <TopicSkeleton />;
  if (topic.isError) {
    const error = topic.error;
    if (error instanceof ApiError && error.status === 404) return <TopicNotFound />;
    return <ContentError code={error instanceof ApiError ? error.code : 'Generic_Error_For_Services'} />;
  }
  if (movedTo) return <TopicMoved to={movedTo} />;
  if (!attributes || !published) return <TopicNotFound />;
  return <TopicView attributes={attributes} onPrint={print} />;
}

/**
 * An editor's preview of a draft (docs/requirements/public-site.md#preview): the topic as its page will show it, under
 * a note saying it is a preview. A link that is not signed for this draft, or has expired, shows the not-found state.
 */
export function TopicPreview({ link }: { link: PreviewLink }) {
  const topic = useTopicPreview(link);
  const print = usePrintBlock();
  const attributes = topic.data?.attributes;
  const notFound = topic.error instanceof ApiError && topic.error.status === 404;
  useDocumentTitle(topic.isPending ? 'Loading' : attributes ? `Preview: ${attributes.title}` : 'Content not found', {
    notFound: true,
  });

  if (topic.isPending) return <TopicSkeleton />;
  if (notFound || (!topic.isError && !attributes)) return <TopicNotFound />;
  if (topic.isError || !attributes) {
    const error = topic.error;
    return <ContentError code={error instanceof ApiError ? error.code : 'Generic_Error_For_Services'} />;
  }
  return (
    <>
      <Alert severity="warning" role="note" sx={{ mb: 2 }}>
        Preview of the draft: visitors see these changes only once they are published.
      </Alert>
      <TopicView attributes={attributes} onPrint={print} />
    </>
  );
}

function TopicView({ attributes, onPrint }: { attributes: TopicEntry['attributes']; onPrint: () => void }) {
  return (
    <Box>
      <Stack direction="row" sx={{ mb: 1, justifyContent: 'flex-end' }}>
        <Button variant="outlined" onClick={onPrint}>
          Print
        </Button>
      </Stack>
      <OtherJurisdictionNotice jurisdictions={attributes.jurisdictions} />
      <Box component="article" id={PRINT_BLOCK_ID} aria-labelledby="topic-title">
        <Typography id="topic-title" variant="h1" gutterBottom>
          {attributes.title}
        </Typography>
        {attributes.summary && (
          <Typography variant="subtitle1" component="p" sx={{ color: 'text.secondary', mb: 2 }}>
            {attributes.summary}
          </Typography>
        )}
        <ContentMarkdown>{attributes.body ?? ''}</ContentMarkdown>
      </Box>
    </Box>
  );
}
