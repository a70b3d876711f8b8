// @vitest-environment node
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, apiRequest } from '../api-client';

/** A real HTTP server stands in for the portal API, so the client's actual fetch is exercised. */
let server: Server;
let base = '';
let lastHeaders: IncomingHttpHeaders = {};
let lastBody = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    lastHeaders = req.headers;
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      lastBody = body;
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (req.url === '/ok') return send(200, { data: { name: 'J5A' } });
      if (req.url === '/bad-request')
        return send(400, { errorMessage: 'Validation_Failed', fieldErrors: { npi: ['Enter the NPI.'] } });
      if (req.url === '/too-many') return send(429, { errorMessage: 'Too_Many_Requests' }, { 'retry-after': '90' });
      if (req.url === '/too-many-no-retry-after') return send(429, { errorMessage: 'Too_Many_Requests' });
      if (req.url === '/html-error') return send(502, '<html>bad gateway</html>');
      return send(404, { errorMessage: 'Not_Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('apiRequest', () => {
  it('sends the custom header with value 1 and answers the data field', async () => {
    await expect(apiRequest(`${base}/ok`)).resolves.toEqual({ name: 'J5A' });
    expect(lastHeaders['x-portal-request']).toBe('1');
  });

  it('posts JSON bodies', async () => {
    await apiRequest(`${base}/ok`, { method: 'POST', body: { npi: '1234567893' } });
    expect(lastHeaders['content-type']).toBe('application/json');
    expect(JSON.parse(lastBody)).toEqual({ npi: '1234567893' });
  });

  it('checks the data against a schema when given one', async () => {
    await expect(apiRequest(`${base}/ok`, { schema: z.object({ name: z.string() }) })).resolves.toEqual({
      name: 'J5A',
    });
    await expect(apiRequest(`${base}/ok`, { schema: z.object({ title: z.string() }) })).rejects.toMatchObject({
      code: 'Generic_Error_For_Services',
    });
  });

  it('turns error answers into ApiError with the code and field errors', async () => {
    const error = await apiRequest(`${base}/bad-request`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'Validation_Failed', fieldErrors: { npi: ['Enter the NPI.'] } });
  });

  it("carries a 429's Retry-After seconds, when it has them", async () => {
    await expect(apiRequest(`${base}/too-many`)).rejects.toMatchObject({
      status: 429,
      code: 'Too_Many_Requests',
      retryAfterSeconds: 90,
    });
    const error = (await apiRequest(`${base}/too-many-no-retry-after`).catch((e: unknown) => e)) as ApiError;
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('maps an unreadable error body to the generic code', async () => {
    await expect(apiRequest(`${base}/html-error`)).rejects.toMatchObject({
      status: 502,
      code: 'Generic_Error_For_Services',
    });
  });

  it('maps a network failure to Service_Unavailable', async () => {
    await expect(apiRequest('http://127.0.0.1:1/unreachable')).rejects.toMatchObject({
      status: 0,
      code: 'Service_Unavailable',
    });
  });
});
