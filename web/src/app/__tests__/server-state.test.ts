import { describe, expect, it } from 'vitest';
import {
  freshQueries,
  readServerState,
  serializeServerState,
  SERVER_STATE_ELEMENT_ID,
  type ServerState,
} from '../server-state';

const state = (text: string): ServerState => ({
  queries: {
    mutations: [],
    queries: [
      {
        queryKey: ['content', 'topic', 'x'],
        queryHash: 'h',
        dehydratedAt: 1,
        state: { data: { body: text }, dataUpdatedAt: 1 } as never,
      },
    ],
  },
  mayHaveSession: false,
  markdown: [[text, { type: 'p', props: { children: text } }]],
});

describe('server state in the page', () => {
  it('cannot close its script element or open a comment, and reads back unchanged', () => {
    const text = 'a </script><script>alert(1)</script> <!-- b \u2028';
    const json = serializeServerState(state(text));
    expect(json).not.toMatch(/<\/script|<!--/i);
    document.body.innerHTML = `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${json}</script>`;
    expect(readServerState(document)).toEqual(state(text));
  });

  it('is absent from a page the server did not render', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(readServerState(document)).toBeUndefined();
  });

  it('counts the server answers as fetched now, so the browser does not fetch them again at once', () => {
    expect(freshQueries(state('x').queries, 5000).queries[0]!.state.dataUpdatedAt).toBe(5000);
  });
});
