import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contentRoute, dataAnswer, defaultErrorMessages, errorAnswer, topic } from '../../testing/content-handlers';
import { recordRequests, server } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';
import { PICKER_TITLE } from '../../features/jurisdiction/jurisdiction-chooser';

const done = { [REGION_COOKIE]: 'J5A', [LICENSE_COOKIE]: 'true' };
const topicRequests = (requests: URL[]) => requests.filter((url) => url.pathname.endsWith('/topics'));

const description = () => document.querySelector('meta[name="description"]')?.getAttribute('content');
const noindex = () => document.querySelector('meta[name="robots"]')?.getAttribute('content') === 'noindex';

describe('topic page', () => {
  // index.html's description, which the page keeps in step (the server-rendered HTML already has the page's own).
  beforeEach(() => {
    document.head.querySelectorAll('meta[name="description"], meta[name="robots"]').forEach((meta) => meta.remove());
    document.head.append(Object.assign(document.createElement('meta'), { name: 'description', content: 'The site' }));
  });

  it('shows a published topic: title, summary, body, a Print button and the page title', async () => {
    const requests = recordRequests();
    renderApp({ path: '/topics/appeals', cookies: done });
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of appeals' })).toBeInTheDocument();
    expect(screen.getByText('Summary of appeals')).toBeInTheDocument();
    expect(await screen.findByText('Body of appeals.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Title of appeals | Medicare Provider Portal'));
    expect(description()).toBe('Summary of appeals');
    expect(noindex()).toBe(false);
    expect(topicRequests(requests)[0]?.searchParams.get('filters[slug][$eq]')).toBe('appeals');
  });

  it("says 'This content was not found.' for a topic that is not published", async () => {
    server.use(http.get(contentRoute('topics'), () => dataAnswer([topic('draft-rule', { publishedAt: null })])));
    renderApp({ path: '/topics/draft-rule', cookies: done });
    expect(await screen.findByRole('heading', { level: 1, name: 'This content was not found.' })).toBeInTheDocument();
    expect(screen.queryByText('Body of draft-rule.')).toBeNull();
    await waitFor(() => expect(document.title).toBe('Content not found | Medicare Provider Portal'));
    expect(description()).toMatch(/^Medicare guidance and provider portal accounts/);
    expect(noindex()).toBe(true);
  });

  it("says 'This content was not found.' for a slug the CMS does not know", async () => {
    renderApp({ path: '/topics/no-such-topic', cookies: done });
    expect(await screen.findByRole('heading', { level: 1, name: 'This content was not found.' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it("sends a topic's former address to its current one, in place of the old one in history", async () => {
    const requests = recordRequests();
    server.use(
      http.get(contentRoute('topic-addresses'), ({ request }) => {
        const slug = new URL(request.url).searchParams.get('filters[slug][$eq]');
        const known = { id: 7, attributes: { slug: 'appeals-old', topicDocumentId: 'doc-appeals' } };
        return dataAnswer(slug === 'appeals-old' ? [known] : []);
      }),
      http.get(contentRoute('topics'), ({ request }) => {
        const query = new URL(request.url).searchParams;
        if (query.get('filters[documentId][$eq]') === 'doc-appeals') return dataAnswer([topic('appeals')]);
        return dataAnswer(query.get('filters[slug][$eq]') === 'appeals' ? [topic('appeals')] : []);
      }),
    );
    const { router } = renderApp({ path: '/topics/appeals-old', cookies: done });
    expect(await screen.findByRole('heading', { level: 1, name: 'Title of appeals' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/topics/appeals');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(requests.some((url) => url.pathname.endsWith('/topic-addresses'))).toBe(true);
  });

  it("says 'This content was not found.' for a 404 answer, without asking again", async () => {
    const requests = recordRequests();
    server.use(http.get(contentRoute('topics'), () => errorAnswer(404, 'Not_Found')));
    renderApp({ path: '/topics/gone', cookies: done });
    expect(await screen.findByRole('heading', { level: 1, name: 'This content was not found.' })).toBeInTheDocument();
    expect(topicRequests(requests)).toHaveLength(1);
  });

  it('shows the CMS text for the error code when the CMS cannot answer, after three more tries, with Try again', async () => {
    const requests = recordRequests();
    server.use(http.get(contentRoute('topics'), () => errorAnswer(502, 'Content_Unavailable')));
    renderApp({ path: '/topics/appeals', cookies: done });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent(defaultErrorMessages.Content_Unavailable!));
    // The message is the page's level-one heading: the page is about it.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(defaultErrorMessages.Content_Unavailable!);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(topicRequests(requests)).toHaveLength(4);
  });

  it('a 4xx error other than 404 is not retried and shows the generic text when its code has none', async () => {
    const requests = recordRequests();
    server.use(http.get(contentRoute('topics'), () => errorAnswer(400, 'Validation_Failed')));
    renderApp({ path: '/topics/appeals', cookies: done });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent(defaultErrorMessages.Generic_Error_For_Services!));
    expect(topicRequests(requests)).toHaveLength(1);
  });

  it('a network failure shows the fallback text when the CMS cannot give any message either', async () => {
    server.use(
      http.get(contentRoute('topics'), () => Response.error()),
      http.get(contentRoute('error-messages'), () => Response.error()),
    );
    renderApp({ path: '/topics/appeals', cookies: done });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('An error has happened, please try again.'));
  });

  it('says when a topic is for other jurisdictions than the chosen one, and the button opens the picker', async () => {
    server.use(
      http.get(contentRoute('topics'), () => dataAnswer([topic('part-b', { jurisdictions: ['J5B', 'J8B'] })])),
    );
    renderApp({ path: '/topics/part-b', cookies: done });
    const notice = await screen.findByText(/This topic is for/);
    expect(notice).toHaveTextContent('This topic is for J5 MAC Part B and J8 MAC Part B. You chose J5 MAC Part A.');
    await userEvent.click(screen.getByRole('button', { name: 'Choose another jurisdiction' }));
    expect(await screen.findByRole('dialog', { name: PICKER_TITLE })).toBeInTheDocument();
  });

  it.each([
    ['for the chosen jurisdiction', ['J5A', 'J8A']],
    ['for every jurisdiction', []],
  ])('says nothing of jurisdictions for a topic %s', async (_, jurisdictions) => {
    server.use(http.get(contentRoute('topics'), () => dataAnswer([topic('rule', { jurisdictions })])));
    renderApp({ path: '/topics/rule', cookies: done });
    expect(await screen.findByText('Body of rule.')).toBeInTheDocument();
    expect(screen.queryByText(/This topic is for/)).toBeNull();
  });

  it('in-app navigation shows a publish within a few seconds: a topic read more than 5 s ago is asked for again', async () => {
    const { router } = renderApp({ path: '/topics/appeals', cookies: done });
    expect(await screen.findByText('Body of appeals.')).toBeInTheDocument();
    // An editor publishes a change; the visitor goes to the home page and back six seconds later.
    server.use(
      http.get(contentRoute('topics'), () => dataAnswer([topic('appeals', { body: 'The published change.' })])),
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 6_000);
      await act(() => router.navigate('/'));
      await act(() => router.navigate('/topics/appeals'));
      expect(await screen.findByText('The published change.')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("an editor's preview page", () => {
  const link = '/preview/topics/abc123?expires=1900000000000&signature=' + 'S'.repeat(43);

  it('shows the draft as the topic page would, under a preview note, with no dialog even without a jurisdiction', async () => {
    const requests = recordRequests();
    server.use(
      http.get(contentRoute('preview/topics/abc123'), () =>
        dataAnswer(topic('wound-care', { title: 'Wound care draft', publishedAt: null })),
      ),
    );
    renderApp({ path: link });
    expect(await screen.findByRole('heading', { level: 1, name: 'Wound care draft' })).toBeInTheDocument();
    expect(await screen.findByText('Body of wound-care.')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/Preview of the draft/);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText(PICKER_TITLE)).toBeNull();
    const asked = requests.find((url) => url.pathname.endsWith('/preview/topics/abc123'));
    expect(asked?.searchParams.get('expires')).toBe('1900000000000');
    expect(asked?.searchParams.get('signature')).toBe('S'.repeat(43));
    await waitFor(() => expect(noindex()).toBe(true));
  });

  it("says 'This content was not found.' when the server refuses the link (404)", async () => {
    server.use(http.get(contentRoute('preview/topics/abc123'), () => errorAnswer(404, 'Not_Found')));
    renderApp({ path: link });
    expect(await screen.findByRole('heading', { level: 1, name: 'This content was not found.' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
