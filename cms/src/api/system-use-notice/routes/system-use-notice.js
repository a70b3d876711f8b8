'use strict';

const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreRouter('api::system-use-notice.system-use-notice');
