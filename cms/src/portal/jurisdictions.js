'use strict';
const { errors } = require('@strapi/utils');

// The portal's jurisdictions are defined once, in the contracts package (J5A, J5B, J8A, J8B today).
const JURISDICTIONS = require('../../../packages/contracts/src/jurisdictions.json').map((entry) => entry.value);

/** Rejects a topic whose `jurisdictions` is not a list drawn from the portal's jurisdictions. */
function validateJurisdictions(value) {
  if (value === undefined || value === null) return;
  const ok = Array.isArray(value) && value.every((v) => JURISDICTIONS.includes(v));
  if (!ok)
    throw new errors.ValidationError(
      `jurisdictions must be a list of ${JURISDICTIONS.join(', ')} (for example ["J5A","J8B"])`,
    );
}

module.exports = { JURISDICTIONS, validateJurisdictions };
