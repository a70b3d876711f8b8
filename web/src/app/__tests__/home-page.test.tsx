import { screen, waitFor, within } from '@testing-library/react';
import { REGION_COOKIE } from '@portal/contracts';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contentRoute, dataAnswer, defaultErrorMessages, errorAnswer } from '../../testing/content-handlers';
import { server } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';

const topicTitles = () =>
  within(screen.getByRole('region', { name: /^Topics for/ }))
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);

describe('home page', () => {
  it('shows the CMS hero and every topic while no jurisdiction is chosen', async () => {
    renderApp({ path: '/' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, providers' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Topics for all jurisdictions' });
    expect(await screen.findByText('Title of appeals')).toBeInTheDocument();
    expect(topicTitles()).toEqual(['Title of appeals', 'Part A billing', 'Part B claims']);
  });

  it('lists the topics of the jurisdiction in the cookie', async () => {
    renderApp({ path: '/', cookies: { [REGION_COOKIE]: 'J5B' } });
    await screen.findByRole('heading', { name: 'Topics for J5 MAC Part B' });
    await screen.findByText('Part B claims');
    expect(topicTitles()).toEqual(['Title of appeals', 'Part B claims']);
  });

  it('choosing an inline tile changes the topics at once, without any dialog', async () => {
    const { user } = renderApp({ path: '/' });
    await screen.findByText('Part A billing');
    await user.click(screen.getByRole('button', { name: /^J8 MAC Part A/ }));
    await screen.findByRole('heading', { name: 'Topics for J8 MAC Part A' });
    expect(topicTitles()).toEqual(['Title of appeals', 'Part A billing']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the CMS notices until they are dismissed', async () => {
    server.use(
      http.get(contentRoute('home-page'), () =>
        dataAnswer({
          id: 1,
          attributes: {
            heroTitle: 'Welcome, providers',
            notices: [{ id: 1, title: 'System maintenance', text: 'Sunday 2–4 am.', severity: 'warning' }],
          },
        }),
      ),
    );
    const { user } = renderApp({ path: '/' });
    const notices = await screen.findByRole('region', { name: 'Notices' });
    expect(within(notices).getByText('System maintenance')).toBeInTheDocument();
    await user.click(within(notices).getByRole('button', { name: 'Dismiss notices' }));
    expect(screen.queryByRole('region', { name: 'Notices' })).toBeNull();
  });

  it('says what the CMS says about the error when the home content cannot be fetched', async () => {
    server.use(http.get(contentRoute('home-page'), () => errorAnswer(400, 'Content_Unavailable')));
    renderApp({ path: '/' });
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent(defaultErrorMessages.Content_Unavailable!));
  });
});
