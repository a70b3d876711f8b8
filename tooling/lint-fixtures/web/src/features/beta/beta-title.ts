export const betaTitle = 'beta';
