import {
  Alert,
  AlertTitle,
  Box,
  Card,
  CardActionArea,
  CardContent,
  Grid,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { memo, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { TopicEntry } from '@portal/contracts';
import { ContentMarkdown } from '../../../components/content-markdown/content-markdown';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-error';
import { useRegion } from '../../../lib/region/region-context';
import { useSession } from '../../../lib/session/session-context';
import { useErrorMessage } from '../../../lib/error-messages';
import { useHomePage } from '../api/get-home-page';
import { topicsFor, useTopics } from '../api/get-topics';

// Memoised: the home page re-renders when the session check answers, and its cards have not changed.
const TopicCard = memo(function TopicCard({ topic }: { topic: TopicEntry }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea
        component={RouterLink}
        to={paths.topic.href(topic.attributes.slug)}
        sx={{ height: '100%', alignItems: 'flex-start' }}
      >
        <CardContent>
          <Typography component="h3" variant="h3" sx={{ fontSize: '1.1rem', color: 'primary.main', mb: 1 }}>
            {topic.attributes.title}
          </Typography>
          {topic.attributes.summary && <Typography variant="body2">{topic.attributes.summary}</Typography>}
        </CardContent>
      </CardActionArea>
    </Card>
  );
});

function CardsSkeleton() {
  return (
    <Grid container spacing={2} role="status" aria-busy="true" aria-label="Loading topics">
      {[0, 1, 2].map((i) => (
        <Grid key={i} size={{ xs: 12, sm: 6, md: 4 }}>
          <Skeleton variant="rounded" height={120} />
        </Grid>
      ))}
    </Grid>
  );
}

function ContentProblem({ error }: { error: unknown }) {
  const message = useErrorMessage(error instanceof ApiError ? error.code : 'Content_Unavailable');
  return <Alert severity="warning">{message.data ?? 'Loading…'}</Alert>;
}

/**
 * Home page (`/`) content: CMS hero and notices, topics for the current jurisdiction, then `chooser` (the page
 * composes the inline jurisdiction tiles in, so this feature does not import the jurisdiction feature).
 */
export function HomeContent({ chooser }: { chooser?: ReactNode }) {
  const home = useHomePage();
  const topics = useTopics();
  const { jurisdiction, option } = useRegion();
  const { showAlerts, setShowAlerts } = useSession();
  const attributes = home.data?.attributes;
  const notices = attributes?.notices ?? [];
  // Featured topics follow the jurisdiction too: a Part A office has no use for a featured Part B article.
  const featured = topicsFor(attributes?.featuredTopics?.data ?? [], jurisdiction);
  const visibleTopics = topics.data ? topicsFor(topics.data, jurisdiction) : [];

  return (
    <Stack spacing={4}>
      <Box component="section" aria-labelledby="home-title">
        {home.isPending ? (
          <>
            <Skeleton variant="text" sx={{ fontSize: '2rem', width: '50%' }} />
            <Skeleton variant="text" />
          </>
        ) : (
          <>
            <Typography id="home-title" variant="h1" gutterBottom>
              {attributes?.heroTitle ?? 'Medicare guidance for your region'}
            </Typography>
            {attributes?.heroText && <ContentMarkdown>{attributes.heroText}</ContentMarkdown>}
          </>
        )}
      </Box>

      {showAlerts && notices.length > 0 && (
        <Stack spacing={1} component="section" aria-label="Notices">
          {notices.map((notice, i) => (
            <Alert
              key={notice.id ?? i}
              severity={notice.severity === 'warning' ? 'warning' : 'info'}
              onClose={() => setShowAlerts(false)}
              slotProps={{ closeButton: { title: 'Dismiss notices', 'aria-label': 'Dismiss notices' } }}
            >
              <AlertTitle>{notice.title}</AlertTitle>
              {notice.text && <ContentMarkdown>{notice.text}</ContentMarkdown>}
            </Alert>
          ))}
        </Stack>
      )}

      {(home.isError || topics.isError) && <ContentProblem error={home.error ?? topics.error} />}

      {featured.length > 0 && (
        <Box component="section" aria-labelledby="featured-title">
          <Typography id="featured-title" variant="h2" gutterBottom>
            Featured
          </Typography>
          <Grid container spacing={2}>
            {featured.map((t) => (
              <Grid key={t.id} size={{ xs: 12, sm: 6, md: 4 }}>
                <TopicCard topic={t} />
              </Grid>
            ))}
          </Grid>
        </Box>
      )}

      <Box component="section" aria-labelledby="topics-title">
        <Typography id="topics-title" variant="h2" gutterBottom>
          {option ? `Topics for ${option.title}` : 'Topics for all jurisdictions'}
        </Typography>
        {topics.isPending ? (
          <CardsSkeleton />
        ) : visibleTopics.length === 0 && !topics.isError ? (
          <Typography>No topics are published for this jurisdiction yet.</Typography>
        ) : (
          <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {visibleTopics.map((t) => (
              <Grid key={t.id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
                <TopicCard topic={t} />
              </Grid>
            ))}
          </Grid>
        )}
      </Box>

      {chooser}
    </Stack>
  );
}
