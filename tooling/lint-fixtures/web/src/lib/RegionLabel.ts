// Bad: not kebab-case.
export const regionLabel = 'region';
