'use strict';

const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreController('api::system-use-notice.system-use-notice');
