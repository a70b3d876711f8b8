'use strict';
const { errors } = require('@strapi/utils');

const JURISDICTIONS = ['J5A', 'J5B', 'J8A', 'J8B'];

/** Rejects a topic whose `jurisdictions` is not a list drawn from J5A, J5B, J8A, J8B. */
function validateJurisdictions(value) {
  if (value === undefined || value === null) return;
  const ok = Array.isArray(value) && value.every((v) => JURISDICTIONS.includes(v));
  if (!ok) throw new errors.ValidationError(`jurisdictions must be a list of ${JURISDICTIONS.join(', ')} (for example ["J5A","J8B"])`);
}

module.exports = { JURISDICTIONS, validateJurisdictions };
