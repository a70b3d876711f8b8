import { startStrapi, type RunningStrapi } from '../../server/test/support/strapi';

export type RunningCms = RunningStrapi;

/**
 * Starts the real Strapi CMS without its admin panel on a throw-away SQLite file (the same launcher as the server
 * suite's real-Strapi tests). It hands the portal its API token and webhook secret through files in the portal's
 * data folder.
 */
export function startCms(options: { portalDataDir: string; webhookUrl: string }): Promise<RunningCms> {
  return startStrapi({ portalDataDir: options.portalDataDir, webhookUrl: options.webhookUrl });
}
