/** One day in milliseconds: the one definition the server and the web app use. */
export const DAY_MS = 24 * 60 * 60 * 1000;
