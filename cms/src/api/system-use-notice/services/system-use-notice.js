'use strict';

const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreService('api::system-use-notice.system-use-notice');
