import { defineConfig } from 'drizzle-kit';

// Migrations are generated from src/db/schema.ts, reviewed and committed (docs/decisions/0002).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});
