'use strict';

const { factories } = require('@strapi/strapi');

module.exports = factories.createCoreController('api::home-page.home-page');
