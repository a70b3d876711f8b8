import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER } from '@portal/contracts/http';
import type { ProxyTrust } from './proxy-trust';

/** What an incoming id may look like: it is echoed in a header and written to the logs. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const headerName = REQUEST_ID_HEADER.toLowerCase();

/**
 * Request ids for Fastify's `genReqId`: a well-formed X-Request-Id is kept only when the direct peer is a trusted
 * proxy (so a load balancer's id correlates its logs with ours); a browser's id, or a malformed one, is replaced.
 */
export function requestIdGenerator(trust: ProxyTrust) {
  return (req: IncomingMessage): string => {
    const incoming = req.headers[headerName];
    const peer = req.socket?.remoteAddress;
    return typeof incoming === 'string' && SAFE_ID.test(incoming) && peer !== undefined && trust(peer, 0)
      ? incoming
      : randomUUID();
  };
}
