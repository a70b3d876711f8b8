import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config';

/** Whether the peer at `address` (hop 0 = the socket's peer) is a proxy allowed to speak for the client. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * One answer to "which peers are our proxies", used for X-Forwarded-For (Fastify's `request.ip`) and for the
 * incoming X-Request-Id alike. `false` trusts no one; a list trusts exactly those addresses and ranges.
 */
export function proxyTrust(setting: Config['trustProxy']): ProxyTrust {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  return proxyAddr.compile(setting);
}
