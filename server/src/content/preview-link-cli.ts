// Prints a signed preview link for editors: `npm run preview-link -w server -- [/path] [hours]`.
import { loadConfig } from '../config';
import { previewLink } from './preview';

const config = loadConfig();
if (!config.cms.preview || !config.cms.previewSecret) {
  console.error(
    'Set CONTENT_PREVIEW=true and CONTENT_PREVIEW_SECRET (the same values as the preview instance) to make a preview link.',
  );
  process.exit(1);
}
const [to = '/', hours = '8'] = process.argv.slice(2);
console.log(previewLink(config.publicUrl, config.cms.previewSecret, { to, ttlMs: Number(hours) * 60 * 60 * 1000 }));
