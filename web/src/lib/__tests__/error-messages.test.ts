import { GENERIC_ERROR_CODE } from '@portal/contracts';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contentRoute, dataAnswer, defaultErrorMessages, errorAnswer } from '../../testing/content-handlers';
import { recordRequests, server } from '../../testing/msw-server';
import { lookUpErrorMessage } from '../error-messages';

const FALLBACK = 'An error has happened, please try again.';
const askedCodes = (requests: URL[]) => requests.map((url) => url.searchParams.get('filters[ErrorCode][$eq]'));

describe('error-message lookup', () => {
  it("answers the CMS's text for the code", async () => {
    expect(await lookUpErrorMessage('Content_Unavailable')).toBe(defaultErrorMessages.Content_Unavailable);
  });

  it('falls back to the text of Generic_Error_For_Services when the code has none', async () => {
    const requests = recordRequests();
    expect(await lookUpErrorMessage('Some_Unknown_Code')).toBe(defaultErrorMessages[GENERIC_ERROR_CODE]);
    expect(askedCodes(requests)).toEqual(['Some_Unknown_Code', GENERIC_ERROR_CODE]);
  });

  it("falls back to 'An error has happened, please try again.' when neither has a text", async () => {
    server.use(http.get(contentRoute('error-messages'), () => dataAnswer([])));
    expect(await lookUpErrorMessage('Some_Unknown_Code')).toBe(FALLBACK);
  });

  it('asks once, not twice, when the generic code itself has no text', async () => {
    const requests = recordRequests();
    server.use(http.get(contentRoute('error-messages'), () => dataAnswer([])));
    expect(await lookUpErrorMessage(GENERIC_ERROR_CODE)).toBe(FALLBACK);
    expect(askedCodes(requests)).toEqual([GENERIC_ERROR_CODE]);
  });

  it('answers the fallback text when the CMS cannot answer', async () => {
    server.use(http.get(contentRoute('error-messages'), () => errorAnswer(502, 'Content_Unavailable')));
    expect(await lookUpErrorMessage('Content_Unavailable')).toBe(FALLBACK);
  });
});
