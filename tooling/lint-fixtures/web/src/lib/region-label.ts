export const regionLabel = 'region';
